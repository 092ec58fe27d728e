package env

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/anynt/anynt/random"
)

// Planner is an agent that is shown its episode before the first scored
// interaction, with how the score weighs the rewards of the interactions
// it will play (one weight each: 1/n each for the mean reward of n, the
// score Run returns; a test's payoff weighs them otherwise), so that it
// can run the environment forward (Save, Begin, Finish, Restore) and plan
// (package agent's optimal). Plan must leave the episode as it found it:
// Restore the State it saved first. Run asks every Planner to plan; a
// caller that plays by Interact calls Episode.Plan itself. Agents that do
// not plan are not asked anything, so their interactions cost the same.
type Planner interface {
	Agent
	Plan(ep *Episode, weights []float64)
}

// Plan shows the episode to its agent if it is a Planner, before the first
// scored interaction, with the weights of the rewards to come in its
// score; the VM step counts and bound counts of the planning runs are
// forgotten, so that MaxSteps and Bounds describe the episode played.
// Other agents are not asked anything.
func (ep *Episode) Plan(weights []float64) {
	p, ok := ep.agent.(Planner)
	if !ok {
		return
	}
	maxSteps, bounds := ep.MaxSteps, slices.Clone(ep.Bounds)
	p.Plan(ep, weights)
	ep.MaxSteps, ep.Bounds = maxSteps, bounds
}

// MeanWeights weighs n interactions equally, 1/n each: the score of an
// episode played by Run, its mean reward.
func MeanWeights(n int) []float64 {
	w := make([]float64, n)
	for t := range w {
		w[t] = 1 / float64(n)
	}
	return w
}

// Env is the environment the episode runs.
func (ep *Episode) Env() *Env { return ep.env }

// State is everything an episode's future depends on, between or within
// interactions: where everything is, the cell rewards, the pattern's
// place, the reward levels, the cycle's count, the environment's random
// stream, and each behaviour's memory (as its id in the behaviour's memo).
// Restore puts it back, so that a planner can try every action from one
// state, exactly as the episode would play it.
type State struct {
	pos         []int
	cellReward  []float64
	halvedFrom  []uint64
	halvings    uint64
	lambdaCells [2]int
	patternAt   int
	level       [2]int
	untilSwap   int
	intended    [2]int
	moves       []int
	begun       bool
	last        float64
	rng         random.Rand // the environment's stream
	mems        []uint32    // the objects', then Good's and Evil's
}

// ErrUnsaved is the cause of Save's and AppendKey's error when a
// behaviour's memory is not held in its memo: the memo was full (or the
// episode is a plain one, without memos), so the memory lives in the
// machine alone and a saved state could not bring it back.
var ErrUnsaved = errors.New("a behaviour's memory is not in its memo")

// runners lists the behaviour runners that run a program, in State.mems
// order.
func (ep *Episode) runners(f func(r *behaviourRunner) error) error {
	for i := range ep.objects {
		if err := f(&ep.objects[i]); err != nil {
			return err
		}
	}
	for _, r := range []*behaviourRunner{&ep.good, &ep.evil} {
		if r.machine == nil {
			continue
		}
		if err := f(r); err != nil {
			return err
		}
	}
	return nil
}

func checkSaved(r *behaviourRunner) error {
	if r.memo == nil || r.mem == noMemory {
		return fmt.Errorf("save: %w", ErrUnsaved)
	}
	return nil
}

// Save returns the episode's state, or ErrUnsaved.
func (ep *Episode) Save() (State, error) {
	if err := ep.runners(checkSaved); err != nil {
		return State{}, err
	}
	s := State{
		pos:         slices.Clone(ep.pos),
		cellReward:  slices.Clone(ep.cellReward),
		halvedFrom:  slices.Clone(ep.halvedFrom),
		halvings:    ep.halvings,
		lambdaCells: ep.lambdaCells,
		patternAt:   ep.patternAt,
		level:       ep.level,
		untilSwap:   ep.untilSwap,
		intended:    ep.intended,
		moves:       slices.Clone(ep.moves),
		begun:       ep.begun,
		last:        ep.last,
		rng:         *ep.rng,
	}
	_ = ep.runners(func(r *behaviourRunner) error {
		s.mems = append(s.mems, r.mem)
		return nil
	})
	return s, nil
}

// Restore puts back a state Save returned from this episode. Each
// machine's memory register is loaded from the memo when its next run
// misses.
func (ep *Episode) Restore(s State) {
	copy(ep.pos, s.pos)
	copy(ep.cellReward, s.cellReward)
	copy(ep.halvedFrom, s.halvedFrom)
	ep.halvings = s.halvings
	ep.lambdaCells = s.lambdaCells
	ep.patternAt = s.patternAt
	ep.level = s.level
	ep.untilSwap = s.untilSwap
	ep.intended = s.intended
	copy(ep.moves, s.moves)
	ep.begun = s.begun
	ep.last = s.last
	*ep.rng = s.rng
	ep.view.built = false
	i := 0
	_ = ep.runners(func(r *behaviourRunner) error {
		r.mem, r.loaded = s.mems[i], false
		i++
		return nil
	})
}

// AppendKey appends to b a key of the episode's state between
// interactions: two states with one key have the same future, whatever π
// does (the same rewards for the same actions), so a planner may merge
// them. It holds what Save does but the reward of π's last action (which
// the future does not depend on) and the cell rewards as they are now
// (rather than as given and halved since); in Λ_one mode, where every cell
// reward is replaced after the moves, it holds none. It is ErrUnsaved when
// Save would be.
func (ep *Episode) AppendKey(b []byte) ([]byte, error) {
	if err := ep.runners(checkSaved); err != nil {
		return b, err
	}
	for _, c := range ep.pos {
		b = binary.AppendUvarint(b, uint64(c))
	}
	if ep.env.Settings.Rewards == TraceRewards {
		for c := range ep.cellReward {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(ep.rewardIn(c)))
		}
	}
	for _, x := range []int{ep.patternAt, ep.level[0], ep.level[1], ep.untilSwap} {
		b = binary.AppendUvarint(b, uint64(x))
	}
	b, _ = ep.rng.AppendBinary(b)
	_ = ep.runners(func(r *behaviourRunner) error {
		b = binary.AppendUvarint(b, uint64(r.mem))
		return nil
	})
	return b, nil
}
