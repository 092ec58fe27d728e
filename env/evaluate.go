package env

import (
	"fmt"

	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/internal/stats"
)

// Evaluation is the outcome of several episodes of one agent.
type Evaluation struct {
	Scores []float64 // each episode's average reward, in episode order
	Mean   float64
	CI95   [2]float64 // Student's t interval for the mean
	// MaxSteps is the most VM steps any interaction took, over all
	// episodes (the time part of Kt^max).
	MaxSteps int
	// Bounds counts each behaviour's runs over all episodes, and those
	// that ended at a bound.
	Bounds []BoundCount
	// Failed counts the episodes whose agent failed to play as it should
	// (a Failer, such as package agent's Optimal that
	// could not plan, which then plays otherwise); Failure is the first
	// such episode's error, nil when none failed.
	Failed  int
	Failure error
	// Horizoned counts the episodes a planner planned within a horizon
	// (a Horizoner whose Horizon was not 0: package agent's Optimal past
	// its budget for an exact plan), its score there a lower bound on the
	// optimum; Horizon is the fewest interactions it looked ahead in them,
	// 0 when Horizoned is.
	Horizoned int
	Horizon   int
}

// EpisodeSeed derives episode i's seed from the run's seed, so that
// episodes are independent of one another and of the order they run in.
func EpisodeSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15 // splitmix64
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Evaluate runs episodes of n interactions each with fresh agents from
// newAgent, spread over the machine's cores, and summarises the scores. The
// result depends only on the arguments: each episode has its own seed and
// its own slot (internal/cores hands the episodes out, one worker a core,
// each with its own behaviours and memos). progress, if not nil, is
// called after each episode.
func Evaluate(e *Env, newAgent func() Agent, episodes, n int, seed uint64, progress func(done int)) Evaluation {
	scores := make([]float64, episodes)
	maxSteps := make([]int, episodes)
	bounds := make([][]BoundCount, episodes)
	failures := make([]error, episodes)
	horizons := make([]int, episodes)
	// Each worker keeps its behaviours from episode to episode, memos and all.
	cores.Each(episodes, func() *behaviours { return newBehaviours(e) }, func(b *behaviours, i int) {
		a := newAgent()
		ep := newEpisode(e, a, EpisodeSeed(seed, i), behavioursFor(e, a, b))
		scores[i] = ep.Run(n, nil)
		maxSteps[i], bounds[i] = ep.MaxSteps, ep.Bounds
		if f, ok := a.(Failer); ok && f.Err() != nil {
			failures[i] = fmt.Errorf("episode %d: %w", i, f.Err())
		}
		if h, ok := a.(Horizoner); ok {
			horizons[i] = h.Horizon()
		}
	}, progress)
	ev := Evaluation{Scores: scores}
	for _, f := range failures {
		if f != nil {
			if ev.Failed++; ev.Failure == nil {
				ev.Failure = f
			}
		}
	}
	for _, h := range horizons {
		if h > 0 {
			if ev.Horizoned++; ev.Horizon == 0 || h < ev.Horizon {
				ev.Horizon = h
			}
		}
	}
	ev.Mean, ev.CI95 = stats.MeanCI(scores)
	for _, s := range maxSteps {
		ev.MaxSteps = max(ev.MaxSteps, s)
	}
	ev.Bounds = newBoundCounts(e)
	for _, b := range bounds {
		for k, c := range b {
			t := &ev.Bounds[k]
			t.Runs += c.Runs
			t.StepLimit += c.StepLimit
			t.LengthLimit += c.LengthLimit
			t.WorkLimit += c.WorkLimit
		}
	}
	return ev
}

// Player runs episodes of one environment one after another, keeping its
// VM machines and behaviour memos from each to the next, as each worker of
// Evaluate does: a memo is exact across episodes, since a behaviour's run
// depends only on its program, memory and observation. A Player is not
// safe for concurrent use; give each goroutine its own.
type Player struct {
	env *Env
	b   *behaviours
}

// NewPlayer readies the behaviours of e.
func NewPlayer(e *Env) *Player { return &Player{env: e, b: newBehaviours(e)} }

// Episode starts an episode with agent and seed, as NewEpisode does; the
// Player's previous episode must be over.
func (p *Player) Episode(agent Agent, seed uint64) *Episode {
	return newEpisode(p.env, agent, seed, behavioursFor(p.env, agent, p.b))
}

// Failer is an agent that can fail to play as it claims (package agent's
// Optimal, when it cannot plan, plays otherwise): after an episode, Err
// says why, nil when it played as it claims. Evaluate counts such
// episodes, and package exam makes them its outcome's fault, so that a
// score is not read as what it is not.
type Failer interface {
	Err() error
}

// Horizoner is a Planner whose plan may look only some interactions
// ahead (package agent's Optimal, where an exact plan is past its
// budget): after an episode, Horizon is 0 when it planned the episode
// exactly, else the fewest interactions it looked ahead, its score then a
// lower bound on the optimum rather than the optimum. Evaluate counts
// such episodes, and package exam keeps the fewest in its outcome.
type Horizoner interface {
	Horizon() int
}

// behavioursFor gives the behaviours an episode of agent plays on: b,
// kept from episode to episode for their memos, or fresh ones for a
// Planner. A plan interns the memories of every branch it tries in the
// memos, which never forget one, so that with kept behaviours whether an
// episode can plan would depend on the episodes played before it (and on
// which worker played them).
func behavioursFor(e *Env, agent Agent, b *behaviours) *behaviours {
	if _, ok := agent.(Planner); ok {
		return newBehaviours(e)
	}
	return b
}
