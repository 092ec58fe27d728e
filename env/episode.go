package env

import (
	"errors"
	"fmt"

	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/vm"
)

// Episode is one run of an environment with an agent: placement, an
// optional start-up garbage phase, then the scored interactions.
type Episode struct {
	env   *Env
	agent Agent
	act   func(*View) int // agent.Act, bound once
	last  float64         // π's last reward
	rng   *random.Rand
	pos   []int // cells of π, ⊕, ⊖, ω1…
	// cellReward holds the reward each cell was given last, halvings the
	// interactions' halvings so far and halvedFrom, for each cell, their
	// number when it was given: every cell's reward halves each
	// interaction, and a reward is halved only when read (rewardIn), so an
	// interaction costs the same whatever the number of cells.
	cellReward   []float64
	halvedFrom   []uint64
	halvings     uint64
	shownRewards []float64 // CellRewards' scratch
	// lambdaCells are the cells given a reward in the last Λ_one
	// interaction, the only ones that are not 0.
	lambdaCells [2]int
	*behaviours
	patternAt int
	level     [2]int // the reward level Good and Evil chose last
	untilSwap int
	intended  [2]int
	begun     bool // Begin was called, Finish not yet
	view      View
	// shownObjects, shownArrows, shownText and shownPieces are
	// observation's scratch.
	shownObjects, shownArrows []placed
	shownText                 []byte
	shownPieces               []vm.Piece
	moves                     []int
	// MaxSteps is the most VM steps any interaction took, all its
	// behaviour runs together: the time part of Kt^max ([T] Def. 3.4.1).
	MaxSteps int
	steps    int           // of the interaction under way
	lastHalt vm.HaltReason // of the last run of the VM
	// Bounds counts, for each behaviour program, its runs and those that
	// ended at a bound (see Bounds).
	Bounds []BoundCount
}

// BoundCount counts the runs of one behaviour and those that a bound
// stopped: the output of such a run is the string so far ([P] §6.2), which
// is legal but rarely what the author meant.
type BoundCount struct {
	Behaviour string // an object's name, or "Good/Evil"
	Runs      int
	// StepLimit counts the runs stopped by max-steps, LengthLimit those
	// stopped by max-len (an observation longer than max-len included),
	// WorkLimit those stopped by max-work.
	StepLimit, LengthLimit, WorkLimit int
}

// Hit reports whether any run ended at a bound.
func (c BoundCount) Hit() bool { return c.StepLimit+c.LengthLimit+c.WorkLimit > 0 }

// add counts a run that ended with h.
func (c *BoundCount) add(h vm.HaltReason) {
	c.Runs++
	switch h {
	case vm.StepLimit:
		c.StepLimit++
	case vm.LengthLimit, vm.InputTooLong:
		c.LengthLimit++
	case vm.WorkLimit:
		c.WorkLimit++
	}
}

// newBoundCounts names a count for each object, then Good/Evil when it
// runs a program: the order of behaviourRunner.count.
func newBoundCounts(e *Env) []BoundCount {
	var c []BoundCount
	for _, o := range e.Objects {
		c = append(c, BoundCount{Behaviour: o.Name})
	}
	if e.GoodEvil.Program != nil {
		c = append(c, BoundCount{Behaviour: "Good/Evil"})
	}
	return c
}

// NewEpisode places everything and readies the behaviours. The seed decides
// every random choice of the environment; the agent gets its own stream
// from the same seed.
func NewEpisode(e *Env, agent Agent, seed uint64) *Episode {
	return newEpisode(e, agent, seed, newBehaviours(e))
}

// NewPlainEpisode is NewEpisode without the memos: every run of a
// behaviour builds its observation and runs on the VM. It plays exactly as
// NewEpisode, only slower; the tests and the fuzzer compare the two.
func NewPlainEpisode(e *Env, agent Agent, seed uint64) *Episode {
	b := newBehaviours(e)
	for i := range b.objects {
		b.objects[i].memo = nil
	}
	b.good.memo, b.evil.memo = nil, nil
	return newEpisode(e, agent, seed, b)
}

// The second words of the PCG streams an episode draws from, the first
// being its seed: the environment's (placement, swaps, coins), the
// agent's, and the garbage phase's random agent's. They are part of what a
// seed means: changing one changes every recorded trajectory, and the lean
// episodes (LeanPlayer, which the generator's filters play) draw from the
// same streams.
const (
	EnvironmentStream = 0x5eed_e11e
	AgentStream       = 0xa6e7
	GarbageStream     = 0x6a7ba6e
)

// newEpisode is NewEpisode with behaviours readied before, whose memories
// it empties.
func newEpisode(e *Env, agent Agent, seed uint64, b *behaviours) *Episode {
	b.reset()
	ep := &Episode{
		env:        e,
		agent:      agent,
		rng:        random.New(seed, EnvironmentStream),
		pos:        make([]int, 3+len(e.Objects)),
		cellReward: make([]float64, e.Space.Cells()),
		halvedFrom: make([]uint64, e.Space.Cells()),
		moves:      make([]int, len(e.Objects)),
		behaviours: b,
		Bounds:     newBoundCounts(e),
	}
	ep.view.ep = ep
	ep.act = agent.Act
	place(ep.pos, e.Place, e.Space.Cells(), ep.rng)
	ep.untilSwap = ep.drawInterval()
	agent.Start(e, random.New(seed, AgentStream))
	if e.Settings.Garbage {
		garbage := random.New(seed, GarbageStream)
		act := func(v *View) int { return RandomAction(garbage, v.Dest()) }
		for range ep.drawInterval() {
			ep.interact(act)
		}
	}
	return ep
}

// drawInterval draws the interactions until the next swap of Good and
// Evil, or of the garbage phase, from the environment's stream.
func (ep *Episode) drawInterval() int { return drawInterval(ep.rng, ep.env.Settings.CycleBound) }

// drawInterval draws n ~ U[1, bound] ([P] §4.2).
func drawInterval(rng *random.Rand, bound int) int { return 1 + rng.IntN(bound) }

// place puts π, Good, Evil and each object (pos, in that order) in its
// declared cell or, where none is declared (-1), in a uniform random one
// of n; Evil never shares Good's cell: when it would, it gets a uniform
// draw among the other cells, or Good does when Evil's cell is declared
// ([P] §6.2).
func place(pos, declared []int, n int, rng *random.Rand) {
	for i, c := range declared {
		if c < 0 {
			c = rng.IntN(n)
		}
		pos[i] = c
	}
	if pos[Good] == pos[Evil] {
		c := rng.IntN(n - 1)
		if c >= pos[Good] {
			c++
		}
		if declared[Evil] >= 0 { // Evil's cell is fixed: move Good
			pos[Good] = c
		} else {
			pos[Evil] = c
		}
	}
}

// Run plays n scored interactions, ends the episode and returns the score:
// the average reward, ρ/n ([P] §4.4 step 15).
func (ep *Episode) Run(n int, trace func(Step)) float64 {
	if _, ok := ep.agent.(Planner); ok {
		ep.Plan(MeanWeights(n))
	}
	total := 0.0
	for i := range n {
		if trace == nil {
			total += ep.Interact()
			continue
		}
		ep.view.Reward = ep.last
		var action int
		ep.last = ep.interact(func(v *View) int {
			v.Observation() // the trace shows what π saw, before the moves
			action = v.ep.agent.Act(v)
			return action
		})
		total += ep.last
		trace(ep.step(i+1, action, ep.last))
	}
	ep.End()
	if n == 0 {
		return 0
	}
	return total / float64(n)
}

// Interact plays one scored interaction: the agent sees π's observation and
// the reward of its previous action (0 before the first), acts, everything
// moves, and π's reward is returned. A caller that paces the interactions
// itself (a test in physical time) calls Interact, then End. Interact is
// Begin, the agent's Act and Finish in one, for an agent inside the
// process; it must not be called between Begin and Finish.
func (ep *Episode) Interact() float64 {
	ep.view.Reward = ep.last
	ep.last = ep.interact(ep.act)
	return ep.last
}

// ErrInteraction is the error of Begin and Finish called out of turn.
var ErrInteraction = errors.New("an interaction is begun and finished in turn")

// Begin plays the start of a scored interaction, up to π's choice: the
// cycle swap, the trace rewards, and the objects' and Good and Evil's
// decisions. It returns π's view (the observation and the reward of its
// previous action, 0 before the first), valid until Finish. Begin and
// Finish split Interact for an agent outside the process, which is given
// the view and answers later (anynt serve-env, a Gymnasium step); the
// episode's Agent is not asked to act. Begin while an interaction is under
// way returns ErrInteraction and changes nothing; Interact and Run, which
// cannot fail, must not be called then.
func (ep *Episode) Begin() (*View, error) {
	if ep.begun {
		return nil, fmt.Errorf("begin: the interaction under way is not finished: %w", ErrInteraction)
	}
	ep.view.Reward = ep.last
	ep.begin()
	ep.begun = true
	return &ep.view, nil
}

// Finish completes the interaction Begin started with π's action (an
// index into Env.Actions): everything moves, and π's reward is returned.
// Finish without Begin, or with an action out of range, returns an error
// and changes nothing; the interaction begun can then still be finished.
func (ep *Episode) Finish(action int) (float64, error) {
	if !ep.begun {
		return 0, fmt.Errorf("finish: no interaction is under way (Begin first): %w", ErrInteraction)
	}
	if n := len(ep.env.Actions); action < 0 || action >= n {
		return 0, fmt.Errorf("finish: action %d is out of range: there are %d actions, 0 to %d", action, n, n-1)
	}
	ep.begun = false
	ep.last = ep.finish(action)
	return ep.last, nil
}

// End gives the agent the reward of its last action: the episode is over.
func (ep *Episode) End() { ep.agent.End(ep.last) }

// Step describes one interaction for a trace.
type Step struct {
	Interaction int
	Observation string // what π saw
	Action      string
	Reward      float64
	Positions   []int // after the moves: π, ⊕, ⊖, ω1…, cells from 1
}

func (ep *Episode) step(i, action int, reward float64) Step {
	s := Step{Interaction: i, Observation: ep.view.Text(), Action: ep.env.Actions[action], Reward: reward}
	for _, c := range ep.pos {
		s.Positions = append(s.Positions, c+1)
	}
	return s
}

// interact plays one interaction ([P] §4.4 steps 7–13, or the Λ_one order)
// with act choosing π's action, and returns π's reward.
func (ep *Episode) interact(act func(*View) int) float64 {
	ep.begin()
	return ep.finish(act(&ep.view))
}

// begin plays an interaction up to π's choice: the cycle swap, the trace
// rewards, and the decisions of every object and of Good and Evil, which
// all come before the moves, so that π's move cannot change them.
func (ep *Episode) begin() {
	st := &ep.env.Settings
	ep.steps = 0
	if st.Cycle {
		if ep.untilSwap--; ep.untilSwap == 0 {
			ep.pos[Good], ep.pos[Evil] = ep.pos[Evil], ep.pos[Good]
			ep.untilSwap = ep.drawInterval()
		}
	}
	if st.Rewards == TraceRewards {
		if c := ep.pos[Good]; c != ep.pos[Pi] {
			ep.giveReward(c, ep.rewardValue(0))
		}
		if c := ep.pos[Evil]; c != ep.pos[Pi] {
			ep.giveReward(c, -ep.rewardValue(1))
		}
	}
	for i := range ep.objects {
		ep.moves[i] = ep.objectAction(i)
	}
	ep.intended[0], ep.intended[1] = ep.goodEvilDest()
	ep.view.built = false
	// Every behaviour run of the interaction is done: its VM steps count
	// towards Kt^max.
	ep.MaxSteps = max(ep.MaxSteps, ep.steps)
}

// finish completes the interaction begin started with π's action a: the
// moves, then the rewards; it returns π's reward.
func (ep *Episode) finish(a int) float64 {
	dest := ep.env.Space.Dest
	ep.pos[Pi] = dest[ep.pos[Pi]][a]
	for i, m := range ep.moves {
		ep.pos[3+i] = dest[ep.pos[3+i]][m]
	}
	ep.moveGoodEvil()
	ep.patternAt++
	if ep.env.Settings.Rewards == LambdaOneRewards {
		// Only last interaction's two cells hold a reward: clearing them
		// clears every cell.
		ep.cellReward[ep.lambdaCells[0]], ep.cellReward[ep.lambdaCells[1]] = 0, 0
		ep.lambdaCells = [2]int{ep.pos[Good], ep.pos[Evil]}
		ep.cellReward[ep.pos[Good]] = ep.rewardValue(0)
		ep.cellReward[ep.pos[Evil]] = -ep.rewardValue(1)
		return ep.cellReward[ep.pos[Pi]]
	}
	reward := ep.rewardIn(ep.pos[Pi])
	ep.giveReward(ep.pos[Pi], 0)
	ep.halvings++ // every cell's reward halves
	return reward
}

// moveGoodEvil moves Good and Evil to their intended cells, but never
// into one cell (separate).
func (ep *Episode) moveGoodEvil() {
	g, v := ep.intended[0], ep.intended[1]
	if g == v {
		g, v = separate(g, ep.pos[Good], ep.pos[Evil], ep.rng)
	}
	ep.pos[Good], ep.pos[Evil] = g, v
}

// separate is where Good and Evil move from cells good and evil when both
// intend to reach cell c, since they never share a cell: the one that did
// not move keeps its cell and the other stays put, or, when both moved, a
// fair coin from rng picks the one that moves and the other stays put
// ([P] §4.2).
func separate(c, good, evil int, rng *random.Rand) (g, v int) {
	switch {
	case c == good, c == evil:
		return good, evil
	case rng.IntN(2) == 0:
		return c, evil
	default:
		return good, c
	}
}
