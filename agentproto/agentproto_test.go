package agentproto_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
)

// python is the command that runs the test agents; the tests need it and
// fail, rather than skip, without it (CI installs it).
func python(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not on the PATH: the agent protocol's tests run real Python agents (install CPython 3)")
	}
	return "python3"
}

// exercise is exercise n of Λ_one's test of seed 1.
func exercise(t testing.TB, n int) exam.Item {
	t.Helper()
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	return items[n-1]
}

// syncBuffer is a bytes.Buffer that the agent's standard error may write
// to while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// playEpisode plays a whole episode of the item through p and returns it.
func playEpisode(p *agentproto.Process, it exam.Item, e int) exam.Timed {
	ep := p.Episode(agentproto.Exercise{Name: it.Name, Episode: e, Steps: it.Steps, Seed: it.Seed})
	run := env.NewPlayer(it.Env).Episode(ep, env.EpisodeSeed(it.Seed, e))
	for range it.Steps {
		run.Interact()
		if ep.Fault() != nil {
			break
		}
	}
	run.End()
	return ep
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  string
	}{
		{in: "python3 agent.py", want: []string{"python3", "agent.py"}},
		{in: "  python3\t-u  agent.py  ", want: []string{"python3", "-u", "agent.py"}},
		{in: `python3 "my agent.py" --name 'Q learner'`, want: []string{"python3", "my agent.py", "--name", "Q learner"}},
		{in: `a\ b c`, want: []string{"a b", "c"}},
		{in: `"say \"hi\" \n" 'it''s'`, want: []string{`say "hi" \n`, "its"}},
		{in: `'$HOME' "$HOME"`, want: []string{"$HOME", "$HOME"}},
		{in: `a "" b`, want: []string{"a", "", "b"}},
		{in: "", err: "the command is empty"},
		{in: "   ", err: "the command is empty"},
		{in: `python3 "agent.py`, err: "the quote \" is not closed"},
		{in: `python3 'agent.py`, err: "the quote ' is not closed"},
		{in: `python3 agent.py\`, err: "ends with a backslash"},
	}
	for _, tt := range tests {
		got, err := agentproto.Split(tt.in)
		if tt.err != "" {
			if err == nil || !errors.Is(err, agentproto.ErrCommand) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Split(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestMessages checks what anynt sends, as an agent that echoes every
// message to its standard error received it: hello, start with the
// exercise's figures, an observe a step with the observation as indices
// into a permutation of the alphabet and the previous reward, end, bye.
func TestMessages(t *testing.T) {
	it := exercise(t, 3)
	var stderr syncBuffer
	p, err := agentproto.Start(python(t)+" testdata/echo_agent.py", agentproto.Options{Timeout: 10 * time.Second, Stderr: &stderr, Tool: "anynt test"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "echo" {
		t.Errorf("the agent's name is %q; want echo (from its hello)", p.Name)
	}
	ep := playEpisode(p, it, 0)
	p.Close()
	if ep.Fault() != nil {
		t.Fatal(ep.Fault())
	}
	var msgs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(stderr.String()))
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("anynt sent %q, not a JSON object: %v", sc.Text(), err)
		}
		msgs = append(msgs, m)
	}
	if len(msgs) != it.Steps+4 {
		t.Fatalf("%d messages; want hello, start, %d observes, end, bye", len(msgs), it.Steps)
	}
	if m := msgs[0]; m["type"] != "hello" || m["protocol"] != agentproto.Version || m["tool"] != "anynt test" {
		t.Errorf("hello is %v", m)
	}
	symbols := len(it.Env.BaseSymbols())
	st := msgs[1]
	if st["type"] != "start" || st["exercise"] != it.Name || st["episode"] != 0.0 || st["actions"] != float64(len(it.Env.Actions)) ||
		st["symbols"] != float64(symbols) || st["steps"] != float64(it.Steps) {
		t.Errorf("start is %v; want %s, episode 0, %d actions, %d symbols, %d steps", st, it.Name, len(it.Env.Actions), symbols, it.Steps)
	}
	// The staying agent's observations: the same cells every step but
	// Good and Evil move; the symbols are indices in range, and every
	// step has the same number of them.
	var first []any
	for i, m := range msgs[2 : 2+it.Steps] {
		obs, _ := m["observation"].([]any)
		if m["type"] != "observe" || m["step"] != float64(i+1) || len(obs) == 0 {
			t.Fatalf("observe %d is %v", i+1, m)
		}
		if i == 0 {
			first = obs
			if m["reward"] != 0.0 {
				t.Errorf("the first observe's reward is %v; want 0", m["reward"])
			}
		}
		if len(obs) != len(first) {
			t.Errorf("observe %d has %d symbols, the first %d", i+1, len(obs), len(first))
		}
		for _, x := range obs {
			if k, ok := x.(float64); !ok || k < 0 || k >= float64(symbols) || k != float64(int(k)) {
				t.Fatalf("observe %d holds %v, not an index 0…%d", i+1, x, symbols-1)
			}
		}
	}
	if m := msgs[len(msgs)-2]; m["type"] != "end" {
		t.Errorf("after the observes came %v; want end", m)
	}
	if m := msgs[len(msgs)-1]; m["type"] != "bye" {
		t.Errorf("the last message is %v; want bye", m)
	}
	if ep.Times().Actions != it.Steps || ep.Times().Max <= 0 || ep.Times().Total < ep.Times().Max {
		t.Errorf("times %+v; want %d actions with positive times", ep.Times(), it.Steps)
	}
}

// TestPermutation checks that the alphabet is permuted by the exercise's
// seed: the same seed gives the same indices, another seed others, and
// the indices are a one-to-one renaming of the environment's codes.
func TestPermutation(t *testing.T) {
	it := exercise(t, 7)
	first := func(seed uint64) []any {
		var stderr syncBuffer
		p, err := agentproto.Start(python(t)+" testdata/echo_agent.py", agentproto.Options{Timeout: 10 * time.Second, Stderr: &stderr})
		if err != nil {
			t.Fatal(err)
		}
		x := it
		x.Seed = seed
		ep := p.Episode(agentproto.Exercise{Name: x.Name, Steps: 1, Seed: seed})
		run := env.NewPlayer(x.Env).Episode(ep, 42) // the same episode: only the alphabet's seed differs
		run.Interact()
		run.End()
		p.Close()
		for _, l := range strings.Split(stderr.String(), "\n") {
			var m map[string]any
			if json.Unmarshal([]byte(l), &m) == nil && m["type"] == "observe" {
				return m["observation"].([]any)
			}
		}
		t.Fatal("no observe")
		return nil
	}
	a, b, c := first(1), first(1), first(2)
	if !slices.Equal(a, b) {
		t.Errorf("one seed gave two observations: %v and %v", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 1 and 2 gave the same indices %v: the alphabet is not permuted", a)
	}
	rename := map[any]any{}
	back := map[any]any{}
	for i := range a {
		if x, ok := rename[a[i]]; ok && x != c[i] {
			t.Fatalf("index %v became both %v and %v: not a renaming", a[i], x, c[i])
		}
		if x, ok := back[c[i]]; ok && x != a[i] {
			t.Fatalf("index %v came from both %v and %v: not one-to-one", c[i], x, a[i])
		}
		rename[a[i]], back[c[i]] = c[i], a[i]
	}
}

// TestFaults runs agents that misbehave at step 3 of an exercise: each
// fault is of its kind, names the command, the exercise, the episode and
// the step, quotes the line or the agent's standard error, and leaves the
// steps before it counted.
func TestFaults(t *testing.T) {
	tests := []struct {
		fault string
		kind  error
		quote string // in the error
	}{
		{"hang", agentproto.ErrTimeout, "no answer in time: 2s a message; the agent was killed"},
		{"crash", agentproto.ErrCrash, "exit status 3"},
		{"garbage", agentproto.ErrMalformed, `"this is not JSON"`},
		{"range", agentproto.ErrIllegal, `the action 7 is out of range: there are 2 actions, 0 to 1; the line: "{\"type\": \"act\", \"action\": 7}"`},
		{"float", agentproto.ErrIllegal, "the action 1.5 is not an integer"},
		{"error", agentproto.ErrGaveUp, `"out of ideas"`},
		{"wrongtype", agentproto.ErrMalformed, `type "hello"; expected "act"`},
		{"long", agentproto.ErrMalformed, "a line longer than 1048576 bytes"},
	}
	it := exercise(t, 1)
	for _, tt := range tests {
		t.Run(tt.fault, func(t *testing.T) {
			cmd := python(t) + " testdata/faulty.py " + tt.fault + " 1 3"
			timeout := 10 * time.Second
			if tt.fault == "hang" {
				timeout = 2 * time.Second
			}
			// The start-up is not bounded by timeout: Python may start
			// slowly on a loaded machine.
			p, err := agentproto.Start(cmd, agentproto.Options{Timeout: timeout, StartTimeout: time.Hour})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			ep := playEpisode(p, it, 0)
			var f *agentproto.Fault
			if !errors.As(ep.Fault(), &f) || !errors.Is(f, tt.kind) {
				t.Fatalf("fault %v; want one of kind %v", ep.Fault(), tt.kind)
			}
			msg := f.Error()
			for _, want := range []string{`agent "` + cmd + `"`, "in " + it.Name + ", episode 0, step 3", tt.quote, "faulty.py: committing " + tt.fault} {
				if !strings.Contains(msg, want) {
					t.Errorf("the error\n%s\ndoes not say %q", msg, want)
				}
			}
			if ep.Times().Actions != 2 {
				t.Errorf("%d answers counted before the fault; want 2", ep.Times().Actions)
			}
			if tt.fault == "hang" {
				// Restart keeps the process's 2 s, which would bound the
				// handshake of a Python starting on a loaded machine too:
				// a new process of the command, with the usual time,
				// shows that the hung one is no obstacle.
				q, err := agentproto.Start(cmd, agentproto.Options{Timeout: 10 * time.Second})
				if err != nil {
					t.Fatalf("a new process after the fault: %v", err)
				}
				q.Close()
				return
			}
			if err := p.Restart(); err != nil {
				t.Fatalf("a new process after the fault: %v", err)
			}
		})
	}
}

func TestHandshake(t *testing.T) {
	py := python(t)
	tests := []struct {
		cmd   string
		kind  error
		quote string
	}{
		{py + " testdata/faulty.py version", agentproto.ErrVersion, `the agent speaks "anynt/2", anynt speaks "anynt/1.1"`},
		{py + " -c 'import sys; sys.exit(4)'", agentproto.ErrCrash, "exit status 4"},
		{py + ` -c 'print("hello there", flush=True)'`, agentproto.ErrMalformed, `"hello there"`},
		{"./no-such-agent", agentproto.ErrStart, "no-such-agent"},
		{py + ` -c 'print("{\"type\": \"hel", end="", flush=True)'`, agentproto.ErrCrash, `exit status 0; the line: "{\"type\": \"hel"`},
		{py + ` -c 'import os, time; out = os.fdopen(1, "w", buffering=8192); out.write("{\"type\": \"hello\", \"protocol\": \"anynt/1\"}\n"); time.sleep(9)'`, agentproto.ErrTimeout,
			"1s to start and answer hello; the agent was killed (does it flush its standard output after each line?)"},
	}
	for _, tt := range tests {
		timeout := time.Hour // Python may start slowly on a loaded machine
		if tt.kind == agentproto.ErrTimeout {
			timeout = time.Second // the hello kept in a buffer for 9 s, however fast Python starts
		}
		_, err := agentproto.Start(tt.cmd, agentproto.Options{Timeout: time.Hour, StartTimeout: timeout})
		if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), "at the handshake") || !strings.Contains(err.Error(), tt.quote) {
			t.Errorf("Start(%q): %v; want %v at the handshake, saying %q", tt.cmd, err, tt.kind, tt.quote)
		}
	}
}

// The handshake has the start's time, not an answer's: an agent slower to
// start and say hello than it may be to answer (here a nanosecond, which
// no hello can meet) is taken.
func TestTheStartHasItsOwnTime(t *testing.T) {
	p, err := agentproto.Start(python(t)+" testdata/random_agent.py", agentproto.Options{Timeout: time.Nanosecond, StartTimeout: time.Hour})
	if err != nil {
		t.Fatalf("the handshake was held to the answers' time: %v", err)
	}
	p.Close()
}

// TestTestTimeout checks the whole test's time limit: it ends an agent
// that answers every message in time.
func TestTestTimeout(t *testing.T) {
	cmd := python(t) + ` -c 'import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    time.sleep(0.05)
    if m["type"] == "hello": print(json.dumps({"type": "hello", "protocol": "anynt/1"}), flush=True)
    if m["type"] == "observe": print(json.dumps({"type": "act", "action": 0}), flush=True)'`
	p, err := agentproto.Start(cmd, agentproto.Options{Timeout: 5 * time.Second, TestTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ep := playEpisode(p, exercise(t, 7), 0) // 80 steps of at least 50 ms: 4 s
	if !errors.Is(ep.Fault(), agentproto.ErrTestTimeout) || !strings.Contains(ep.Fault().Error(), "the test's time for the agent is over: 3s in all") {
		t.Errorf("fault %v; want the test's time to be over", ep.Fault())
	}
	if ep.Times().Actions < 2 {
		t.Errorf("%d answers before the test's time ran out; want several", ep.Times().Actions)
	}
}

// BenchmarkRoundTrip measures interactions a second across the protocol
// with trivial Python agents: anynt writes observe, the agent reads it and
// answers act, anynt reads it, and the environment moves. random is the
// agent of docs/protocol.md (json.loads and json.dumps a step); constant
// parses nothing, the floor of two pipe transfers and Python's line I/O.
func BenchmarkRoundTrip(b *testing.B) {
	for _, agent := range []string{"random", "constant"} {
		b.Run(agent, func(b *testing.B) {
			it := exercise(b, 7)
			p, err := agentproto.Start(python(b)+" testdata/"+agent+"_agent.py", agentproto.Options{Timeout: 10 * time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			b.ReportAllocs()
			ep := p.Episode(agentproto.Exercise{Name: it.Name, Steps: b.N, Seed: it.Seed})
			run := env.NewPlayer(it.Env).Episode(ep, 1)
			start := time.Now()
			b.ResetTimer()
			for range b.N {
				run.Interact()
			}
			b.StopTimer()
			if ep.Fault() != nil {
				b.Fatal(ep.Fault())
			}
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "interactions/s")
			run.End()
		})
	}
}

// The complete agent of docs/protocol.md is the random agent the tests
// run, word for word.
func TestDocsHoldTheRandomAgent(t *testing.T) {
	agent, err := os.ReadFile("testdata/random_agent.py")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```python\n"+string(agent)+"```") {
		t.Error("docs/protocol.md does not hold testdata/random_agent.py as it is")
	}
}

// start's length is the length of every observe of its episode, in every
// exercise of three Λ_one tests (21 environments of 3 to 9 cells).
func TestStartLengthInEveryExercise(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 3, "test")
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	p, err := agentproto.Start(python(t)+" testdata/echo_agent.py", agentproto.Options{Timeout: 10 * time.Second, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if ep := playEpisode(p, it, 0); ep.Fault() != nil {
			t.Fatal(ep.Fault())
		}
	}
	p.Close()
	starts, observes := 0, 0
	length := -1.0
	for _, l := range strings.Split(stderr.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) != nil {
			continue
		}
		switch m["type"] {
		case "start":
			starts++
			length, _ = m["length"].(float64)
		case "observe":
			observes++
			if obs := m["observation"].([]any); float64(len(obs)) != length {
				t.Fatalf("%s step %v: an observation of %d symbols; start said %v", items[starts-1].Name, m["step"], len(obs), length)
			}
		}
	}
	if starts != len(items) || observes == 0 {
		t.Errorf("%d starts, %d observes; want %d starts", starts, observes, len(items))
	}
}
