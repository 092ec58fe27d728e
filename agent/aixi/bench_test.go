package aixi

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/anynt/anynt/env"
)

// BenchmarkFixtureB plays fixture B (8 cells, 4 actions: percepts of 62
// bits) with the default budget and reports interactions per second. Each
// iteration is one interaction of 50-interaction episodes, so the cost of
// a model still small and of one grown over an episode are both in it.
func BenchmarkFixtureB(b *testing.B) {
	e := load(b, "../../corpus/lambda-one/fixture-b.anynt")
	const episode = 50
	b.ReportAllocs()
	var ep *env.Episode
	for i := range b.N {
		if i%episode == 0 {
			ep = env.NewEpisode(e, New(DefaultSettings), uint64(i/episode))
		}
		ep.Interact()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
}

// BenchmarkBudget measures an action's cost against the planning budget
// on fixture B: simulations 4 to 256 at the default depth and horizon,
// then depths and horizons at the default 64 simulations. An iteration
// is a whole episode of 50 interactions (Λ_one's run from 20 to 80), so
// that every figure averages the same span of the model's growth, however
// many iterations the benchmark runs: ns/action, actions/s and
// allocs/action are per interaction, ns/op, B/op and allocs/op per
// episode.
//
//	go test ./agent/aixi -run '^$' -bench Budget -benchmem
func BenchmarkBudget(b *testing.B) {
	e := load(b, "../../corpus/lambda-one/fixture-b.anynt")
	const episode = 50
	var cases []Settings
	for _, sims := range []int{4, 16, 64, 256} {
		s := DefaultSettings
		s.Simulations = sims
		cases = append(cases, s)
	}
	for _, depth := range []int{8, 16, 64} {
		s := DefaultSettings
		s.Depth = depth
		cases = append(cases, s)
	}
	for _, horizon := range []int{2, 4} {
		s := DefaultSettings
		s.Horizon = horizon
		cases = append(cases, s)
	}
	for _, s := range cases {
		name := fmt.Sprintf("simulations=%d/depth=%d/horizon=%d", s.Simulations, s.Depth, s.Horizon)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			episodes := 0
			for b.Loop() {
				env.NewEpisode(e, New(s), uint64(episodes)).Run(episode, nil)
				episodes++
			}
			runtime.ReadMemStats(&after)
			actions := float64(episodes * episode)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/actions, "ns/action")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/actions, "allocs/action")
			b.ReportMetric(actions/b.Elapsed().Seconds(), "actions/s")
		})
	}
}
