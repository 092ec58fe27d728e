package generate

import (
	"math"
	"runtime"
	"sync"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/stats"
)

// The sequential filters (docs/generation.md, "The sequential test"): the
// episodes run in order, in looks of FirstLook, 2·FirstLook, 4·FirstLook …
// episodes and finally Episodes; at every look but the last a decision
// needs an interval at level 1 − InterimAlpha, at the last look the
// fixed-budget rule decides on the full budget, so a candidate no look
// settles gets exactly today's verdict.
const (
	// FirstLook is the episodes of the first look.
	FirstLook = 16
	// InterimAlpha is the two-sided error of an interval at a look before
	// the last (Haybittle–Peto): a look's decision is wrong with
	// probability at most InterimAlpha/2 per side.
	InterimAlpha = 0.001
	// BalanceMargin is the bias (in score units, rewards in [−1, 1]) a
	// look may rule out to call the random agent balanced early, and the
	// gap over random that a look may rule out to call the references
	// insensitive early.
	BalanceMargin = 0.05
)

// looks returns the episode counts at which the sequential filters decide.
func looks(episodes int) []int {
	var ns []int
	for n := FirstLook; n < episodes; n *= 2 {
		ns = append(ns, n)
	}
	return append(ns, episodes)
}

// runs plays one agent's episodes in episode order, a look at a time, on
// the machine's cores; episode i has the seed Evaluate gives it, so the
// first n scores are those of Evaluate's run, whatever the looks. A
// built-in agent on an environment without programs plays lean episodes
// (env.LeanPlayer), with the same scores.
type runs struct {
	env      *env.Env
	name     string
	agent    agent.Factory
	seed     uint64
	steps    int
	players  []*env.Player // one a worker, kept with its memos from look to look
	lean     *env.Lean     // nil: play through env.Player
	rule     env.Rule
	scores   []float64
	maxSteps int
}

func newRuns(e *env.Env, lean *env.Lean, name string, a filterAgent, s FilterSettings) *runs {
	r := &runs{env: e, name: name, agent: a.make, seed: s.Seed, steps: s.Steps}
	if lean != nil && a.rule != env.NoRule {
		r.lean, r.rule = lean, a.rule
	}
	return r
}

// extend plays episodes until there are n.
func (r *runs) extend(n int) {
	from := len(r.scores)
	if n <= from {
		return
	}
	r.scores = append(r.scores, make([]float64, n-from)...)
	workers := min(runtime.GOMAXPROCS(0), n-from)
	if r.lean != nil {
		r.extendLean(from, n, workers)
		return // no program runs: no steps
	}
	for len(r.players) < workers {
		r.players = append(r.players, env.NewPlayer(r.env))
	}
	steps := make([]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := from + w; i < n; i += workers { // a fixed share: no lock
				ep := r.players[w].Episode(r.agent(), env.EpisodeSeed(r.seed, i))
				r.scores[i] = ep.Run(r.steps, nil)
				steps[w] = max(steps[w], ep.MaxSteps)
			}
		}()
	}
	wg.Wait()
	for _, s := range steps {
		r.maxSteps = max(r.maxSteps, s)
	}
}

// extendLean is extend's lean episodes from to n, on workers goroutines
// (the calling one among them), each with a LeanPlayer of the pool.
func (r *runs) extendLean(from, n, workers int) {
	play := func(w int) {
		p := getLeanPlayer(r.lean)
		for i := from + w; i < n; i += workers {
			r.scores[i] = p.Episode(r.rule, env.EpisodeSeed(r.seed, i), r.steps)
		}
		leanPlayers.Put(p)
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { play(w) })
	}
	play(0)
	wg.Wait()
}

// leanPlayers keeps LeanPlayers from candidate to candidate: a
// candidate's runs take one a worker and give it back.
var leanPlayers sync.Pool

// getLeanPlayer is a LeanPlayer of the pool, readied for l.
func getLeanPlayer(l *env.Lean) *env.LeanPlayer {
	if p, ok := leanPlayers.Get().(*env.LeanPlayer); ok {
		p.Reset(l)
		return p
	}
	return env.NewLeanPlayer(l)
}

// score is the agent's mean and 95% interval over the episodes played.
func (r *runs) score() Score {
	mean, ci := stats.MeanCI(r.scores)
	return Score{Agent: r.name, Mean: mean, CI95: ci, Episodes: len(r.scores)}
}

// interval is the agent's mean with a two-sided interval at level 1 − alpha
// over the episodes played; not ok when every score so far is the same: a
// look then knows nothing of the spread, and waits.
func (r *runs) interval(alpha float64) (mean, lo, hi float64, ok bool) {
	return stats.Interval(r.scores, alpha)
}

// balance is what a look found about the random agent.
type balance int

const (
	undecided balance = iota
	balanced
	unbalanced
)

// decideBalance is the interim balance rule: unbalanced when the interval
// at level 1 − InterimAlpha excludes 0, balanced when it lies within
// ±BalanceMargin.
func decideBalance(random *runs) balance {
	_, lo, hi, ok := random.interval(InterimAlpha)
	switch {
	case !ok:
		return undecided
	case excludesZero([2]float64{lo, hi}):
		return unbalanced
	case lo > -BalanceMargin && hi < BalanceMargin:
		return balanced
	}
	return undecided
}

// decideDiscrimination is the interim discrimination rule, with every
// interval at level 1 − InterimAlpha: accepted when the best reference's
// (the highest mean, the first on a tie) lies above random's; insensitive
// when every reference's upper end is below random's lower end plus
// BalanceMargin (none can be BalanceMargin better). It returns the reason
// (empty when accepted) and whether the look decided.
func decideDiscrimination(random *runs, refs []*runs) (string, bool) {
	_, rlo, rhi, ok := random.interval(InterimAlpha)
	if !ok {
		return "", false
	}
	best, bestLo, insensitive := math.Inf(-1), 0.0, true
	for _, r := range refs {
		mean, lo, hi, ok := r.interval(InterimAlpha)
		if !ok {
			return "", false
		}
		if mean > best {
			best, bestLo = mean, lo
		}
		if hi >= rlo+BalanceMargin {
			insensitive = false
		}
	}
	switch {
	case bestLo > rhi:
		return "", true
	case insensitive:
		return ReasonInsensitive, true
	}
	return "", false
}
