package exam_test

import (
	"errors"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
)

// Closing Settings.Stop while the built-in agents take the test stops
// them: Take gives the first items, the same for every agent and exactly
// as a test run to its end measures them, and an AgentError that says the
// test was stopped, on one core or several.
func TestStopGivesTheItemsTaken(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	items, err := exam.LambdaOneItems(3, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	xs, err := exam.Examinees([]string{"qlearning", "random"}, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	s := exam.DefaultSettings
	s.Episodes = 5
	whole, err := exam.Take(items, xs, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		stop := make(chan struct{})
		var once sync.Once
		s.Stop = stop
		out, err := exam.Take(items, xs, s, func(done, _ int) {
			if done == 6 {
				once.Do(func() { close(stop) })
			}
		})
		var stopped *exam.AgentError
		if !errors.As(err, &stopped) || !errors.Is(err, exam.ErrStopped) {
			t.Fatalf("%d cores: the error is %v; want an AgentError with ErrStopped", procs, err)
		}
		n := stopped.Items
		// On one core the items are taken one at a time, the third's
		// last outcome is the sixth; on two, an item under way when Stop
		// came is given up, and with it the items after it.
		if procs == 1 && n != 3 || n >= len(items) || len(out) != n*len(xs) {
			t.Fatalf("%d cores: %d items, %d outcomes; want 3 on one core, fewer than %d on two, each for both agents", procs, n, len(out), len(items))
		}
		for a := range xs {
			if got, want := out[a*n:(a+1)*n], whole[a*len(items):a*len(items)+n]; !reflect.DeepEqual(got, want) {
				t.Errorf("%d cores, %s: the items taken differ from a whole test's", procs, xs[a].Name)
			}
		}
	}
}
