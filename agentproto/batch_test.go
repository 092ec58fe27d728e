package agentproto_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
)

// slotted is an episode under way in a slot.
type slotted struct {
	agent exam.Slot
	ep    *env.Episode
}

// startSlots starts episode 0 of each item in slots 0, 1, …
func startSlots(p *agentproto.Process, items []exam.Item) []slotted {
	s := make([]slotted, len(items))
	for k, it := range items {
		s[k].agent = p.SlotEpisode(k, agentproto.Exercise{Name: it.Name, Steps: it.Steps, Seed: it.Seed})
		s[k].ep = env.NewPlayer(it.Env).Episode(s[k].agent, env.EpisodeSeed(it.Seed, 0))
	}
	return s
}

// round plays one interaction in every slot, in one round.
func round(p *agentproto.Process, s []slotted) {
	for _, sl := range s {
		v, _ := sl.ep.Begin()
		sl.agent.Observe(v)
	}
	p.Round()
	for _, sl := range s {
		sl.ep.Finish(sl.agent.Action())
	}
}

// Offered batches, anynt says anynt/1.1 and the batch in its hello, and
// takes the batch the agent accepts (echo_agent.py accepts 3 of 8); the
// starts and ends carry their slot and go out with the next observe, which
// lists the slots, their steps, observations and rewards, in one line.
// Unbatched (Batch 1), hello and start are anynt/1's, without either.
func TestBatchMessages(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	p, err := agentproto.Start(python(t)+" testdata/echo_agent.py", agentproto.Options{Timeout: 10 * time.Second, Tool: "t", Batch: 8, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Batched() || p.Batch() != 3 {
		t.Fatalf("batched %v, batch %d; want the 3 the agent accepted", p.Batched(), p.Batch())
	}
	s := startSlots(p, items[:2])
	round(p, s)
	round(p, s)
	for _, sl := range s {
		if sl.agent.Fault() != nil || sl.agent.Times().Actions != 2 || sl.agent.Action() != 0 {
			t.Fatalf("slot: fault %v, %d answers, action %d", sl.agent.Fault(), sl.agent.Times().Actions, sl.agent.Action())
		}
	}
	s[1].ep.End()
	p.Close()
	lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
	if len(lines) != 7 {
		t.Fatalf("%d lines; want hello, 2 starts, 2 observes, an end and bye:\n%s", len(lines), stderr.String())
	}
	if lines[0] != `{"type":"hello","protocol":"anynt/1.1","tool":"t","batch":8}` {
		t.Errorf("hello %s", lines[0])
	}
	for i, want := range []string{"start", "start", "observe", "observe", "end"} {
		var m map[string]any
		if err := json.Unmarshal([]byte(lines[i+1]), &m); err != nil || m["type"] != want {
			t.Fatalf("line %d: %s; want %s (%v)", i+1, lines[i+1], want, err)
		}
		observations, _ := m["observations"].([]any)
		got := fmt.Sprint(m["slot"], m["slots"], m["steps"], len(observations), m["rewards"])
		wants := map[string]string{
			"start":   fmt.Sprintf("%d <nil> %d 0 <nil>", i, items[i].Steps),
			"observe": fmt.Sprintf("<nil> [0 1] [%d %d] 2 %v", i-1, i-1, map[int]string{1: "[0 0]", 2: "[-1 0]"}[i-1]),
			"end":     "1 <nil> <nil> 0 <nil>",
		}
		if got != wants[want] {
			t.Errorf("line %d: %s: %s; want %s", i+1, lines[i+1], got, wants[want])
		}
	}
	if !strings.HasSuffix(stderr.String(), `{"type":"bye"}`+"\n") {
		t.Errorf("the last line is not bye:\n%s", stderr.String())
	}

	stderr = syncBuffer{}
	p, err = agentproto.Start(python(t)+" testdata/echo_agent.py", agentproto.Options{Timeout: 10 * time.Second, Tool: "t", Batch: 1, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	playEpisode(p, items[0], 0)
	p.Close()
	lines = strings.Split(stderr.String(), "\n")
	if p.Batched() || p.Batch() != 1 || lines[0] != `{"type":"hello","protocol":"anynt/1.1","tool":"t"}` || !strings.HasPrefix(lines[1], `{"type":"start","exercise":`) {
		t.Errorf("unbatched: batched %v, batch %d, hello %s, start %s", p.Batched(), p.Batch(), lines[0], lines[1])
	}
}

// A fault in a round is every slot's, each at its own place, the agent's
// standard error quoted at the first slot alone; the process is then
// dead, and a slot started after it is faulted at once.
func TestBatchFaultIsEverySlots(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	p, err := agentproto.Start(python(t)+" testdata/faulty_batch.py count 2", agentproto.Options{Timeout: 10 * time.Second, Batch: 4})
	if err != nil {
		t.Fatal(err)
	}
	s := startSlots(p, items[:3])
	round(p, s)
	round(p, s)
	for k, sl := range s {
		var f *agentproto.Fault
		if !errors.As(sl.agent.Fault(), &f) || !errors.Is(f, agentproto.ErrMalformed) || f.Exercise != items[k].Name || f.Step != 2 || f.Slot != k || f.Batch != 3 ||
			(len(f.Stderr) > 0) != (k == 0) || sl.agent.Times().Actions != 1 {
			t.Errorf("slot %d: fault %+v, %d answers", k, f, sl.agent.Times().Actions)
		}
	}
	late := startSlots(p, items[3:4])[0]
	if !errors.Is(late.agent.Fault(), agentproto.ErrMalformed) {
		t.Errorf("a slot started after the fault: %v", late.agent.Fault())
	}
	p.Close()
}

// An agent outside anynt takes two exercises of Λ_one at once, in two
// slots of a batch: each round sends both observations in one message
// and reads both actions in one answer. The first exercise scores as
// random_agent.py does in ExampleStart, one item at a time: 3 in 20 steps.
func ExampleProcess_Round() {
	p, err := agentproto.Start("python3 testdata/random_batch_agent.py", agentproto.Options{Timeout: 10 * time.Second, Tool: "anynt example", Batch: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	items, _ := exam.LambdaOneItems(1, 1, "example")
	var agents [2]exam.Slot
	var eps [2]*env.Episode
	var rewards [2]float64
	for k, it := range items[:2] {
		agents[k] = p.SlotEpisode(k, agentproto.Exercise{Name: it.Name, Steps: it.Steps, Seed: it.Seed})
		eps[k] = env.NewPlayer(it.Env).Episode(agents[k], 7)
	}
	for range items[0].Steps { // 20: the shorter exercise's steps
		for k := range eps {
			v, _ := eps[k].Begin()
			agents[k].Observe(v)
		}
		p.Round()
		for k := range eps {
			r, _ := eps[k].Finish(agents[k].Action())
			rewards[k] += r
		}
	}
	fmt.Println(p.Name, p.Batch(), rewards, agents[0].Times().Actions, agents[1].Fault())
	// Output: random-batch.py 2 [3 7] 20 <nil>
}

// BenchmarkBatchRoundTrip measures interactions a second across batched
// rounds of 1 and 16 slots with trivial Python agents: each round writes
// one observe of every slot's observation, the agent answers one act,
// and each slot's environment moves. random is random_batch_agent.py
// (json.loads and json.dumps a round), constant parses nothing.
func BenchmarkBatchRoundTrip(b *testing.B) {
	for _, agent := range []string{"random", "constant"} {
		for _, k := range []int{1, 16} {
			b.Run(fmt.Sprintf("%s/slots=%d", agent, k), func(b *testing.B) {
				it := exercise(b, 7)
				p, err := agentproto.Start(python(b)+" testdata/"+agent+"_batch_agent.py", agentproto.Options{Timeout: 10 * time.Second, Batch: max(k, 2)})
				if err != nil {
					b.Fatal(err)
				}
				defer p.Close()
				rounds := (b.N + k - 1) / k
				s := make([]slotted, k)
				for i := range s {
					s[i].agent = p.SlotEpisode(i, agentproto.Exercise{Name: it.Name, Steps: rounds, Seed: it.Seed})
					s[i].ep = env.NewPlayer(it.Env).Episode(s[i].agent, uint64(i))
				}
				b.ReportAllocs()
				start := time.Now()
				b.ResetTimer()
				for range rounds {
					round(p, s)
				}
				b.StopTimer()
				if err := s[0].agent.Fault(); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(rounds*k)/time.Since(start).Seconds(), "interactions/s")
				b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(rounds*k), "ns/interaction")
			})
		}
	}
}

// The test's time bounds a batch's rounds as it bounds answers one at a
// time: a round unanswered when it runs out faults every slot of it.
func TestBatchTestTimeout(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	p, err := agentproto.Start(python(t)+" testdata/faulty_batch.py hang 2", agentproto.Options{Timeout: time.Minute, TestTimeout: time.Second, Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	s := startSlots(p, items[:2])
	round(p, s)
	round(p, s)
	for k, sl := range s {
		if !errors.Is(sl.agent.Fault(), agentproto.ErrTestTimeout) || sl.agent.Times().Actions != 1 {
			t.Errorf("slot %d: fault %v, %d answers; want the test's time over at the second round", k, sl.agent.Fault(), sl.agent.Times().Actions)
		}
	}
	p.Close()
}
