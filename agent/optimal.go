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

// Best returns the action sequence of len(w) interactions with the
// highest weighted sum of rewards Σ w_t r_t on episode ep from its present
// state, and that sum, by dynamic programming forward over the episode's
// states (sweep): of the paths that reach one state, the one with the
// highest sum is kept. With w_t = 1/n it maximises the mean reward, the
// score of an episode of n interactions; a test's payoff at τ weighs the
// interactions otherwise (package exam's Bounds). The episode is run
// exactly as it plays, its random stream included, so the result is the
// maximum over every action sequence on this episode, its seed fixed
// (clairvoyant: see Optimal). Ties go to the lowest action at the earliest
// step. ep is left as it was. The error is env.ErrUnsaved when a
// behaviour's memory cannot be saved, or ErrPlanTooLarge.
func Best(ep *env.Episode, w []float64) ([]int, float64, error) {
	n := len(w)
	cur, next := []float64{0}, []float64(nil) // the best sums of the states after t and t+1 steps
	back := make([][]link, n)                 // back[t][j]: how the best path reached state j after t+1 steps
	err := sweep(ep, n, func(t int) {
		if t > 0 {
			cur, next = next, cur[:0]
		}
	}, func(t, i, a int, r float64, j int) {
		v := cur[i] + w[t]*r
		if j == len(next) {
			next = append(next, v)
			back[t] = append(back[t], link{int32(i), int32(a)})
		} else if v > next[j] {
			next[j], back[t][j] = v, link{int32(i), int32(a)}
		}
	})
	if err != nil || n == 0 {
		return nil, 0, err
	}
	best := 0
	for j, v := range next {
		if v > next[best] {
			best = j
		}
	}
	plan := make([]int, n)
	for t, j := n-1, best; t >= 0; t-- {
		l := back[t][j]
		plan[t], j = int(l.action), int(l.from)
	}
	return plan, next[best], nil
}

// RandomValue returns the expectation of Σ w_t r_t over len(w)
// interactions on episode ep from its present state, for an agent that
// draws each action uniformly (agent random), exactly: forward over the
// episode's states (sweep), each with the probability that random reaches
// it, merged states adding theirs. Like Best it is of this episode, its
// seed fixed. ep is left as it was; the errors are Best's.
func RandomValue(ep *env.Episode, w []float64) (float64, error) {
	actions := float64(len(ep.Env().Actions))
	cur, next := []float64{1}, []float64(nil) // the probabilities of the states after t and t+1 steps
	total := 0.0
	err := sweep(ep, len(w), func(t int) {
		if t > 0 {
			cur, next = next, cur[:0]
		}
	}, func(t, i, a int, r float64, j int) {
		p := cur[i] / actions
		total += w[t] * p * r
		if j == len(next) {
			next = append(next, p)
		} else {
			next[j] += p
		}
	})
	if err != nil {
		return 0, err
	}
	return total, nil
}

// sweep runs ep forward n interactions over its distinct states. Before
// step t it calls step(t); then every state i reached after t interactions
// (numbered from 0 in the order first reached; the present state is 0 at
// t = 0) is tried with every action a, and visit(t, i, a, r, j) is told the
// reward r and the state j reached, which is new when j equals the number
// of states reached after t+1 interactions so far. States with one key
// (env.Episode.AppendKey: the same future whatever π does) are one state.
// ep is left as it was.
func sweep(ep *env.Episode, n int, step func(t int), visit func(t, i, a int, r float64, j int)) error {
	start, err := ep.Save()
	if err != nil {
		return err
	}
	defer ep.Restore(start)
	actions := len(ep.Env().Actions)
	cur, next := []env.State{start}, []env.State(nil)
	index := map[string]int{}
	var key []byte
	nodes := 0
	for t := range n {
		step(t)
		next = next[:0]
		clear(index)
		for i, s := range cur {
			ep.Restore(s)
			if _, err := ep.Begin(); err != nil {
				return err
			}
			mid, err := ep.Save()
			if err != nil {
				return err
			}
			for a := range actions {
				if a > 0 {
					ep.Restore(mid)
				}
				r, err := ep.Finish(a)
				if err != nil {
					return err
				}
				if key, err = ep.AppendKey(key[:0]); err != nil {
					return err
				}
				j, ok := index[string(key)]
				if !ok {
					if len(next) >= MaxPlanStates || nodes >= MaxPlanNodes {
						return fmt.Errorf("interaction %d of %d: more than %d states at an interaction or %d in all: %w",
							t+1, n, MaxPlanStates, MaxPlanNodes, ErrPlanTooLarge)
					}
					s, err := ep.Save()
					if err != nil {
						return err
					}
					j = len(next)
					index[string(key)] = j
					next = append(next, s)
					nodes++
				}
				visit(t, i, a, r, j)
			}
		}
		cur, next = next, cur
	}
	return nil
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
// Err says why: its score is then no bound, and env.Evaluate and package
// exam's Take report the episode as failed.
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
	w := make([]float64, n)
	for t := range w {
		w[t] = 1 / float64(n)
	}
	o.plan, _, o.err = Best(ep, w)
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
