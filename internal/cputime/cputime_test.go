//go:build unix

package cputime

import (
	"testing"
	"time"
)

// TestUsedCountsWork spins for 50 ms of wall time and checks that the CPU
// time grew (a busy machine may give the spinning goroutine little of
// those 50 ms, but not nothing) and by no more than many cores could give
// in that time.
func TestUsedCountsWork(t *testing.T) {
	before, ok := Used()
	if !ok {
		t.Fatal("no CPU time on a Unix")
	}
	start := time.Now()
	x := 0
	for time.Since(start) < 50*time.Millisecond {
		x++
	}
	wall := time.Since(start)
	after, _ := Used()
	if used := after - before; used <= 0 || used > 64*wall {
		t.Errorf("%v of CPU time in %v of spinning (x = %d)", used, wall, x)
	}
}
