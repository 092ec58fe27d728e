package exam

import (
	"math"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

var paces = []Pace{{Model: "constant", A: 1}, {Model: "uniform", A: 0.5, B: 2}, {Model: "exponential", A: 0.3}}

// TestPaceTimesArePlays checks that paceTimes gives the times at which
// play has a built-in agent act, for each pace model, with τ long enough
// for every step and short enough to cut the episode.
func TestPaceTimesArePlays(t *testing.T) {
	items, err := LambdaOneItems(3, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	it := items[4]
	for _, pace := range paces {
		for _, tau := range []float64{seconds(int64(it.Steps) * ticks(10)), float64(it.Steps) / 3} {
			for seed := range uint64(3) {
				a, _ := agent.New("random", agent.DefaultSettings)
				run, _, _ := play(env.NewPlayer(it.Env), a, seed, it.Steps, tau, pace, ScoreDiminishing, 0.9, nil)
				times := paceTimes(seed, it.Steps, tau, pace)
				if len(times) != len(run) {
					t.Fatalf("%s τ %v seed %d: %d times, play acted %d times", pace, tau, seed, len(times), len(run))
				}
				for k := range run {
					if times[k] != run[k].T {
						t.Fatalf("%s τ %v seed %d: action %d at %v, play's at %v", pace, tau, seed, k, times[k], run[k].T)
					}
				}
			}
		}
	}
}

// TestPayoffWeightsAreThePayoffs checks, on random runs at the times of
// each pace, that Σ w_k r_k is each payoff as package aggregate computes
// it (values, Score.Of), at a τ that holds every action and at one past
// the last, where v̌‖τ drops rewards and ω‖τ divides by more.
func TestPayoffWeightsAreThePayoffs(t *testing.T) {
	rng := random.New(1, 2)
	for _, pace := range paces {
		for trial := range 50 {
			steps := 1 + rng.IntN(40)
			times := paceTimes(uint64(trial), steps, 1e9, pace)
			for _, tau := range []float64{times[len(times)-1], times[len(times)-1] * (1 + rng.Float64())} {
				run := make(aggregate.Run, len(times))
				for k := range run {
					run[k] = aggregate.Interaction{T: times[k], Reward: 2*rng.Float64() - 1}
				}
				for _, sc := range Scores {
					w := payoffWeights(sc, times, tau, 0.9)
					var got float64
					for k, x := range run {
						got += w[k] * x.Reward
					}
					if want := sc.Of(values(run, tau, 0.9)); math.Abs(got-want) > 1e-12 {
						t.Fatalf("%s, %d steps, τ %v, %s: Σ w r = %v, the payoff %v", pace, steps, tau, sc, got, want)
					}
				}
			}
		}
	}
}
