package cores

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers is the number of goroutines Each uses for n jobs: one for each
// core Go may use (GOMAXPROCS), no more than the jobs.
func Workers(n int) int { return max(min(runtime.GOMAXPROCS(0), n), 0) }

// Each calls do(w, k) once for each k in 0…n−1 on Workers(n) goroutines,
// each worker with its own state w from newWorker, taking the next k as it
// finishes. done, if not nil, is then given the number of jobs finished,
// one call at a time. Each returns when every job is done.
func Each[W any](n int, newWorker func() W, do func(w W, k int), done func(finished int)) {
	workers := Workers(n)
	if workers == 0 {
		return
	}
	if workers == 1 {
		w := newWorker()
		for k := range n {
			do(w, k)
			if done != nil {
				done(k + 1)
			}
		}
		return
	}
	var next atomic.Int64
	var mu sync.Mutex // orders the calls of done
	finished := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			w := newWorker()
			for {
				k := int(next.Add(1) - 1)
				if k >= n {
					return
				}
				do(w, k)
				if done != nil {
					mu.Lock()
					finished++
					done(finished)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
}

// Do is Each for jobs that keep no state of their own from job to job.
func Do(n int, do func(k int), done func(finished int)) {
	Each(n, func() struct{} { return struct{}{} }, func(_ struct{}, k int) { do(k) }, done)
}
