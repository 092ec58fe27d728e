package exam_test

import (
	"errors"
	"os/exec"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
)

// outside starts a Python agent of agentproto's tests; the tests need
// python3 and fail, rather than skip, without it (CI installs it).
func outside(t *testing.T, script string) exam.Examinee {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not on the PATH: the tests of agents outside anynt run real Python agents (install CPython 3)")
	}
	p, err := agentproto.Start("python3 ../agentproto/testdata/"+script, agentproto.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return exam.Examinee{Name: script, Process: p}
}

// A Python agent that always stays scores on every item exactly as the
// built-in stay agent does when each episode is read at its end: the same
// environments and episodes, and its real (fast) times change nothing
// when it does all its steps. Given no test time, it is given the steps,
// so τ is when its slower episode ended, and its payoffs at τ are those
// of the built-in agent, whose last action is at its τ, except that the
// faster episode's idle time counts under v̌‖τ and ω‖τ.
func TestAnAgentOutsideScoresAsTheSameAgentInside(t *testing.T) {
	items := lambdaOneItems(t, 3, 2)
	s := exam.DefaultSettings
	s.Episodes = 2
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "stay"), outside(t, "echo_agent.py")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range items {
		in, ex := out[i], out[len(items)+i]
		if ex.AtEnd.Diminishing != in.Values.Diminishing || in.Values.PerCycle != ex.Values.PerCycle || in.Values.Count != ex.Values.Count {
			t.Errorf("%s: stay inside %v (%d actions), outside %v at its ends (%d actions)", it.Name, in.Values.Diminishing, in.Values.Count, ex.AtEnd.Diminishing, ex.Values.Count)
		}
		if ex.Times.Actions != 2*it.Steps || ex.Times.Max <= 0 || in.Times.Actions != 0 {
			t.Errorf("%s: times outside %+v, inside %+v", it.Name, ex.Times, in.Times)
		}
		if !(ex.Tau > 0 && ex.Tau < in.Tau && ex.Values.Tau == ex.Tau && ex.AtEnd.Tau <= ex.Tau) {
			t.Errorf("%s: τ %v outside (its values' %v, at its ends %v), %v inside: want the later episode's end, before the pace's τ",
				it.Name, ex.Tau, ex.Values.Tau, ex.AtEnd.Tau, in.Tau)
		}
	}
}

// An answer that comes after τ moves the environment but does not count:
// with τ of a microsecond no answer of a real process is in time.
func TestAnAnswerAfterTauDoesNotCount(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)[:2]
	s := exam.DefaultSettings
	s.Tau = 1e-6
	out, err := exam.Take(items, []exam.Examinee{outside(t, "random_agent.py")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Values.Count != 0 || o.Score != 0 || o.Times.Actions != 1 {
			t.Errorf("%s: %d interactions counted, score %v, %d answers; want 0, 0 and the one late answer", items[o.Item].Name, o.Values.Count, o.Score, o.Times.Actions)
		}
	}
}

// A fault stops the test at the faulted item for every examinee, the
// item keeping what was done before the fault; with ContinueAfterFault
// every item is taken, each on a new process.
func TestAFaultStopsOrGoesOn(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)
	s := exam.DefaultSettings
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "random"), outside(t, "faulty.py garbage 2 4")}, s, nil)
	var ae *exam.AgentError
	if !errors.As(err, &ae) || ae.Items != 2 || len(out) != 4 || !errors.Is(err, agentproto.ErrMalformed) {
		t.Fatalf("%d outcomes, %v", len(out), err)
	}
	if out[0].Item != 0 || out[1].Item != 1 || out[0].Fault != nil || out[2].Fault != nil || out[3].Fault == nil || out[3].Times.Actions != 3 || out[3].Values.Count != 3 {
		t.Errorf("outcomes %+v", out)
	}
	s.ContinueAfterFault = true
	out, err = exam.Take(items, []exam.Examinee{outside(t, "faulty.py crash 1 2")}, s, nil)
	if !errors.As(err, &ae) || ae.Items != len(items) || len(ae.Faults) != len(items) || len(out) != len(items) {
		t.Fatalf("%d outcomes, %v", len(out), err)
	}
	for _, o := range out {
		if !errors.Is(o.Fault, agentproto.ErrCrash) || o.Values.Count != 1 {
			t.Errorf("%s: fault %v, %d interactions", items[o.Item].Name, o.Fault, o.Values.Count)
		}
	}
}

// Given no test time, an agent outside anynt is read at the latest end of
// its episodes: an episode cut short by a fault does not count in it, so a
// fault in the last of 3 episodes leaves τ, and so the first two
// episodes' payoffs, where their real ends put them, far below the pace's
// time (steps × 1 s); the faulted episode is read at that τ too.
func TestAFaultedEpisodeDoesNotMoveTau(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)[:1]
	s := exam.DefaultSettings
	s.Episodes = 3
	s.ContinueAfterFault = true
	out, err := exam.Take(items, []exam.Examinee{outside(t, "faulty.py crash 3 5")}, s, nil)
	if !errors.Is(err, agentproto.ErrCrash) || len(out) != 1 {
		t.Fatalf("%d outcomes, %v; want the crash", len(out), err)
	}
	o := out[0]
	if len(o.Scores) != 3 || o.Times.Actions != 2*items[0].Steps+4 {
		t.Fatalf("%d episodes, %d answers; want 3, the last faulted at step 5", len(o.Scores), o.Times.Actions)
	}
	if !(o.Tau > 0 && o.Tau < float64(items[0].Steps)/10 && o.Values.Tau == o.Tau) {
		t.Errorf("τ is %v (its values' %v); want the later of the first two episodes' ends, well below the pace's %d s", o.Tau, o.Values.Tau, items[0].Steps)
	}
	if !(o.AtEnd.Tau > 0 && o.AtEnd.Tau <= o.Tau) {
		t.Errorf("the episodes' mean end is %v; want at most τ %v, the faulted one's end being τ", o.AtEnd.Tau, o.Tau)
	}
}
