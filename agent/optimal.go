package agent

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/anynt/anynt/env"
)

// Bounds of Best's work: the most distinct states it keeps at one step,
// and over the whole episode (each costs a back pointer, 8 bytes). Λ_one
// exercises need a state per cell π can be in, a few thousand nodes per
// thousand interactions; past either bound Best gives up.
const (
	MaxPlanStates = 1 << 16
	MaxPlanNodes  = 1 << 24
)

// ErrPlanTooLarge is the cause of Best's error when the episode has more
// states than MaxPlanStates at a step, or MaxPlanNodes in all.
var ErrPlanTooLarge = errors.New("too many states to plan over")

// Best returns the action sequence of n interactions with the highest
// score on episode ep from its present state, and that score (the mean
// reward), by dynamic programming forward over the episode's states: at
// each step, every state reached so far is tried with every action, and
// the states with one key (env.Episode.AppendKey: the same future) are
// merged, keeping the path with the highest sum of rewards. The episode
// is run exactly as it plays, its random stream included, so the result
// is the maximum over every action sequence of the score of this episode,
// its seed fixed (clairvoyant: see Optimal). Ties go to the lowest action
// at the earliest step. ep is left as it was. The error is
// env.ErrUnsaved when a behaviour's memory cannot be saved, or
// ErrPlanTooLarge.
func Best(ep *env.Episode, n int) ([]int, float64, error) {
	start, err := ep.Save()
	if err != nil {
		return nil, 0, err
	}
	defer ep.Restore(start)
	if n <= 0 {
		return nil, 0, nil
	}
	actions := len(ep.Env().Actions)
	type node struct {
		s     env.State
		value float64
	}
	cur := []node{{start, 0}}
	// back[t][i] is how the best path reached state i after t+1 steps:
	// the index of its state after t steps and its action.
	back := make([][]link, n)
	index := map[string]int{}
	var key []byte
	nodes := 0
	for t := range n {
		var next []node
		var links []link
		clear(index)
		for i, nd := range cur {
			ep.Restore(nd.s)
			if _, err := ep.Begin(); err != nil {
				return nil, 0, err
			}
			mid, err := ep.Save()
			if err != nil {
				return nil, 0, err
			}
			for a := range actions {
				if a > 0 {
					ep.Restore(mid)
				}
				r, err := ep.Finish(a)
				if err != nil {
					return nil, 0, err
				}
				v := nd.value + r
				if key, err = ep.AppendKey(key[:0]); err != nil {
					return nil, 0, err
				}
				if j, ok := index[string(key)]; ok {
					if v > next[j].value {
						next[j].value, links[j] = v, link{int32(i), int32(a)}
					}
					continue
				}
				if len(next) >= MaxPlanStates || nodes >= MaxPlanNodes {
					return nil, 0, fmt.Errorf("step %d of %d: more than %d states at a step or %d in all: %w",
						t+1, n, MaxPlanStates, MaxPlanNodes, ErrPlanTooLarge)
				}
				s, err := ep.Save()
				if err != nil {
					return nil, 0, err
				}
				index[string(key)] = len(next)
				next = append(next, node{s, v})
				links = append(links, link{int32(i), int32(a)})
				nodes++
			}
		}
		cur, back[t] = next, links
	}
	best := 0
	for i, nd := range cur {
		if nd.value > cur[best].value {
			best = i
		}
	}
	plan := make([]int, n)
	for t, i := n-1, best; t >= 0; t-- {
		l := back[t][i]
		plan[t], i = int(l.action), int(l.from)
	}
	return plan, cur[best].value / float64(n), nil
}

// link is a step of a path: the state it came from and its action.
type link struct {
	from   int32
	action int32
}

// Optimal plays each episode with the highest score possible on it: shown
// its episode before the first interaction (env.Planner), it plans with
// Best and plays the plan. The optimum is that of the realised episode,
// clairvoyant: the environment's random choices (placement, swap
// intervals, the coin of a collision between Good and Evil) come from one
// stream seeded by the episode's seed, and Best knows it. The environment
// is a deterministic function of that seed and π's actions (the agent
// draws from a stream of its own), so any agent's score on an episode is
// the score of the action sequence it played, and Optimal's is at least
// that: an upper bound on every agent's score, episode by episode, seed
// for seed. Which draws are made can depend on π's actions (a behaviour
// that sees π may or may not collide), which changes nothing to the bound.
// It is not the optimum in expectation: on an environment with random
// choices it knows what an agent could not. Where Best cannot plan (too
// many states, or a memory the memo could not hold), or when the episode
// is played without asking it to plan, it plays as the one-step Oracle and
// Err says why: its score is then no bound.
type Optimal struct {
	plan   []int
	at     int
	err    error
	oracle Oracle
}

// errNotAsked is Err's when no plan was asked for.
var errNotAsked = errors.New("optimal: the episode was played without asking it to plan (env.Episode.Plan)")

func (o *Optimal) Start(e *env.Env, rng *rand.Rand) {
	o.plan, o.at, o.err = nil, 0, errNotAsked
	o.oracle.Start(e, rng)
}

// Plan plans the episode's n interactions (env.Planner).
func (o *Optimal) Plan(ep *env.Episode, n int) {
	o.plan, _, o.err = Best(ep, n)
	if o.err != nil {
		o.err = fmt.Errorf("optimal: %w", o.err)
	}
}

func (o *Optimal) Act(v *env.View) int {
	if o.err == nil && o.at < len(o.plan) {
		o.at++
		return o.plan[o.at-1]
	}
	if o.err == nil {
		o.err = errors.New("optimal: the episode ran longer than planned")
	}
	return o.oracle.Act(v)
}

func (o *Optimal) End(float64) {}

// Err is nil when the episode is played by plan, or says why it is played
// as the one-step oracle instead.
func (o *Optimal) Err() error { return o.err }
