package aggregate

import (
	"testing"

	"github.com/anynt/anynt/random"
)

// BenchmarkAnytime reads the five payoffs of a run of 10,000 interactions
// at 100 test times, the curves a report of one long run draws.
func BenchmarkAnytime(b *testing.B) {
	rng := random.New(1, 1)
	run := make(Run, 10_000)
	for i := range run {
		run[i] = Interaction{T: float64(i+1) * 0.1, Reward: float64(2*rng.IntN(2) - 1)}
	}
	taus := make([]float64, 100)
	for i := range taus {
		taus[i] = float64(i+1) * 10
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := run.Anytime(taus, 0.99); err != nil {
			b.Fatal(err)
		}
	}
}
