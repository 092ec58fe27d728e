package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkMainJob runs the README's main job, anynt test on lambda-one
// with random and Q-learning, in the process (no start-up), at 20 and 200
// tests, on one core and on two: the ratio of cores=1 to cores=2 is what
// both cores give the job (docs/tests.md, "On all cores"). It sets
// GOMAXPROCS itself rather than leave it to -cpu 1,2, which runs the
// first sub-benchmark with the last value of the list (golang/go#49980),
// so that both rows would be two cores.
func BenchmarkMainJob(b *testing.B) {
	for _, tests := range []int{20, 200} {
		for _, procs := range []int{1, 2} {
			b.Run(fmt.Sprintf("tests=%d/cores=%d", tests, procs), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				args := []string{"test", "--protocol", "lambda-one", "--agent", "random,qlearning",
					"--tests", fmt.Sprint(tests), "--seed", "1"}
				b.ReportAllocs()
				for b.Loop() {
					if code := run(args, nil, io.Discard, io.Discard); code != 0 {
						b.Fatalf("exit %d", code)
					}
				}
			})
		}
	}
}

// TestMainJobSameOnAnyCores runs the main job, with a battery and the
// adaptive test beside it, on 1, 2 and 4 cores: the output is the same
// bit for bit, since every item and episode is drawn from its own seed
// into its own slot (docs/tests.md, "On all cores").
func TestMainJobSameOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	jobs := [][]string{
		{"test", "--protocol", "lambda-one", "--agent", "random,qlearning", "--tests", "30", "--seed", "7", "--episodes", "3", "--json"},
		{"test", "--protocol", "lambda-one", "--agent", "random,qlearning,oracle", "--tests", "40", "--seed", "1"},
		{"test", "--protocol", "battery", "--agent", "random,qlearning", "--steps", "200", "--json", "../../corpus/thesis"},
		{"run", "../../corpus/thesis/omega1-blocker.anynt", "--agent", "random", "--episodes", "50", "--steps", "300", "--json"},
	}
	for _, args := range jobs {
		var want string
		for _, procs := range []int{1, 2, 4} {
			runtime.GOMAXPROCS(procs)
			var out, errw strings.Builder
			if code := run(args, nil, &out, &errw); code != 0 {
				t.Fatalf("%v on %d cores: exit %d: %s", args, procs, code, errw.String())
			}
			if procs == 1 {
				want = out.String()
			} else if out.String() != want {
				t.Errorf("%v: the output on %d cores differs from one core's", args, procs)
			}
		}
	}
}
