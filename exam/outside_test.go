package exam_test

import (
	"errors"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/stats"
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
// built-in stay agent does, every payoff of every episode, with one
// episode an item and with several: the same environments and episodes,
// and its real (fast) times change nothing when it does all its steps.
// Given no test time, it is given the steps, and each episode is read at
// its own τ, when it ended, as the built-in agent's last action is at its
// τ; so no episode's idle time counts, whatever a slower one took.
func TestAnAgentOutsideScoresAsTheSameAgentInside(t *testing.T) {
	items := lambdaOneItems(t, 3, 2)
	for _, episodes := range []int{1, 6} {
		s := exam.DefaultSettings
		s.Episodes = episodes
		out, err := exam.Take(items, []exam.Examinee{examinee(t, "stay"), outside(t, "echo_agent.py")}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, it := range items {
			in, ex := out[i], out[len(items)+i]
			if !slices.Equal(ex.Scores, in.Scores) || ex.Score != in.Score || ex.Values.Diminishing != in.Values.Diminishing ||
				ex.Values.PerCycle != in.Values.PerCycle || ex.Values.Count != in.Values.Count {
				t.Errorf("%d episodes, %s: stay inside scores %v (%v, %d actions), outside %v (%v, %d actions)",
					episodes, it.Name, in.Score, in.Scores, in.Values.Count, ex.Score, ex.Scores, ex.Values.Count)
			}
			if ex.Times.Actions != episodes*it.Steps || ex.Times.Max <= 0 || in.Times.Actions != 0 {
				t.Errorf("%d episodes, %s: times outside %+v, inside %+v", episodes, it.Name, ex.Times, in.Times)
			}
			if !(ex.Tau > 0 && ex.Tau < in.Tau && ex.Values.Tau == ex.Tau && ex.AtEnd == ex.Values) {
				t.Errorf("%d episodes, %s: τ %v outside (its values' %v, at its ends %+v), %v inside: want the mean of its episodes' ends, where each is read",
					episodes, it.Name, ex.Tau, ex.Values.Tau, ex.AtEnd, in.Tau)
			}
		}
	}
}

// The same policy gets the same default score, v̌‖τ, inside anynt and
// outside: the built-in Q-learning and agentproto's qlearning_agent.py,
// one algorithm with the same settings that break ties from their own
// random streams, take Λ_one items on the same episode seeds, 840
// episodes in all: 120 tests (840 items) of 1 episode an item, and 20
// tests (140 items) of 6 episodes an item, given no test time. Each
// episode is paired with the other agent's on the same environment and
// seed, and the mean of the paired differences (outside − inside) must
// have a 95% interval that holds 0: they differ only by their ties'
// draws. The seed is fixed and the outside agent's scores do not depend
// on its response times (each episode is read at its own end), so the
// check gives the same verdict on every run. As an agent that does all
// its steps by τ, each gets its per-cycle payoff v‖τ. Read at its slowest
// episode's end, as it was, the outside agent lost a tenth of its score
// at 6 episodes on an idle machine (−0.026 [−0.044, −0.009]), more under
// load.
func TestTheSamePolicyScoresTheSameInsideAndOutside(t *testing.T) {
	for _, episodes := range []int{1, 6} {
		items := lambdaOneItems(t, 1, 120/episodes)
		s := exam.DefaultSettings
		s.Episodes = episodes
		out, err := exam.Take(items, []exam.Examinee{examinee(t, "qlearning"), outside(t, "qlearning_agent.py")}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		var diffs []float64
		var inside, outside float64
		for i := range items {
			in, ex := out[i], out[len(items)+i]
			for e := range in.Scores {
				diffs = append(diffs, ex.Scores[e]-in.Scores[e])
			}
			if ex.Values.Diminishing != ex.Values.PerCycle || in.Values.Diminishing != in.Values.PerCycle {
				t.Errorf("%d episodes, %s: v̌‖τ %v and v‖τ %v outside, %v and %v inside; an agent that does all its steps by τ gets v‖τ",
					episodes, items[i].Name, ex.Values.Diminishing, ex.Values.PerCycle, in.Values.Diminishing, in.Values.PerCycle)
			}
			inside, outside = inside+in.Score, outside+ex.Score
		}
		mean, ci := stats.MeanCI(diffs)
		t.Logf("%d episodes: inside %.4f, outside %.4f, paired difference %+.4f [%+.4f, %+.4f] over %d episodes",
			episodes, inside/float64(len(items)), outside/float64(len(items)), mean, ci[0], ci[1], len(diffs))
		if !(ci[0] <= 0 && 0 <= ci[1]) {
			t.Errorf("%d episodes an item: outside − inside is %+.4f [%+.4f, %+.4f]; the same policy should differ by noise only",
				episodes, mean, ci[0], ci[1])
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

// Given no test time, an agent outside anynt reads each episode at its
// own end; an episode cut short by a fault has none, and is read at the
// latest end of the item's other episodes, the time the agent took for
// the steps: a fault in the last of 3 episodes leaves τ far below the
// pace's time (steps × 1 s), and the faulted episode's idle time counts.
func TestAFaultedEpisodeIsReadAtTheOthersLatestEnd(t *testing.T) {
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
	if !(o.Tau > 0 && o.Tau < float64(items[0].Steps)/10 && o.Values.Tau == o.Tau && o.AtEnd == o.Values) {
		t.Errorf("τ is %v (its values' %v, at the ends %+v); want the mean of the episodes' τ, well below the pace's %d s, each read at its end",
			o.Tau, o.Values.Tau, o.AtEnd, items[0].Steps)
	}
}
