package exam_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
)

// stopAt is the examinee name of the built-in agents whose test closes
// stop as it meets its nth environment: a signal that comes mid-test at a
// known point. The first examinee closes it; the others only take part.
func stopAt(t *testing.T, n int, stop chan struct{}, names ...string) []exam.Examinee {
	xs := builtIns(t, names...)
	inner, met := xs[0].New, 0
	xs[0].New = func() env.Agent { // once an environment, on the examinee's goroutine
		if met++; met == n {
			close(stop)
		}
		return inner()
	}
	return xs
}

// A stopped adaptive test gives every examinee's test as it stood when the
// stop came: the examinees take each environment of the schedule
// together, so each result is exactly the test of the time they reached
// (score, standard error, interval, steps), with the rest of the time
// unused, and the error holds ErrStopped. Stopped as the fifth environment
// is met, every examinee's test is the test of five environments' time.
func TestAStoppedAdaptiveTestIsTheShorterTest(t *testing.T) {
	for _, names := range [][]string{{"qlearning"}, {"qlearning", "random", "follower"}} {
		stop := make(chan struct{})
		s := exam.DefaultAdaptive
		s.Stop = stop
		got, err := exam.TakeAdaptive(stopAt(t, 5, stop, names...), s, 3)
		if !errors.Is(err, exam.ErrStopped) {
			t.Fatalf("%v: error %v; want ErrStopped", names, err)
		}
		steps := got[0].Steps
		for _, r := range got {
			if len(r.Steps) != 5 {
				t.Fatalf("%v: %s took %d environments; want the 5 met before the stop", names, r.Agent, len(r.Steps))
			}
		}
		reached := steps[len(steps)-1].End()
		short := exam.DefaultAdaptive
		short.Tau = reached
		want, err := exam.TakeAdaptive(builtIns(t, names...), short, 3)
		if err != nil {
			t.Fatal(err)
		}
		for k := range got {
			if got[k].Unused != s.Tau-reached {
				t.Errorf("%v: %s has %v s unused; want %v", names, got[k].Agent, got[k].Unused, s.Tau-reached)
			}
			got[k].Unused = want[k].Unused
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%v: %s stopped at %v s:\n%+v\nwant the test of %v s:\n%+v", names, got[k].Agent, reached, got[k], reached, want[k])
			}
		}
	}
}

// Progress is told the environments done over every examinee after each
// environment of the schedule, which every examinee takes: it climbs by
// the examinees to the test's whole count.
func TestAdaptiveProgressCountsEveryEnvironment(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau = 300
	var seen []int
	s.Progress = func(done int) { seen = append(seen, done) }
	xs := builtIns(t, "random", "follower")
	rs, err := exam.TakeAdaptive(xs, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	total := len(rs[0].Steps) + len(rs[1].Steps)
	if len(seen) != len(rs[0].Steps) || seen[len(seen)-1] != total {
		t.Fatalf("progress %v; want one call an environment, up to %d", seen, total)
	}
	for i, d := range seen {
		if d != (i+1)*len(xs) {
			t.Fatalf("progress %v; want %d more each time", seen, len(xs))
		}
	}
}
