package stats_test

import (
	"testing"

	"github.com/anynt/anynt/internal/stats"
)

// BenchmarkMeanCI is a report's summary of 20 items, the quantile kept.
func BenchmarkMeanCI(b *testing.B) {
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(i%7) / 7
	}
	b.ReportAllocs()
	for b.Loop() {
		stats.MeanCI(xs)
	}
}
