package main

import (
	"encoding/csv"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
)

// --bounds=false leaves out the items' scales: no optimum, no normalised
// score, and a ranking by mean score.
func TestTestWithoutBounds(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--agent", "random,oracle", "--tests", "1", "--bounds=false")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	if strings.Contains(out, "scale of each item") || strings.Contains(out, "normalised") || !strings.Contains(out, "ranking by mean score;") {
		t.Errorf("--bounds=false:\n%s", out)
	}
	js, errw, code := anynt(t, "", "test", "--agent", "random,oracle", "--tests", "1", "--bounds=false", "--json")
	if code != exitOK || strings.Contains(js, `"optimum"`) || strings.Contains(js, `"normalised"`) {
		t.Errorf("--bounds=false --json: status %d %s\n%s", code, errw, js)
	}
}

// The optimal agent that cannot plan (its budget shrunk to a few states)
// is a fault of its items in test and a failed run in run: exit status 5,
// what was measured written first, the fault named with its item.
func TestOptimalThatCannotPlanIsAFault(t *testing.T) {
	saved := agent.PlanBudget
	agent.PlanBudget = agent.Budget{States: 2, Work: 4}
	defer func() { agent.PlanBudget = saved }()
	out, errw, code := anynt(t, "", "test", "--agent", "random,optimal", "--tests", "1")
	if code != exitAgent || !strings.Contains(out, "faults (") || !strings.Contains(out, "summary over the items") ||
		!strings.Contains(errw, "optimal on lambda-one:1/1, episode 0: interaction 2 of 20: more than 4 of work") {
		t.Errorf("test: status %d, stderr %s\n%s", code, errw, out)
	}
	out, errw, code = anynt(t, "", "run", "--agent", "optimal", "--episodes", "3", "--steps", "50", "../../corpus/lambda-one/fixture-b.anynt")
	if code != exitAgent || !strings.Contains(out, "mean ") || !strings.Contains(errw, "--agent optimal failed in 3 of 3 episodes") {
		t.Errorf("run: status %d, stderr %s\n%s", code, errw, out)
	}
}

// Past its budget for an exact plan, optimal plans within a horizon, and
// every output says so: run's line, and in a test the scale's "≥" and
// "±", the key's lines, JSON's optimum_horizon, random_plays, random_se
// and horizon, and CSV's columns of the same names; nothing fails.
func TestPlansWithinAHorizonAreSaid(t *testing.T) {
	savedPlan, savedScale := agent.PlanBudget, exam.ScaleBudget
	agent.PlanBudget, exam.ScaleBudget = agent.Budget{States: 1 << 16, Work: 1000}, agent.Budget{States: 1 << 16, Work: 1000}
	defer func() { agent.PlanBudget, exam.ScaleBudget = savedPlan, savedScale }()
	out, errw, code := anynt(t, "", "run", "--agent", "optimal", "--episodes", "3", "--steps", "80", "../../corpus/lambda-one/fixture-b.anynt")
	if code != exitOK || !strings.Contains(out, "optimal planned 3 episodes of 3 within a horizon (") {
		t.Errorf("run: status %d, stderr %s\n%s", code, errw, out)
	}
	js, errw, code := anynt(t, "", "run", "--agent", "optimal", "--episodes", "3", "--steps", "80", "--json", "../../corpus/lambda-one/fixture-b.anynt")
	if code != exitOK || !strings.Contains(js, `"horizon_episodes":3,"horizon":`) {
		t.Errorf("run --json: status %d, stderr %s\n%s", code, errw, js)
	}
	out, errw, code = anynt(t, "", "test", "--agent", "random,optimal", "--tests", "1")
	for _, want := range []string{"≥ optimum (horizon H):", "optimal planned ", " within a horizon (", "(horizon ", " ±0."} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("test: status %d, stderr %s; no %q in\n%s", code, errw, want, out)
		}
	}
	js, _, code = anynt(t, "", "test", "--agent", "random,optimal", "--tests", "1", "--json")
	for _, want := range []string{`"optimum_horizon":`, `"random_plays":32,"random_se":`, `"horizon":`} {
		if code != exitOK || !strings.Contains(js, want) {
			t.Errorf("test --json: status %d; no %s in\n%s", code, want, js)
		}
	}
	table, _, code := anynt(t, "", "test", "--agent", "random,optimal", "--tests", "1", "--csv")
	rows, err := csv.NewReader(strings.NewReader(table)).ReadAll()
	if code != exitOK || err != nil {
		t.Fatalf("test --csv: status %d, %v", code, err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	last := rows[len(rows)-1] // optimal on the last item, the largest
	if last[col["agent"]] != "optimal" || last[col["optimum_horizon"]] == "" || last[col["random_plays"]] != "32" ||
		last[col["random_se"]] == "" || last[col["horizon"]] == "" {
		t.Errorf("test --csv: %v\n%v", rows[0], last)
	}
}
