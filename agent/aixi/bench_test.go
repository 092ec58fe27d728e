package aixi

import (
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
