package agent

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/anynt/anynt/env"
)

// Budget bounds the work of a forward sweep over an episode's states (Best,
// Scale): the most distinct states it keeps at one interaction, and the
// most work in all. The work is the tries, an action from a state, each
// counted by the state's size: one for every 32 bytes of its key
// (env.Episode.AppendKey), at least one. A try restores, runs and keys
// the episode, which costs in proportion to the space when the cells hold
// rewards (8 bytes of key a cell), so that counting by size bounds the
// time on a large space as on a small one. A Λ_one exercise has a state
// per cell π can be in, a few thousand tries of one for a thousand
// interactions; trace rewards multiply the states, since the rewards left
// in the cells tell paths apart.
type Budget struct {
	States, Work int
}

// PlanBudget is the optimal agent's: up to 65,536 states at an
// interaction and 16,777,216 of work in all, up to about a minute.
var PlanBudget = Budget{States: 1 << 16, Work: 1 << 24}

// ErrPlanTooLarge is the cause of Best's and Scale's error when the
// episode has more states than their budget allows.
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
// behaviour's memory cannot be saved, or ErrPlanTooLarge past budget b.
func Best(ep *env.Episode, w []float64, b Budget) ([]int, float64, error) {
	n := len(w)
	cur, next := []float64{0}, []float64(nil) // the best sums of the states after t and t+1 steps
	back := make([][]link, n)                 // back[t][j]: how the best path reached state j after t+1 steps
	err := sweep(ep, n, b, func(t int) {
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

// Scale returns, for len(w) interactions on episode ep from its present
// state, the highest weighted sum of rewards Σ w_t r_t over every action
// sequence (Best's, without the plan) and its expectation for an agent
// that draws each action uniformly (agent random), both exactly, in one
// forward sweep over the episode's states: each state keeps its best sum
// and the probability that random reaches it, merged states adding
// theirs. Like Best it is of this episode, its seed fixed. ep is left as
// it was; the errors are Best's.
func Scale(ep *env.Episode, w []float64, b Budget) (optimum, random float64, err error) {
	actions := float64(len(ep.Env().Actions))
	type node struct{ best, p float64 }
	cur, next := []node{{0, 1}}, []node(nil) // the states after t and t+1 steps
	err = sweep(ep, len(w), b, func(t int) {
		if t > 0 {
			cur, next = next, cur[:0]
		}
	}, func(t, i, a int, r float64, j int) {
		v, p := cur[i].best+w[t]*r, cur[i].p/actions
		random += w[t] * p * r
		if j == len(next) {
			next = append(next, node{v, p})
			return
		}
		next[j].best = max(next[j].best, v)
		next[j].p += p
	})
	if err != nil || len(w) == 0 {
		return 0, 0, err
	}
	optimum = next[0].best
	for _, nd := range next {
		optimum = max(optimum, nd.best)
	}
	return optimum, random, nil
}

// sweep runs ep forward n interactions over its distinct states. Before
// step t it calls step(t); then every state i reached after t interactions
// (numbered from 0 in the order first reached; the present state is 0 at
// t = 0) is tried with every action a, and visit(t, i, a, r, j) is told the
// reward r and the state j reached, which is new when j equals the number
// of states reached after t+1 interactions so far. States with one key
// (env.Episode.AppendKey: the same future whatever π does) are one state.
// Past budget b it stops with ErrPlanTooLarge. ep is left as it was.
func sweep(ep *env.Episode, n int, b Budget, step func(t int), visit func(t, i, a int, r float64, j int)) error {
	start, err := ep.Save()
	if err != nil {
		return err
	}
	defer ep.Restore(start)
	actions := len(ep.Env().Actions)
	cur, next := []env.State{start}, []env.State(nil)
	index := map[string]int{}
	var key []byte
	work := 0
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
				if work += 1 + len(key)/32; work > b.Work {
					return fmt.Errorf("interaction %d of %d: more than %d of work (tries of an action, by the state's size): %w",
						t+1, n, b.Work, ErrPlanTooLarge)
				}
				j, ok := index[string(key)]
				if !ok {
					if len(next) >= b.States {
						return fmt.Errorf("interaction %d of %d: more than %d states at an interaction: %w",
							t+1, n, b.States, ErrPlanTooLarge)
					}
					s, err := ep.Save()
					if err != nil {
						return err
					}
					j = len(next)
					index[string(key)] = j
					next = append(next, s)

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
var errNotAsked = errors.New("the episode was played without asking it to plan (env.Episode.Plan)")

func (o *Optimal) Start(e *env.Env, rng *rand.Rand) {
	o.plan, o.at, o.err = nil, 0, errNotAsked
	o.oracle.Start(e, rng)
}

// Plan plans the episode's interactions for the highest score, the sum of
// their rewards weighed by w (env.Planner).
func (o *Optimal) Plan(ep *env.Episode, w []float64) {
	o.plan, _, o.err = Best(ep, w, PlanBudget)
}

func (o *Optimal) Act(v *env.View) int {
	if o.err == nil && o.at < len(o.plan) {
		o.at++
		return o.plan[o.at-1]
	}
	if o.err == nil {
		o.err = errors.New("the episode ran longer than planned")
	}
	return o.oracle.Act(v)
}

func (o *Optimal) End(float64) {}

// Err is nil when the episode is played by plan, or says why it is played
// as the one-step oracle instead.
func (o *Optimal) Err() error { return o.err }
