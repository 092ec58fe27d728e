package cores_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/anynt/anynt/internal/cores"
)

// TestEachDoesEveryJobOnce runs jobs on 1, 2 and 4 workers: every k is done
// exactly once, its slot holds its own result whatever the workers, done
// counts 1…n in order, and each worker's state is its own.
func TestEachDoesEveryJobOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range []struct{ procs, n int }{{1, 0}, {1, 1}, {1, 50}, {2, 1}, {2, 50}, {4, 3}, {4, 1000}} {
		runtime.GOMAXPROCS(tc.procs)
		slots := make([]int, tc.n)
		calls := make([]int, tc.n)
		var finished []int
		var mu sync.Mutex
		workers := 0
		cores.Each(tc.n, func() *[]int {
			mu.Lock()
			workers++
			mu.Unlock()
			return new([]int)
		}, func(w *[]int, k int) {
			*w = append(*w, k) // a worker's own state: no lock needed
			slots[k] = k * k
			calls[k]++
		}, func(n int) { finished = append(finished, n) })
		for k := range tc.n {
			if slots[k] != k*k || calls[k] != 1 {
				t.Errorf("procs %d, n %d: job %d gave %d in %d calls", tc.procs, tc.n, k, slots[k], calls[k])
			}
		}
		want := make([]int, tc.n)
		for i := range want {
			want[i] = i + 1
		}
		if !slices.Equal(finished, want) {
			t.Errorf("procs %d, n %d: done saw %v", tc.procs, tc.n, finished)
		}
		if w := cores.Workers(tc.n); workers != w {
			t.Errorf("procs %d, n %d: %d workers, Workers says %d", tc.procs, tc.n, workers, w)
		}
	}
}

// BenchmarkEach measures what Each costs beyond its jobs: the start-up and
// hand-out of 1,000 empty jobs (run with -cpu 1,2).
func BenchmarkEach(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		cores.Each(1000, func() struct{} { return struct{}{} }, func(struct{}, int) {}, nil)
	}
}

// BenchmarkIdeal is what two cores give jobs that share nothing, of
// about the main job's size (BenchmarkMainJob, 8 ms on one core): 280
// jobs of arithmetic alone, and 280 jobs of reads at random from a
// 64 MiB table (no job writes memory; each read misses the caches). On a
// virtual machine shared with others a second core does not always give
// 2×, and memory, shared with the other machines, is where it gives less
// first; scripts/cores-ratio runs both beside the main job in every round.
func BenchmarkIdeal(b *testing.B) {
	table := make([]uint64, 8<<20)
	for i := range table {
		table[i] = uint64(i)
	}
	jobs := map[string]func(k int) uint64{
		"arithmetic": func(k int) uint64 {
			x := uint64(k)
			for i := range uint64(30_000) {
				x = x*6364136223846793005 + i
			}
			return x
		},
		"memory": func(k int) uint64 {
			x, sum := uint64(k)*2654435761, uint64(0)
			for range 2_500 {
				x = x*6364136223846793005 + 1442695040888963407
				sum += table[(x>>20)&(8<<20-1)]
			}
			return sum
		},
	}
	for _, kind := range []string{"arithmetic", "memory"} {
		for _, procs := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/cores=%d", kind, procs), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				sums := make([]uint64, 280)
				for b.Loop() {
					cores.Do(len(sums), func(k int) { sums[k] = jobs[kind](k) }, nil)
				}
			})
		}
	}
}
