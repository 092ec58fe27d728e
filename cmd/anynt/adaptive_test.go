package main

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/spf13/pflag"
)

func adaptiveExaminees(t *testing.T, names ...string) []exam.Examinee {
	t.Helper()
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

// adaptiveFlagsOf parses args with the adaptive flags registered.
func adaptiveFlagsOf(t *testing.T, args ...string) adaptiveFlags {
	t.Helper()
	fl := newAdaptiveFlags()
	f := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fl.register(defsOf(f))
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fl
}

func runAdaptiveTo(t *testing.T, fl adaptiveFlags, seed uint64, asJSON bool, names ...string) (string, error) {
	t.Helper()
	var out, errw bytes.Buffer
	form := adaptiveText
	if asJSON {
		form = adaptiveJSONLines
	}
	err := runAdaptive(&stdio{out: &out, err: &errw}, adaptiveExaminees(t, names...), fl, seed, form)
	return out.String(), err
}

func TestAdaptiveFlags(t *testing.T) {
	fl := adaptiveFlagsOf(t)
	if !reflect.DeepEqual(fl.settings, exam.DefaultAdaptive) {
		t.Errorf("defaults %+v, want exam.DefaultAdaptive", fl.settings)
	}
	fl = adaptiveFlagsOf(t, "--test-time", "900", "--first-time", "10", "--time-step", "3", "--max-time", "inf", "--up", "0.6", "--down", "0.1", "--ladder", "k-approx")
	want := exam.DefaultAdaptive
	want.Tau, want.First, want.Growth, want.Longest, want.Up, want.Down = 900, 10, 3, math.Inf(1), 0.6, 0.1
	if !reflect.DeepEqual(fl.settings, want) || fl.ladder != "k-approx" {
		t.Errorf("parsed %+v and ladder %s, want %+v and k-approx", fl.settings, fl.ladder, want)
	}
}

// The text names the version, the seed and every setting, then each
// agent's trajectory and final score; the same seed prints the same text.
func TestAdaptiveText(t *testing.T) {
	fl := adaptiveFlagsOf(t, "--test-time", "400")
	out, err := runAdaptiveTo(t, fl, 5, false, "random", "oracle")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"adaptive anytime test (anynt " + versionString() + "), seed 5: test time 400 s, environments of 20 s + 2 s each up to 150 s, up at 0.5, down below 0.25, ladder Λ_one's cells: levels 1-7, 3-9 cells, pace constant:1, payoff diminishing, lambda 0.9\n",
		"\nrandom\n", "\noracle\n",
		"step  level  cells  actions  K_approx  bits  start  time  interactions    score  estimate      se",
		"adaptive:5/1/1", "random: score ", "oracle: score ", " (standard error), 95% interval [", "], over 12 environments in 372 s of 400; mean level ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the text lacks %q:\n%s", want, out)
		}
	}
	again, _ := runAdaptiveTo(t, fl, 5, false, "random", "oracle")
	if again != out {
		t.Error("two runs of seed 5 print different text")
	}
}

// Every JSON line carries the version, the seed, the agent and the
// settings; an examinee's steps come first, then its result, whose score is
// its last step's estimate, inside its 95% interval; the first step's
// standard error is null.
func TestAdaptiveJSON(t *testing.T) {
	fl := adaptiveFlagsOf(t, "--test-time", "300")
	out, err := runAdaptiveTo(t, fl, 2, true, "follower", "qlearning")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var results []adaptiveResult
	var last adaptiveStep
	for i, line := range lines {
		var head struct {
			Version  string           `json:"version"`
			Kind     string           `json:"kind"`
			Agent    string           `json:"agent"`
			Seed     uint64           `json:"seed"`
			Settings adaptiveSettings `json:"settings"`
		}
		if err := json.Unmarshal([]byte(line), &head); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, line)
		}
		want := adaptiveSettings{300, 20, 2, nil, 0.5, 0.25, exam.LambdaOneLadder{}.String(), exam.MaxLevel, "constant:1", "diminishing", 0.9, nil}
		got := head.Settings
		if got.MaxTime == nil || *got.MaxTime != 150 {
			t.Errorf("line %d: max_time %v, want 150", i+1, got.MaxTime)
		}
		got.MaxTime = nil
		if head.Version != versionString() || head.Seed != 2 || got != want || head.Agent == "" {
			t.Errorf("line %d lacks the version, seed, agent or settings: %s", i+1, line)
		}
		switch head.Kind {
		case "adaptive-step":
			var st adaptiveStep
			json.Unmarshal([]byte(line), &st)
			if (st.Step == 1) != (st.SE == nil) || !strings.Contains(line, `"se":`) {
				t.Errorf("line %d: step %d with se %v", i+1, st.Step, st.SE)
			}
			last = st
		case "adaptive-result":
			var r adaptiveResult
			json.Unmarshal([]byte(line), &r)
			if r.Agent != last.Agent || r.Environments != last.Step || r.Score != last.Estimate || r.TimeUsed != last.Start+last.Time ||
				r.Low == nil || r.High == nil || !(*r.Low < r.Score && r.Score < *r.High) {
				t.Errorf("line %d: result %+v does not close its steps (last %+v)", i+1, r, last)
			}
			results = append(results, r)
		default:
			t.Errorf("line %d: kind %q", i+1, head.Kind)
		}
	}
	if len(results) != 2 || results[0].Agent != "follower" || results[1].Agent != "qlearning" {
		t.Errorf("results %+v, want follower's then qlearning's", results)
	}
}

// Settings out of range are usage errors that name what is wrong, before
// anything runs.
func TestAdaptiveRefusesBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--test-time", "0"}, "--adaptive: the test time is 0"},
		{[]string{"--first-time", "9000"}, "no environment would be given"},
		{[]string{"--time-step", "-2"}, "the time step is -2"},
		{[]string{"--up", "0.2", "--down", "0.3"}, "-1 ≤ down < up ≤ 1"},
		{[]string{"--max-time", "5"}, "the longest environment's time is 5 s"},
		{[]string{"--ladder", "bits"}, `--ladder: no ladder "bits"`},
	} {
		_, err := runAdaptiveTo(t, adaptiveFlagsOf(t, c.args...), 1, false, "random")
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want a usage error containing %q", c.args, err, c.want)
		}
	}
	fl := newAdaptiveFlags()
	fl.settings.Score = "best"
	if _, err := runAdaptiveTo(t, fl, 1, false, "random"); err == nil || !strings.Contains(err.Error(), `no payoff "best"`) {
		t.Errorf("an unknown payoff: %v", err)
	}
	if _, err := runAdaptiveTo(t, newAdaptiveFlags(), 1, false); exitCode(err) != exitUsage {
		t.Errorf("no agent: %v, want a usage error", err)
	}
}

// --max-time inf gives no cap: JSON writes it as null, CSV as inf; and
// --ladder k-approx climbs Λ_one's ladder by K_approx.
func TestAdaptiveNoCapAndTheKApproxLadder(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--adaptive", "--agent", "oracle", "--test-time", "300", "--max-time", "inf", "--ladder", "k-approx", "--json")
	if code != exitOK || !strings.Contains(out, `"max_time":null`) || !strings.Contains(out, `"ladder":"Λ_one's K_approx`) || !strings.Contains(out, `"environment":"adaptive-k:1/2/2"`) {
		t.Errorf("status %d (%s), no null max_time or K_approx ladder in\n%s", code, errw, out)
	}
	out, errw, code = anynt(t, "", "test", "--adaptive", "--agent", "oracle", "--test-time", "300", "--max-time", "inf", "--csv")
	if code != exitOK || !strings.Contains(out, ",max_time,") || !strings.Contains(out, ",20,2,inf,0.5,") {
		t.Errorf("status %d (%s), no inf max_time in\n%s", code, errw, out)
	}
	_, errw, code = anynt(t, "", "test", "--adaptive", "--agent", "oracle", "--test-time", "300", "--ladder", "k-approx", corpusDir+"paper")
	if code != exitUsage || !strings.Contains(errw, "FILEs and --generate cut a ladder from their pool") {
		t.Errorf("--ladder with a pool: status %d (%s), want a usage error", code, errw)
	}
}

// A pool whose rewards never reach --up (the class's trace rewards) leaves
// every examinee at level 1: the test says so on stderr, and says nothing
// when the thresholds suit the rewards or on Λ_one's ladder.
func TestAdaptiveWarnsWhenNoPayoffReachesUp(t *testing.T) {
	pool := []string{corpusDir + "paper", corpusDir + "thesis"}
	args := append([]string{"test", "--adaptive", "--agent", "random,oracle", "--test-time", "1000"}, pool...)
	out, errw, code := anynt(t, "", args...)
	if code != exitOK || !strings.Contains(errw, "warning: --adaptive: no payoff reached --up 0.5") || !strings.Contains(out, "mean level 1.00") {
		t.Errorf("status %d, stderr %q; want a warning, and the oracle at level 1 in\n%s", code, errw, out)
	}
	for _, quiet := range [][]string{
		append([]string{"test", "--adaptive", "--agent", "random,oracle", "--test-time", "1000", "--up", "0.1", "--down", "0.03"}, pool...),
		{"test", "--adaptive", "--agent", "random", "--test-time", "1000"},
	} {
		if _, errw, code := anynt(t, "", quiet...); code != exitOK || strings.Contains(errw, "warning") {
			t.Errorf("%v: status %d, stderr %q; want no warning", quiet, code, errw)
		}
	}
}

// The optimal agent that cannot plan stops its own adaptive test there:
// the others' results and its steps before are written, its fault is
// named, and the exit status is 5.
func TestAdaptiveOptimalThatCannotPlan(t *testing.T) {
	saved := agent.PlanBudget
	agent.PlanBudget = agent.Budget{States: 2, Work: 4}
	defer func() { agent.PlanBudget = saved }()
	out, errw, code := anynt(t, "", "test", "--adaptive", "--agent", "random,optimal", "--test-time", "500")
	if code != exitAgent || !strings.Contains(out, "random: score") || !strings.Contains(out, "optimal: its test stopped early: optimal on ") ||
		!strings.Contains(errw, "too many states to plan over") {
		t.Errorf("status %d, stderr %s\n%s", code, errw, out)
	}
	js, _, code := anynt(t, "", "test", "--adaptive", "--agent", "random,optimal", "--test-time", "500", "--json")
	if code != exitAgent || !strings.Contains(js, `"fault":"optimal on `) {
		t.Errorf("--json: status %d\n%s", code, js)
	}
}

// Past its budget for an exact plan, optimal plays the adaptive test's
// environments within a horizon, with no fault: each such step says so in
// its row and in JSON.
func TestAdaptiveOptimalWithinAHorizon(t *testing.T) {
	saved := agent.PlanBudget
	agent.PlanBudget = agent.Budget{States: 1 << 16, Work: 1000}
	defer func() { agent.PlanBudget = saved }()
	out, errw, code := anynt(t, "", "test", "--adaptive", "--agent", "optimal", "--test-time", "500")
	if code != exitOK || !regexp.MustCompile(`\d+ \(horizon \d+\)`).MatchString(out) {
		t.Errorf("status %d, stderr %s\n%s", code, errw, out)
	}
	js, _, code := anynt(t, "", "test", "--adaptive", "--agent", "optimal", "--test-time", "500", "--json")
	if code != exitOK || !regexp.MustCompile(`"stopped":false,"horizon":\d+,"score"`).MatchString(js) {
		t.Errorf("--json: status %d\n%s", code, js)
	}
	table, _, code := anynt(t, "", "test", "--adaptive", "--agent", "optimal", "--test-time", "500", "--csv")
	if code != exitOK || !strings.HasSuffix(strings.SplitN(table, "\n", 2)[0], ",se,horizon") || !regexp.MustCompile(`,false,[^,]*,[^,]*,[^,]*,\d+\n`).MatchString(table) {
		t.Errorf("--csv: status %d\n%s", code, table)
	}
}
