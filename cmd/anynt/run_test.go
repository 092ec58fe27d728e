package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRunJSONAndDeterminism(t *testing.T) {
	args := []string{"run", corpusDir + "lambda-one/fixture-b.anynt", "--agent", "qlearning", "--episodes", "4", "--steps", "500", "--seed", "9", "--json"}
	first, _, code := anynt(t, "", args...)
	second, _, _ := anynt(t, "", args...)
	if code != exitOK || first != second {
		t.Fatalf("status %d; two runs:\n%s\n%s", code, first, second)
	}
	var r runOutcome
	if err := json.Unmarshal([]byte(first), &r); err != nil {
		t.Fatal(err)
	}
	if r.Episodes != 4 || r.Steps != 500 || r.Agent != "qlearning" || r.Seed != 9 || len(r.Scores) != 4 || r.CI95 == nil || r.CI95[0] > r.Mean || r.CI95[1] < r.Mean {
		t.Errorf("unexpected outcome %+v", r)
	}
}

// run says when behaviours were stopped by their bounds, in text and in
// --json: here Good/Evil's "-> r" never halts.
func TestRunReportsBounds(t *testing.T) {
	file := writeFile(t, "runaway.anynt", "actions s r\nspace thesis r+:r+\ngoodevil {\n\t-> r\n}\nset max-steps 5\nset garbage off\n")
	out, _, code := anynt(t, "", "run", file, "--episodes", "2", "--steps", "10")
	if want := "bounds: Good/Evil hit its step bound in 40 of 40 runs\n"; code != exitOK || !strings.Contains(out, want) {
		t.Errorf("status %d, output %q lacks %q", code, out, want)
	}
	out, _, _ = anynt(t, "", "run", file, "--episodes", "2", "--steps", "10", "--json")
	var r runOutcome
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if want := []boundHit{{Behaviour: "Good/Evil", Runs: 40, StepLimit: 40}}; len(r.Bounds) != 1 || r.Bounds[0] != want[0] {
		t.Errorf("bounds %+v, want %+v", r.Bounds, want)
	}
}
