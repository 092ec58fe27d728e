package serveenv

import (
	"fmt"
	"testing"
)

// BenchmarkVecStepCore measures a vector step without the protocol, one
// goroutine against the pool, to choose parallelFrom:
//
//	go test ./cmd/anynt -run '^$' -bench VecStepCore -benchmem
func BenchmarkVecStepCore(b *testing.B) {
	e, err := load(blocker)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{16, 32, 64, 128, 256, 1024} {
		for _, par := range []bool{false, true} {
			b.Run(fmt.Sprintf("n=%d/parallel=%v", n, par), func(b *testing.B) {
				old := parallelFrom
				parallelFrom = n + 1
				if par {
					parallelFrom = n
				}
				defer func() { parallelFrom = old }()
				v := newVector(e, blocker, 1000, 1, n, nextStep)
				defer v.close()
				if err := v.reset(vecReset{}); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for k := 0; b.Loop(); k++ {
					for i := range v.actions {
						v.actions[i] = (i + k) % 3
					}
					if err := v.step(); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}
