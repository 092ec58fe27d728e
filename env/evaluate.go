package env

import (
	"math"
	"runtime"
	"sync"
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
// its own slot. progress, if not nil, is called after each episode.
func Evaluate(e *Env, newAgent func() Agent, episodes, n int, seed uint64, progress func(done int)) Evaluation {
	scores := make([]float64, episodes)
	maxSteps := make([]int, episodes)
	bounds := make([][]BoundCount, episodes)
	var next, done int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), episodes) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := newBehaviours(e) // kept from episode to episode, memos and all
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= episodes {
					return
				}
				ep := newEpisode(e, newAgent(), EpisodeSeed(seed, i), b)
				scores[i] = ep.Run(n, nil)
				maxSteps[i], bounds[i] = ep.MaxSteps, ep.Bounds
				if progress != nil {
					mu.Lock()
					done++
					progress(done)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	ev := Evaluation{Scores: scores}
	ev.Mean, ev.CI95 = meanCI(scores)
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

// meanCI returns the mean and its 95% confidence interval, from Student's
// t distribution with n−1 degrees of freedom.
func meanCI(xs []float64) (float64, [2]float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, [2]float64{}
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	mean := sum / n
	if n < 2 {
		return mean, [2]float64{mean, mean}
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	half := tQuantile975(n-1) * math.Sqrt(ss/(n-1)/n)
	return mean, [2]float64{mean - half, mean + half}
}

// tQuantile975 is the 0.975 quantile of Student's t with df degrees of
// freedom, by the Cornish–Fisher expansion around the normal quantile;
// within 0.1% of the exact value from df = 3 on.
func tQuantile975(df float64) float64 {
	const z = 1.959963984540054
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*df) + (5*z5+16*z3+3*z)/(96*df*df) + (3*z7+19*z5+17*z3-15*z)/(384*df*df*df)
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
	return newEpisode(p.env, agent, seed, p.b)
}
