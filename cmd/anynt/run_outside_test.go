package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// run --agent-cmd plays the episodes through the agent: the same seed
// gives the same scores, the answers are timed, and a fault ends the run
// with status 5 after the output, the faulted episode scored over all its
// interactions.
func TestRunAgentCmd(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	runOnce := func(cmd string) (runOutcome, string, int) {
		out, errw, code := anynt(t, "", "run", file, "--agent-cmd", cmd, "--episodes", "3", "--steps", "50", "--seed", "4", "--json")
		var o runOutcome
		if err := json.Unmarshal([]byte(out), &o); err != nil {
			t.Fatalf("%v: %q, %s", err, out, errw)
		}
		return o, errw, code
	}
	cmd := python(t) + agents + "qlearning_agent.py"
	a, errw, code := runOnce(cmd)
	if code != exitOK || a.Agent != "qlearning.py" || a.Command != cmd || len(a.Scores) != 3 || a.Times == nil || a.Times.Actions != 150 || a.Faults != nil {
		t.Fatalf("status %d, %+v: %s", code, a, errw)
	}
	if b, _, _ := runOnce(cmd); !reflect.DeepEqual(a.Scores, b.Scores) {
		t.Errorf("one seed, two sets of scores: %v and %v", a.Scores, b.Scores)
	}
	f, errw, code := runOnce(python(t) + agents + "faulty.py crash 2 10")
	if code != exitAgent || len(f.Scores) != 2 || f.Times.Actions != 59 || len(f.Faults) != 1 ||
		!strings.Contains(errw, "omega1-blocker.anynt, episode 1, step 10: the agent exited or closed its output: exit status 3") {
		t.Errorf("status %d, %+v: %s", code, f, errw)
	}
}

// --agent-cmd repeated compares several agents outside anynt on the same
// items: the same program twice gets the same scores under two names (it
// seeds itself from start's seed), and a paired difference of 0.
func TestSeveralAgentCmds(t *testing.T) {
	cmd := python(t) + agents + "random_agent.py"
	out, errw, code := anynt(t, "", "test", "--agent-cmd", cmd, "--agent-cmd", cmd, "--tests", "2", "--json")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	scores := map[string][]float64{}
	var paired bool
	for _, r := range readRows(t, out) {
		if r.Kind == "item" {
			scores[r.Agent] = append(scores[r.Agent], r.Score)
		}
		if r.Kind == "summary" && r.Agent == "agent-cmd:random.py" {
			paired = strings.Contains(out, `"paired":{"against":"random.py","n":14,"mean_difference":0`)
		}
	}
	if len(scores) != 2 || len(scores["random.py"]) != 14 || !reflect.DeepEqual(scores["random.py"], scores["agent-cmd:random.py"]) || !paired {
		t.Errorf("scores %v, paired %v:\n%s", scores, paired, out)
	}
	_, errw, code = anynt(t, "", "run", corpusDir+"thesis/omega1-blocker.anynt", "--agent-cmd", cmd, "--agent-cmd", cmd)
	if code != exitUsage || !strings.Contains(errw, "run takes one agent") {
		t.Errorf("run with two agents: status %d, %s", code, errw)
	}
}

// An agent too slow for τ plays fewer interactions than the item's steps:
// each item says how many of its episodes τ cut, and so does the summary
// and the text report, which does not count them as stopped.
func TestAgentCmdEpisodesCutByTauAreFlagged(t *testing.T) {
	slow := python(t) + `-c 'import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello": print(json.dumps({"type": "hello", "protocol": "anynt/1", "name": "slow"}), flush=True)
    if m["type"] == "observe":
        time.sleep(0.01)
        print(json.dumps({"type": "act", "action": 0}), flush=True)'`
	out, errw, code := anynt(t, "", "test", "--agent-cmd", slow, "--tests", "1", "--tau", "0.1", "--json")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var o struct {
			Kind   string `json:"kind"`
			Name   string `json:"name"`
			Steps  int    `json:"interactions"`
			Values struct {
				Count int `json:"count"`
			} `json:"values"`
			Times struct {
				Cut *int `json:"cut_by_tau"`
			} `json:"response_times"`
		}
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		want := 1 // every item: 20 to 80 steps of over 10 ms, τ 0.1 s
		if o.Kind == "summary" {
			want = 7
		} else if o.Values.Count >= o.Steps {
			t.Errorf("%s: %d of %d interactions in 0.1 s at 10 ms each", o.Name, o.Values.Count, o.Steps)
		}
		if o.Times.Cut == nil || *o.Times.Cut != want {
			t.Errorf("%s %s: cut_by_tau %v; want %d", o.Kind, o.Name, o.Times.Cut, want)
		}
	}
	text, _, _ := anynt(t, "", "test", "--agent-cmd", slow, "--tests", "1", "--tau", "0.1")
	if !strings.Contains(text, "episodes cut by τ") {
		t.Errorf("the text report does not say which episodes τ cut:\n%s", text)
	}
}
