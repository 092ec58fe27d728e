package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// anynt test takes the learners by spec, a learner's settings after a
// colon, comma-separated or in repeated --agent flags: each is one agent,
// named in the JSON by its spec as given, with every setting (defaults
// included) under agent_settings; a bad setting is a usage error naming
// the key, its value and its range.
func TestLearnerSpecsEndToEnd(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--agent", "qlambda", "--agent", "sarsalambda:lambda=0.5,alpha=0.2,freq",
		"--agent", "hlq:gamma=0.8", "--tests", "1", "--seed", "1", "--json")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	want := map[string]map[string]float64{
		"qlambda":                          {"alpha": 0.5, "lambda": 0.5, "epsilon": 0.04, "gamma": 0.6, "q0": 0},
		"sarsalambda:lambda=0.5,alpha=0.2": {"alpha": 0.2, "lambda": 0.5, "epsilon": 0.04, "gamma": 0.6, "q0": 0},
		"freq":                             {"epsilon": 0.07},
		"hlq:gamma=0.8":                    {"lambda": 0.95, "epsilon": 0.04, "gamma": 0.8, "q0": 0},
	}
	seen := map[string]bool{}
	for line := range strings.Lines(out) {
		var s struct {
			Kind          string             `json:"kind"`
			Agent         string             `json:"agent"`
			AgentSettings map[string]float64 `json:"agent_settings"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if s.Kind != "summary" {
			continue
		}
		seen[s.Agent] = true
		if !reflect.DeepEqual(s.AgentSettings, want[s.Agent]) {
			t.Errorf("%s: agent_settings %v, want %v", s.Agent, s.AgentSettings, want[s.Agent])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("summaries of %v, want the four agents of %v", seen, want)
	}
	out, errw, code = anynt(t, "", "run", corpusDir+"lambda-one/fixture-b.anynt", "--agent", "freq:epsilon=0.2", "--steps", "100", "--json")
	var r struct {
		Agent         string             `json:"agent"`
		AgentSettings map[string]float64 `json:"agent_settings"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != exitOK || err != nil || r.Agent != "freq:epsilon=0.2" || r.AgentSettings["epsilon"] != 0.2 {
		t.Errorf("run --json: status %d, %v, %+v (%s)", code, err, r, errw)
	}
	_, errw, code = anynt(t, "", "test", "--agent", "qlambda:alpha=2", "--tests", "1")
	if code != exitUsage || !strings.Contains(errw, "alpha (the learning rate α) is 2; it must be in (0, 1]") {
		t.Errorf("alpha=2: status %d, %q", code, errw)
	}
	_, errw, code = anynt(t, "", "test", "--agent", "hlq:alpha=0.1", "--tests", "1")
	if code != exitUsage || !strings.Contains(errw, `no setting "alpha" (the settings: defaults, lambda, epsilon, gamma, q0)`) {
		t.Errorf("hlq's alpha: status %d, %q", code, errw)
	}
}

// A key=value piece of a comma-separated --agent list belongs to the spec
// with settings before it; anything else is an agent.
func TestSplitSpecs(t *testing.T) {
	for in, want := range map[string][]string{
		"random,qlearning":                                       {"random", "qlearning"},
		"qlambda:alpha=0.1,lambda=0.9,random":                    {"qlambda:alpha=0.1,lambda=0.9", "random"},
		"hlq,sarsalambda:gamma=0.5,freq:epsilon=0.1,epsilon=0.2": {"hlq", "sarsalambda:gamma=0.5", "freq:epsilon=0.1,epsilon=0.2"},
		"random,alpha=0.1":                                       {"random", "alpha=0.1"}, // Lookup refuses the second
	} {
		if got := splitSpecs(in); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

// MC-AIXI-CTW's settings whose product is past the bound on an action's
// work are a usage error, in test as in run, that states the estimated
// cost, before anything runs.
func TestAnActionsWorkIsBounded(t *testing.T) {
	const spec = "mc-aixi-ctw:simulations=100000,horizon=100,depth=256"
	for _, args := range [][]string{
		{"test", "--agent", spec, "--tests", "1"},
		{"run", corpusDir + "lambda-one/fixture-b.anynt", "--agent", spec},
	} {
		_, errw, code := anynt(t, "", args...)
		if code != exitUsage || !strings.Contains(errw, "= 2570000000 node visits an action for each percept bit, an estimated 53 min of CPU an action") {
			t.Errorf("%s: status %d, %q", args[0], code, errw)
		}
	}
}
