package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// batchRow is what an item's JSON object says that does not depend on
// the agent's response times, when it answers every step in time.
type batchRow struct {
	Kind   string    `json:"kind"`
	Agent  string    `json:"agent"`
	Batch  int       `json:"agent_batch"`
	Name   string    `json:"name"`
	Steps  int       `json:"interactions"`
	Score  float64   `json:"score"`
	Scores []float64 `json:"scores"`
	Values struct {
		Count       int     `json:"count"`
		Sum         float64 `json:"sum"`
		PerCycle    float64 `json:"per_cycle"`
		Diminishing float64 `json:"diminishing"`
	} `json:"values"`
	Times struct {
		Actions int `json:"actions"`
	} `json:"response_times"`
	Fault string `json:"fault"`
}

// batchItems reads the items of test --json's output.
func batchItems(t *testing.T, out string) []batchRow {
	t.Helper()
	var items []batchRow
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r batchRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if r.Kind == "item" {
			items = append(items, r)
		}
	}
	return items
}

// A deterministic agent (it draws only from each start's seed) takes the
// same items, in the same order, with the same scores, bit for bit,
// whether it takes them one at a time (anynt/1, random_agent.py) or in
// batches (random_batch_agent.py, whose slots draw as random_agent.py
// does), also with several episodes an item, which a slot plays one
// after another: each episode is read at its own end, so its times
// change no score, v̌‖τ included.
func TestAgentBatchScoresAsOneAtATime(t *testing.T) {
	take := func(agent string, batch int, args ...string) []batchRow {
		args = append([]string{"test", "--agent-cmd", python(t) + agents + agent, "--json", "--agent-batch", fmt.Sprint(batch)}, args...)
		out, errw, code := anynt(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: status %d: %s", args, code, errw)
		}
		items := batchItems(t, out)
		for i := range items {
			if want := map[bool]int{true: batch}[batch > 1]; items[i].Batch != want { // the report says it, above 1
				t.Errorf("%v: agent_batch %d; want %d", args, items[i].Batch, want)
			}
			items[i].Agent, items[i].Batch = "", 0 // random.py, random-batch.py
		}
		return items
	}
	for _, args := range [][]string{
		{"--tests", "3", "--seed", "5"},
		{"--tests", "2", "--seed", "9", "--episodes", "3"},
	} {
		one := take("random_agent.py", 1, args...)
		for _, k := range []int{1, 5, 16} {
			batched := take("random_batch_agent.py", k, args...)
			if !reflect.DeepEqual(one, batched) {
				t.Errorf("%v --agent-batch %d: the items differ from one at a time:\n%+v\n%+v", args, k, one, batched)
			}
		}
		if len(one) == 0 || one[0].Values.Count == 0 {
			t.Errorf("%v: no item played: %+v", args, one)
		}
	}
}

// A fault in a round is every item's in flight: with 2 slots and a fault
// at the 25th round, lambda-one:1/1 (20 steps) is over and keeps its
// outcome, lambda-one:1/2 (step 25) and lambda-one:1/3 (step 5, begun in
// the slot that 1/1 freed) are faulted with what they played, and the
// report covers those three, for the built-in agent too; the agent's
// standard error is quoted once.
func TestAgentBatchFaults(t *testing.T) {
	tests := []struct{ fault, says string }{
		{"count", `a malformed line: "actions" has 1 elements, the observe 2 slots`},
		{"range", "an illegal action: slot 0: the action 10 is out of range: there are 5 actions, 0 to 4"}, // the observe's last slot: 1/3's
		{"action", `a malformed line: an act with an "action" in a batch`},
		{"crash", "the agent exited or closed its output: exit status 3"},
		{"garbage", `a malformed line: not a JSON object; the line: "this is not JSON"`},
		{"hang", "no answer in time: 2s a message; the agent was killed"},
	}
	for _, tt := range tests {
		cmd := python(t) + agents + "faulty_batch.py " + tt.fault + " 25"
		// 2 s for each answer, which the hang runs out; the start is not
		// held to it: Python may start slowly on a loaded machine.
		out, errw, code := anynt(t, "", "test", "--agent", "random", "--agent-cmd", cmd, "--agent-batch", "2", "--tests", "1", "--json",
			"--agent-timeout", "2s", "--agent-start-timeout", "1h")
		if code != exitAgent {
			t.Errorf("%s: status %d; want %d: %s", tt.fault, code, exitAgent, errw)
		}
		for _, want := range []string{
			`agent "` + cmd + `" in lambda-one:1/2, episode 0, step 25 (slot 1; the fault ended the 2 items of its round): ` + tt.says,
			`agent "` + cmd + `" in lambda-one:1/3, episode 0, step 5 (slot 0; the fault ended the 2 items of its round): ` + tt.says,
		} {
			if !strings.Contains(errw, want) {
				t.Errorf("%s: the error lacks %q:\n%s", tt.fault, want, errw)
			}
		}
		if n := strings.Count(errw, "faulty_batch.py: committing"); n != 2 { // passed through, and quoted once
			t.Errorf("%s: the agent's standard error is there %d times; want 2:\n%s", tt.fault, n, errw)
		}
		played := map[string][]string{}
		for _, r := range batchItems(t, out) {
			played[r.Agent] = append(played[r.Agent], r.Name)
			if r.Agent != "faulty-batch" {
				continue
			}
			want := map[string]int{"lambda-one:1/1": 20, "lambda-one:1/2": 24, "lambda-one:1/3": 4}[r.Name]
			if (r.Fault != "") != (r.Name != "lambda-one:1/1") || r.Values.Count != want || r.Times.Actions != want {
				t.Errorf("%s: %s has fault %q, %d interactions, %d answers; want %d", tt.fault, r.Name, r.Fault, r.Values.Count, r.Times.Actions, want)
			}
		}
		want := "lambda-one:1/1 lambda-one:1/2 lambda-one:1/3"
		for _, agent := range []string{"faulty-batch", "random"} {
			if got := strings.Join(played[agent], " "); got != want {
				t.Errorf("%s: %s's items are %q; want %q", tt.fault, agent, got, want)
			}
		}
	}
}

// --on-fault continue starts a new process for the next items: an agent
// that crashes at every process's 25th round faults every item in flight
// then (all but lambda-one:1/1), and the test goes on to the end.
func TestAgentBatchOnFaultContinue(t *testing.T) {
	cmd := python(t) + agents + "faulty_batch.py crash 25"
	out, errw, code := anynt(t, "", "test", "--agent-cmd", cmd, "--agent-batch", "2", "--tests", "1", "--on-fault", "continue", "--json")
	if code != exitAgent {
		t.Fatalf("status %d: %s", code, errw)
	}
	var faulted []string
	items := batchItems(t, out)
	for _, r := range items {
		if r.Fault != "" {
			faulted = append(faulted, r.Name)
		}
	}
	if len(items) != 7 || strings.Join(faulted, " ") != "lambda-one:1/2 lambda-one:1/3 lambda-one:1/4 lambda-one:1/5 lambda-one:1/6 lambda-one:1/7" {
		t.Errorf("%d items, faulted: %v; want 7, all but the first faulted", len(items), faulted)
	}
	if n := strings.Count(errw, "exit status 3"); n != 6 {
		t.Errorf("%d faults reported; want 6:\n%s", n, errw)
	}
}

// An agent that does not accept batches in its hello (it answers as an
// agent of anynt/1), or accepts more than anynt offered, fails the
// handshake: no report, status 5, an error that says so.
func TestAgentBatchRefused(t *testing.T) {
	for fault, says := range map[string]string{
		"refuse": `at the handshake: a protocol version mismatch: the agent does not speak batches: anynt offered batches of up to 4 items (anynt/1.1) and its hello has no "batch"`,
		"many":   `at the handshake: a protocol version mismatch: its hello accepts a "batch" of 5; anynt offered batches of 1 to 4 items`,
	} {
		out, errw, code := anynt(t, "", "test", "--agent-cmd", python(t)+agents+"faulty_batch.py "+fault, "--agent-batch", "4", "--tests", "1")
		if code != exitAgent || out != "" || !strings.Contains(errw, says) {
			t.Errorf("%s: status %d, output %q, error %q; want %d saying %q", fault, code, out, errw, exitAgent, says)
		}
	}
}

func TestAgentBatchUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"--agent-batch", "4"}, "--agent-batch is a setting of --agent-cmd, which is not given"},
		{[]string{"--agent-cmd", "x", "--agent-batch", "0"}, "--agent-batch is 0; it must be 1 to 1024"},
		{[]string{"--agent-cmd", "x", "--agent-batch", "1025"}, "--agent-batch is 1025; it must be 1 to 1024"},
		{[]string{"--agent-cmd", "x", "--agent-batch", "4", "--adaptive"}, "means nothing to the adaptive test"},
	} {
		_, errw, code := anynt(t, "", append([]string{"test"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errw, tt.says) {
			t.Errorf("%v: status %d, %q; want %d saying %q", tt.args, code, errw, exitUsage, tt.says)
		}
	}
	if _, errw, code := anynt(t, "", "run", "--agent-batch", "4", "x.anynt"); code != exitUsage || !strings.Contains(errw, "unknown flag: --agent-batch") {
		t.Errorf("run --agent-batch: status %d, %q; want a usage error: run takes no batches", code, errw)
	}
}
