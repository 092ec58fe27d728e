package agent

import (
	"errors"
	"fmt"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
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
// interaction and 16,777,216 of work in all, seconds on the spaces
// measured (docs/environments.md), for its exact plan and then, past it,
// for its plan within a horizon.
var PlanBudget = Budget{States: 1 << 16, Work: 1 << 24}

// ErrPlanTooLarge is the cause of Best's and Scale's error when the
// episode has more states than their budget allows, and of Ahead's when
// not even its first lookahead of one interaction fits.
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
	_, err := sweep(ep, n, b, 0, func(t int) {
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
	_, err = sweep(ep, len(w), b, 0, func(t int) {
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

// Ahead returns a plan of len(w) interactions on episode ep from its
// present state made with a receding horizon, where Best's exact plan is
// too large: at each interaction t, a forward sweep over the states of the
// interactions to come (as Best's) goes as deep as its share of budget b
// allows, the work left over the interactions left, and the plan takes
// the first action of the path with the highest weighted sum Σ w_k r_k
// over the deepest interaction the sweep reached in full; the episode then
// plays that action, and the sweep starts again from the state it reaches.
// This is a bounded-horizon search of the realised episode, clairvoyant as
// Best is (the episode's random stream is known, so each lookahead is a
// maximum over action sequences, not an expectation). It returns the plan,
// its weighted sum as played (at most Best's: a lower bound on the
// optimum), and its horizon, the fewest interactions it looked ahead where
// the lookahead stopped short of the last interaction of nonzero weight:
// len(w) when none did, and the sum is then Best's optimum. Interactions
// after the last of nonzero weight count for nothing and are planned as
// action 0, unsearched. If the first interaction's lookahead of one
// interaction does not fit its share, Ahead gives up at once with
// ErrPlanTooLarge; later ones always look one interaction ahead, so that
// a plan once begun is finished. Its work is then at most b's, plus at each
// interaction the try that passed its share and a lookahead of one
// interaction past it (a lookahead is charged no more than its share, so
// that one that passed it leaves the later ones theirs). ep is left as it
// was; the other errors are Best's.
func Ahead(ep *env.Episode, w []float64, b Budget) (plan []int, value float64, horizon int, err error) {
	start, err := ep.Save()
	if err != nil {
		return nil, 0, 0, err
	}
	defer ep.Restore(start)
	type node struct {
		best  float64
		first int // the action at t of the best path to this state
	}
	n := len(w)
	plan, horizon = make([]int, n), n
	weighed := n // the interactions up to the last of nonzero weight
	for weighed > 0 && w[weighed-1] == 0 {
		weighed--
	}
	used := 0
	var cur, next []node
	for t := range weighed {
		share := Budget{States: b.States, Work: max(0, (b.Work-used)/(weighed-t))}
		free := min(t, 1) // layers swept whatever the share: none at first, then one
		depth := 0        // the interactions of the layer in progress
		work, err := sweep(ep, weighed-t, share, free, func(k int) {
			depth = k
			cur, next = next, cur[:0]
		}, func(k, i, a int, r float64, j int) {
			v, first := w[t+k]*r, a
			if k > 0 {
				v, first = v+cur[i].best, cur[i].first
			}
			if j == len(next) {
				next = append(next, node{v, first})
			} else if v > next[j].best {
				next[j] = node{v, first}
			}
		})
		used += min(work, share.Work)
		layer := next // the states after all the interactions left
		switch {
		case errors.Is(err, ErrPlanTooLarge) && depth > 0:
			layer, horizon = cur, min(horizon, depth)
		case errors.Is(err, ErrPlanTooLarge):
			return nil, 0, 0, fmt.Errorf("interaction %d of %d: a lookahead of one interaction needs more than its share of the budget (%d of work, %d states): %w",
				t+1, n, share.Work, share.States, ErrPlanTooLarge)
		case err != nil:
			return nil, 0, 0, err
		}
		best := 0
		for j, nd := range layer {
			if nd.best > layer[best].best {
				best = j
			}
		}
		plan[t] = layer[best].first
		if _, err := ep.Begin(); err != nil {
			return nil, 0, 0, err
		}
		r, err := ep.Finish(plan[t])
		if err != nil {
			return nil, 0, 0, err
		}
		value += w[t] * r
	}
	return plan, value, horizon, nil
}

// sweep runs ep forward n interactions over its distinct states. Before
// step t it calls step(t); then every state i reached after t interactions
// (numbered from 0 in the order first reached; the present state is 0 at
// t = 0) is tried with every action a, and visit(t, i, a, r, j) is told the
// reward r and the state j reached, which is new when j equals the number
// of states reached after t+1 interactions so far. States with one key
// (env.Episode.AppendKey: the same future whatever π does) are one state.
// Past budget b it stops with ErrPlanTooLarge, during step t: the states
// after t interactions are then all visited, those after t+1 not. The
// first free steps are not held to b. It returns the work done. ep is
// left as it was.
func sweep(ep *env.Episode, n int, b Budget, free int, step func(t int), visit func(t, i, a int, r float64, j int)) (int, error) {
	start, err := ep.Save()
	if err != nil {
		return 0, err
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
				return work, err
			}
			mid, err := ep.Save()
			if err != nil {
				return work, err
			}
			for a := range actions {
				if a > 0 {
					ep.Restore(mid)
				}
				r, err := ep.Finish(a)
				if err != nil {
					return work, err
				}
				if key, err = ep.AppendKey(key[:0]); err != nil {
					return work, err
				}
				if work += 1 + len(key)/32; work > b.Work && t >= free {
					return work, fmt.Errorf("interaction %d of %d: more than %d of work (tries of an action, by the state's size): %w",
						t+1, n, b.Work, ErrPlanTooLarge)
				}
				j, ok := index[string(key)]
				if !ok {
					if len(next) >= b.States && t >= free {
						return work, fmt.Errorf("interaction %d of %d: more than %d states at an interaction: %w",
							t+1, n, b.States, ErrPlanTooLarge)
					}
					s, err := ep.Save()
					if err != nil {
						return work, err
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
	return work, nil
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
// choices it knows what an agent could not.
//
// Where the episode has more states than PlanBudget allows Best, it plans
// with Ahead instead, within the same budget again, and Horizon says how
// far it looked: its score is then a lower bound on the optimum, no upper
// bound. Where neither can plan (not even a lookahead of one interaction
// fits, or a memory the memo could not hold), or when the episode is
// played without asking it to plan, it plays as the one-step Oracle and
// Err says why: its score is then no bound, and env.Evaluate and package
// exam's Take report the episode as failed.
type Optimal struct {
	plan    []int
	at      int
	horizon int
	err     error
	oracle  Oracle
}

// errNotAsked is Err's when no plan was asked for.
var errNotAsked = errors.New("the episode was played without asking it to plan (env.Episode.Plan)")

func (o *Optimal) Start(e *env.Env, rng *random.Rand) {
	o.plan, o.at, o.horizon, o.err = nil, 0, 0, errNotAsked
	o.oracle.Start(e, rng)
}

// Plan plans the episode's interactions for the highest score, the sum of
// their rewards weighed by w (env.Planner): exactly with Best, or else
// within a horizon with Ahead.
func (o *Optimal) Plan(ep *env.Episode, w []float64) {
	o.plan, _, o.err = Best(ep, w, PlanBudget)
	if !errors.Is(o.err, ErrPlanTooLarge) {
		return
	}
	exact := o.err
	o.plan, _, o.horizon, o.err = Ahead(ep, w, PlanBudget)
	if o.err != nil {
		o.err = fmt.Errorf("%w; within a horizon: %w", exact, o.err)
	}
	if o.horizon >= len(w) {
		o.horizon = 0
	}
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

// Horizon is 0 when the episode was planned exactly (or not at all: see
// Err), else the fewest interactions its plan looked ahead (Ahead): its
// score is then a lower bound on the episode's optimum (env.Horizoner).
func (o *Optimal) Horizon() int {
	if o.err != nil {
		return 0
	}
	return o.horizon
}
