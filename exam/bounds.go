package exam

import (
	"errors"
	"fmt"
	"math"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/random"
	"gonum.org/v1/gonum/stat"
)

// Bound is the scale of an item's score: the optimum and random's
// expectation, each the mean over the item's episodes (the seeds every
// examinee meets) of the chosen payoff at τ, for an agent that keeps the
// test's pace.
type Bound struct {
	// Optimum is the highest payoff any such agent can reach on the
	// episodes, knowing their random draws (agent.Scale: the clairvoyant
	// optimum of the realised episodes, so at least every agent's score).
	Optimum float64
	// Random is the expected payoff of an agent acting uniformly at random
	// on the same episodes, exactly (agent.Scale) where RandomPlays is 0.
	Random float64
	// Horizon is 0 when Optimum is exact on every episode. Where an
	// episode has more states than ScaleBudget allows an exact sweep, its
	// optimum is that of a plan made with a receding horizon instead
	// (agent.Ahead), and Horizon is the fewest interactions such a plan
	// looked ahead: Optimum is then a lower bound on the optimum, and an
	// agent can pass it (a normalised score above 1).
	Horizon int
	// RandomPlays is 0 when Random is exact on every episode. Where an
	// episode is too large for that, random's expectation on it is the
	// mean of RandomPlays plays of random actions (RandomPlaysAnEpisode),
	// and RandomSE is the standard error of Random from those plays.
	RandomPlays int
	RandomSE    float64
	// Err says why the item has no bound (too many states to plan over, a
	// behaviour's memory the memo could not hold, a stopped test); the
	// figures are then 0.
	Err error
}

// Normalised is score as a fraction of the way from random's expectation
// to the optimum: 0 is random's, 1 the optimum. It is NaN when the item
// has no bound, or when the optimum is random's (every agent scores alike,
// nothing to normalise).
func (b Bound) Normalised(score float64) float64 {
	span := b.Optimum - b.Random
	if b.Err != nil || !(span > minSpan) {
		return math.NaN()
	}
	return (score - b.Random) / span
}

// RandomPlaysAnEpisode is how many plays of random actions estimate
// random's expectation on an episode too large to compute it exactly.
const RandomPlaysAnEpisode = 32

// randomPlaysStream is the second word of the PCG stream those plays draw
// their actions from, the first being the episode's seed.
const randomPlaysStream = 0x7a11d0

// ScaleBudget bounds the work of an item's scale, episode by episode: a
// sixteenth of the optimal agent's (agent.PlanBudget), seconds at the most
// (docs/reports.md), so that a report's scales cost little beside its
// test. Episodes with more states are scaled within a horizon
// (Bound.Horizon), in the same budget again; an item where not even a
// lookahead of one interaction fits gets no scale.
var ScaleBudget = agent.Budget{States: 1 << 16, Work: 1 << 20}

// minSpan is the smallest gap between the optimum and random's expectation
// that normalises: below it the two differ by rounding alone.
const minSpan = 1e-9

// ErrNoBound is the cause of a Bound's error when the test was stopped
// before its bound was computed.
var ErrNoBound = errors.New("the test was stopped before its bound was computed")

// Bounds computes every item's bound under settings s (checked by
// Settings.Validate), on all cores, each item into its own slot, so that
// they do not depend on the number of cores. In episode e of an item the
// interactions are at the times a built-in agent keeping the pace acts
// (the clock draws them from the episode's seed, whatever the agent does),
// up to the item's steps and τ; the payoff at τ is then a weighted sum of
// their rewards (payoffWeights), whose maximum and whose expectation over
// random's actions agent.Scale gives, within ScaleBudget, or else a
// lower bound on the maximum and an estimate of the expectation
// (Bound.Horizon, Bound.RandomPlays). An
// agent that changes its pace (agent.Paced) or an agent outside anynt,
// timed for real, acts at other times, and under a payoff that forgets
// (v‖τ, v̌‖τ) can pass the optimum by stopping early (Hernández-Orallo
// 2010a, Theorem 1). When s.Stop is closed, the items left get ErrNoBound.
// progress, if not nil, is called after each item, one call at a time.
func Bounds(items []Item, s Settings, progress func(done int)) []Bound {
	out := make([]Bound, len(items))
	cores.Do(len(items), func(i int) {
		select {
		case <-s.Stop:
			out[i].Err = ErrNoBound
			return
		default:
		}
		out[i] = bound(items[i], s)
	}, progress)
	return out
}

// bound computes one item's bound, episode after episode: exactly within
// ScaleBudget (agent.Scale), else within a horizon (approximate).
func bound(it Item, s Settings) Bound {
	tau := itemTau(it, s)
	var b Bound
	var variance float64 // of the sum of the episodes' estimates of random's
	for e := range s.Episodes {
		seed := env.EpisodeSeed(it.Seed, e)
		times := paceTimes(seed, it.Steps, tau, s.Pace)
		w := payoffWeights(s.Score, times, tau, s.Lambda)
		// An episode of its own (env.NewEpisode: fresh behaviours): the
		// sweep interns the memories of every branch in the memos, which
		// never forget one, and an episode's scale must not depend on
		// the others.
		best, random, err := agent.Scale(env.NewEpisode(it.Env, agent.Stay{}, seed), w, ScaleBudget)
		if errors.Is(err, agent.ErrPlanTooLarge) {
			var horizon int
			var v float64
			best, horizon, random, v, err = approximate(it.Env, seed, w)
			if err == nil {
				if horizon > 0 && (b.Horizon == 0 || horizon < b.Horizon) {
					b.Horizon = horizon
				}
				b.RandomPlays, variance = RandomPlaysAnEpisode, variance+v
			}
		}
		if err != nil {
			return Bound{Err: fmt.Errorf("episode %d: %w", e, err)}
		}
		b.Optimum += best
		b.Random += random
	}
	b.Optimum /= float64(s.Episodes)
	b.Random /= float64(s.Episodes)
	b.RandomSE = math.Sqrt(variance) / float64(s.Episodes)
	return b
}

// approximate is the scale of the episode of seed, weights w, where it
// has too many states for an exact one: the weighted sum of a plan made
// with a receding horizon within ScaleBudget (agent.Ahead) and its
// horizon, and the mean weighted sum of RandomPlaysAnEpisode plays of
// uniformly random actions, with the variance of that mean.
func approximate(e *env.Env, seed uint64, w []float64) (best float64, horizon int, randomMean, variance float64, err error) {
	if _, best, horizon, err = agent.Ahead(env.NewEpisode(e, agent.Stay{}, seed), w, ScaleBudget); err != nil {
		return 0, 0, 0, 0, err
	}
	if horizon >= len(w) {
		horizon = 0 // every lookahead reached the end: exact after all
	}
	ep := env.NewEpisode(e, agent.Stay{}, seed)
	start, err := ep.Save()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	rng := random.New(seed, randomPlaysStream)
	actions := len(e.Actions)
	sums := make([]float64, RandomPlaysAnEpisode)
	for k := range sums {
		ep.Restore(start)
		for t := range w {
			if _, err := ep.Begin(); err != nil {
				return 0, 0, 0, 0, err
			}
			r, err := ep.Finish(rng.IntN(actions))
			if err != nil {
				return 0, 0, 0, 0, err
			}
			sums[k] += w[t] * r
		}
	}
	mean, sd := stat.MeanStdDev(sums, nil)
	return best, horizon, mean, sd * sd / float64(len(sums)), nil
}

// itemTau is item it's test time τ under s, on the clock's grid.
func itemTau(it Item, s Settings) float64 {
	tau := seconds(ticks(s.Tau))
	if tau == 0 {
		tau = seconds(int64(it.Steps) * ticks(s.Pace.Mean()))
	}
	return tau
}

// paceTimes are the times, in seconds, at which an agent keeping pace acts
// in the episode of seed: at most steps, none after tau. They are play's.
func paceTimes(seed uint64, steps int, tau float64, pace Pace) []float64 {
	c := newClock(seed, tau, pace)
	var times []float64
	for range steps {
		if _, ok := c.advance(c.draw()); !ok {
			break
		}
		times = append(times, seconds(c.t))
	}
	return times
}

// payoffWeights gives the weights w_k such that the payoff score of a run
// whose interactions are at times (increasing, none after tau) is
// Σ w_k r_k: with the times fixed, each of the five payoffs is linear in
// the rewards (package aggregate has their definitions; a test checks the
// two agree).
func payoffWeights(score Score, times []float64, tau, lambda float64) []float64 {
	n := len(times)
	w := make([]float64, n)
	fill := func(k int, x float64) {
		for i := range k {
			w[i] = x
		}
	}
	switch {
	case n == 0:
	case score == ScoreSum:
		fill(n, 1)
	case score == ScorePerSecond:
		if tau > 0 {
			fill(n, 1/tau)
		}
	case score == ScorePerCycle:
		fill(n, 1/float64(n))
	case score == ScoreDiscounted:
		var total float64
		x := 1.0
		for i := range w {
			if x *= lambda; x == 0 { // underflow: later terms add nothing
				break
			}
			w[i] = x
			total += x
		}
		for i := range w {
			w[i] /= total
		}
	default: // v̌‖τ: the mean of the first n* = ⌊n·t_n/τ⌋ rewards
		if tau > 0 {
			if kept := min(int(math.Floor(float64(n)*(times[n-1]/tau))), n); kept > 0 {
				fill(kept, 1/float64(kept))
			}
		}
	}
	return w
}
