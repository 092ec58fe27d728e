package exam_test

import (
	"errors"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
)

// batched starts a Python agent of agentproto's tests that takes up to k
// items at once.
func batched(t testing.TB, script string, k int) exam.Examinee {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not on the PATH: the tests of agents outside anynt run real Python agents (install CPython 3)")
	}
	p, err := agentproto.Start("python3 ../agentproto/testdata/"+script, agentproto.Options{Timeout: 10 * time.Second, Batch: k})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return exam.Examinee{Name: script, Process: p}
}

// In batches as one at a time, an answer that comes after τ moves the
// environment but does not count: with τ of a microsecond, every item's
// first round is late, and each item of the round is charged it.
func TestABatchedAnswerAfterTauDoesNotCount(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)
	s := exam.DefaultSettings
	s.Tau = 1e-6
	out, err := exam.Take(items, []exam.Examinee{batched(t, "random_batch_agent.py", 4)}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range out {
		if o.Values.Count != 0 || o.Score != 0 || o.Times.Actions != 1 || o.Cut != 1 {
			t.Errorf("%s: %d interactions counted, score %v, %d answers, %d cut; want 0, 0 and the one late answer", items[o.Item].Name, o.Values.Count, o.Score, o.Times.Actions, o.Cut)
		}
	}
}

// A slot plays its item's episodes one after another: a crash in the
// third episode of the first item (its slot's 45th round: 20 steps an
// episode) faults it there, and the item is read as one at a time: τ at
// the later of its first two episodes' ends, not the pace's time.
func TestABatchedFaultedEpisodeDoesNotMoveTau(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)
	s := exam.DefaultSettings
	s.Episodes = 3
	out, err := exam.Take(items, []exam.Examinee{batched(t, "faulty_batch.py crash 45", 2)}, s, nil)
	var ae *exam.AgentError
	if !errors.Is(err, agentproto.ErrCrash) || !errors.As(err, &ae) || ae.Items != 2 || len(ae.Faults) != 2 || len(out) != 2 {
		t.Fatalf("%d outcomes, %v; want the crash in the first two items", len(out), err)
	}
	o := out[0]
	if len(o.Scores) != 3 || o.Times.Actions != 2*items[0].Steps+4 || o.Fault == nil {
		t.Fatalf("%d episodes, %d answers, fault %v; want 3, the last faulted at step 5", len(o.Scores), o.Times.Actions, o.Fault)
	}
	if !(o.Tau > 0 && o.Tau < float64(items[0].Steps)/10 && o.Values.Tau == o.Tau) {
		t.Errorf("τ is %v (its values' %v); want the later of the first two episodes' ends, well below the pace's %d s", o.Tau, o.Values.Tau, items[0].Steps)
	}
	if o := out[1]; len(o.Scores) != 2 || o.Times.Actions != items[1].Steps+14 {
		t.Errorf("the second item: %d episodes, %d answers; want its second episode faulted at step 15", len(o.Scores), o.Times.Actions)
	}
}

// BenchmarkTakeInBatches is Take of 20 Λ_one tests (7,000 interactions)
// by an agent outside anynt, one item at a time and 16 at a time: the
// random agent in batches (random_batch_agent.py) and the one that parses
// nothing (constant_agent.py, constant_batch_agent.py). The process's
// start is not timed.
func BenchmarkTakeInBatches(b *testing.B) {
	items := lambdaOneItems(b, 1, 20)
	for _, tt := range []struct {
		script string
		k      int
	}{{"random_batch_agent.py", 1}, {"random_batch_agent.py", 16}, {"constant_agent.py", 1}, {"constant_batch_agent.py", 16}} {
		b.Run(fmt.Sprintf("%s/k=%d", tt.script, tt.k), func(b *testing.B) {
			x := batched(b, tt.script, tt.k)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := exam.Take(items, []exam.Examinee{x}, exam.DefaultSettings, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(7000*b.N)/b.Elapsed().Seconds(), "interactions/s")
		})
	}
}
