package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/anynt/anynt/agentproto"
)

// The Λ_one protocol with Q-learning prints the header, a row for each
// exercise, the summary with the figures of Insa-Cabrera et al. (2011)
// beside Q-learning's, and Table 2.
func TestTestLambdaOneQLearning(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--protocol", "lambda-one", "--agent", "qlearning", "--tests", "3", "--seed", "5")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	for _, want := range []string{
		"anynt " + versionString() + ": test lambda-one, seed 5, 3 tests, 21 items, agents qlearning (alpha 0.05, gamma 0.35, q0 2)",
		"settings: 1 episode an item; pace constant:1", "lambda 0.9; score diminishing",
		"test  exercise  name", "summary over the items", "Insa-Cabrera et al. 2011 §5, Table 2  140  +0.259           0.122", "-0.612 (0.002)",
		"payoffs of Hernández-Orallo 2010a at τ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	items, scales, _ := strings.Cut(out, "scale of each item")
	rows := regexp.MustCompile(`(?m)^[123] +[1-7] +lambda-one:[567]/[1-7] `).FindAllString(items, -1)
	if len(rows) != 21 {
		t.Errorf("%d exercise rows, want 21", len(rows))
	}
	// The scales: an optimum, random's expectation and qlearning's
	// normalised score for every item.
	scaled := regexp.MustCompile(`(?m)^[123] +[1-7] +lambda-one:[567]/[1-7] +\+[01]\.\d{4} +[-+]0\.\d{4} +[-+]\d\.\d{4} *$`).FindAllString(scales, -1)
	if len(scaled) != 21 {
		t.Errorf("%d rows of scales, want 21:\n%s", len(scaled), scales)
	}
	if strings.Contains(out, "paired differences") {
		t.Error("one agent has no paired differences")
	}
}

// On the paper's 20 tests, random's interval holds 0 and Q-learning is
// well above it (seed 1).
func TestTestRandomIsAtChance(t *testing.T) {
	out, _, code := anynt(t, "", "test", "--agent", "random,qlearning", "--json", "--seed", "1")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	var means = map[string][2]float64{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var o struct {
			Kind  string     `json:"kind"`
			Agent string     `json:"agent"`
			N     int        `json:"n"`
			CI95  [2]float64 `json:"ci95"`
		}
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		if o.Kind == "summary" {
			if o.N != 140 {
				t.Errorf("%s: n %d, want 140", o.Agent, o.N)
			}
			means[o.Agent] = o.CI95
		}
	}
	if ci := means["random"]; !(ci[0] < 0 && 0 < ci[1]) {
		t.Errorf("random's 95%% CI %v does not hold 0", ci)
	}
	if ci := means["qlearning"]; !(ci[0] > 0) {
		t.Errorf("qlearning's 95%% CI %v is not above 0", ci)
	}
}

// The same seed gives the same output, bit for bit, in every form, the
// HTML file included; another seed gives another.
func TestTestSameSeedSameOutput(t *testing.T) {
	dir := t.TempDir()
	for _, form := range [][]string{nil, {"--json"}, {"--csv"}} {
		var outs [2]string
		var pages [2][]byte
		for k := range outs {
			page := filepath.Join(dir, "r.html")
			args := append([]string{"test", "--agent", "random,qlearning", "--tests", "2", "--seed", "9", "--episodes", "2", "--html", page}, form...)
			out, errw, code := anynt(t, "", args...)
			if code != exitOK {
				t.Fatalf("%v: status %d: %s", form, code, errw)
			}
			b, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			outs[k], pages[k] = out, b
		}
		if outs[0] != outs[1] || !bytes.Equal(pages[0], pages[1]) {
			t.Errorf("%v: two runs of the same seed differ", form)
		}
		other, _, _ := anynt(t, "", append([]string{"test", "--agent", "random,qlearning", "--tests", "2", "--seed", "10", "--episodes", "2"}, form...)...)
		if other == outs[0] {
			t.Errorf("%v: seeds 9 and 10 print the same", form)
		}
	}
}

// --agent takes a comma list or repeats, to the same effect; the first
// agent is the paired differences' baseline.
func TestTestAgentList(t *testing.T) {
	comma, _, c1 := anynt(t, "", "test", "--agent", "random,oracle", "--tests", "1")
	repeated, _, c2 := anynt(t, "", "test", "--agent", "random", "--agent", "oracle", "--tests", "1")
	if c1 != exitOK || c2 != exitOK || comma != repeated {
		t.Errorf("statuses %d %d; outputs equal: %v", c1, c2, comma == repeated)
	}
	if !strings.Contains(comma, "paired differences against random") || !regexp.MustCompile(`(?m)^oracle +7 +\+0\.\d+`).MatchString(comma) {
		t.Errorf("no paired difference of oracle against random:\n%s", comma)
	}
}

func TestTestSettingsReachTheReport(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--agent", "qlearning", "--tests", "1", "--csv", "--episodes", "3",
		"--pace", "exponential:2", "--tau", "50", "--lambda", "0.5", "--score", "per-cycle", "--alpha", "0.1", "--gamma", "0.5", "--q0", "1")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) != 8 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	got := map[string]string{}
	for i, h := range rows[0] {
		got[h] = rows[1][i]
	}
	want := map[string]string{"episodes": "3", "pace": "exponential:2", "tau_setting": "50", "lambda": "0.5", "score_payoff": "per-cycle",
		"alpha": "0.1", "gamma": "0.5", "q0": "1", "tau": "50", "version": versionString(), "seed": "1"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("column %s is %q, want %q", k, got[k], v)
		}
	}
	if got["ci95_low"] == "" {
		t.Error("three episodes: no interval")
	}
	// Q-learning with other settings is not the paper's: no figures beside.
	text, _, _ := anynt(t, "", "test", "--agent", "qlearning", "--tests", "1", "--alpha", "0.1")
	if strings.Contains(text, "Insa-Cabrera et al. 2011 §5") || strings.Contains(text, "Insa-Cabrera et al. 2011: r (p)") {
		t.Error("the figures of Insa-Cabrera et al. 2011 printed for alpha 0.1")
	}
}

func TestTestUsageErrors(t *testing.T) {
	tests := []struct {
		args    []string
		message string
	}{
		{[]string{"--tests", "0"}, "--tests is 0; it must be from 1 to 1000"},
		{[]string{"--tests", "1001"}, "--tests is 1001"},
		{[]string{"--agent", "nobody"}, "--agent: no such agent: \"nobody\""},
		{[]string{"--agent", "random,random"}, "random is named twice"},
		{[]string{"--agent", "random", "--alpha", "0.1"}, "--alpha is a setting of qlearning"},
		{[]string{"--agent", "qlearning", "--alpha", "2"}, "alpha"},
		{[]string{"--pace", "sometimes:1"}, "--pace"},
		{[]string{"--pace", "uniform:2:1"}, "--pace"},
		{[]string{"--tau", "-1"}, "tau is -1"},
		{[]string{"--lambda", "1"}, "λ must lie in (0, 1)"},
		{[]string{"--score", "best"}, `no payoff "best"`},
		{[]string{"--episodes", "0"}, "episodes is 0"},
		{[]string{"--json", "--csv"}, "choose one"},
		{[]string{"--protocol", "iq"}, `no protocol "iq" (the protocols: battery, lambda-one)`},
		{[]string{"--tests", "150", "--episodes", "10000", "--agent", "random"}, "items × agents × episodes is 10500000"},
		{[]string{"extra"}, "files are for --protocol battery"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errw, code := anynt(t, "", append([]string{"test"}, tt.args...)...)
			if code != exitUsage || !strings.Contains(errw, tt.message) || out != "" {
				t.Errorf("status %d, stdout %q, stderr %q; want %d and %q", code, out, errw, exitUsage, tt.message)
			}
		})
	}
}

// An HTML file or an output that cannot be written exits 4; --quiet
// prints nothing but writes the file.
func TestTestOutputs(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	out, errw, code := anynt(t, "", "test", "--tests", "1", "--quiet", "--html", page)
	if code != exitOK || out != "" || errw != "" {
		t.Errorf("--quiet: status %d, stdout %q, stderr %q", code, out, errw)
	}
	if b, err := os.ReadFile(page); err != nil || !bytes.Contains(b, []byte("<svg")) {
		t.Errorf("--html wrote no plots: %v", err)
	}
	if _, errw, code := anynt(t, "", "test", "--tests", "1", "--html", filepath.Join(dir, "no", "such", "dir.html")); code != exitIO || !strings.Contains(errw, "no such file") {
		t.Errorf("an unwritable --html: status %d, %q", code, errw)
	}
	var errb bytes.Buffer
	if code := run([]string{"test", "--tests", "1"}, strings.NewReader(""), failingWriter{}, &errb); code != exitIO || !strings.Contains(errb.String(), "broken pipe") {
		t.Errorf("a failing standard output: status %d, %q", code, errb.String())
	}
}

// test --help's examples run.
func TestTestHelpExamples(t *testing.T) {
	out, _, code := anynt(t, "", "test", "--help")
	if code != exitOK || !strings.Contains(out, "anynt test --protocol lambda-one --agent qlearning --tests 20 --seed 1") ||
		!strings.Contains(out, "  lambda-one: the Λ_one of Insa-Cabrera et al. 2011") {
		t.Fatalf("status %d:\n%s", code, out)
	}
	examples := regexp.MustCompile(`(?m)^  anynt (test --.*)$`).FindAllStringSubmatch(out, -1)
	if len(examples) < 6 {
		t.Fatalf("%d examples in\n%s", len(examples), out)
	}
	dir := t.TempDir()
	for _, ex := range examples {
		line := strings.ReplaceAll(strings.TrimSuffix(ex[1], " > items.csv"), "report.html", filepath.Join(dir, "report.html"))
		args, err := agentproto.Split(strings.ReplaceAll(line, " corpus/", " "+corpusDir)) // as a shell would
		if err != nil {
			t.Fatal(err)
		}
		for i, a := range args {
			if a == "python3 my_agent.py" {
				args[i] = python(t) + agents + "random_agent.py"
			}
		}
		if _, errw, code := anynt(t, "", args...); code != exitOK {
			t.Errorf("%v: status %d, %s", args, code, errw)
		}
	}
}

// --adaptive gives the adaptive test with the command's agents and pace,
// and refuses what it does not read.
func TestTestAdaptive(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--adaptive", "--agent", "random,oracle", "--test-time", "600", "--pace", "0.5", "--seed", "3")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	for _, want := range []string{"adaptive anytime test", "seed 3: test time 600 s", "pace constant:0.5", "random: score", "oracle: score"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	out, errw, code = anynt(t, "", "test", "--adaptive", "--agent", "random", "--test-time", "200", corpusDir+"paper")
	if code != exitOK || !strings.Contains(out, "ladder a pool of 5 environments: levels 1-5 by description length") {
		t.Errorf("--adaptive on a folder: status %d (%s), no pool ladder in\n%s", code, errw, out)
	}
	out, errw, code = anynt(t, "", "test", "--adaptive", "--agent", "qlearning", "--alpha", "0.1", "--test-time", "200", "--json")
	if code != exitOK || !strings.Contains(out, `"qlearning":{"alpha":0.1,"gamma":0.35,"q0":2}`) {
		t.Errorf("--adaptive --json with Q-learning: status %d (%s), its settings missing from\n%s", code, errw, out)
	}
	out, errw, code = anynt(t, "", "test", "--adaptive", "--agent", "random,oracle", "--test-time", "200", "--csv")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != exitOK || err != nil || len(rows) < 3 || rows[0][0] != "version" || rows[1][0] != versionString() || rows[len(rows)-1][16] != "oracle" {
		t.Errorf("--adaptive --csv: status %d (%s), %v:\n%s", code, errw, err, out)
	}
	for _, row := range rows[1:] {
		if len(row) != len(rows[0]) {
			t.Errorf("a row of %d fields under a header of %d: %v", len(row), len(rows[0]), row)
		}
	}
	page := filepath.Join(t.TempDir(), "adaptive.html")
	if _, errw, code := anynt(t, "", "test", "--adaptive", "--agent", "random,oracle", "--test-time", "200", "--html", page); code != exitOK {
		t.Errorf("--adaptive --html: status %d (%s)", code, errw)
	}
	if b, err := os.ReadFile(page); err != nil || !strings.Contains(string(b), `<figure id="estimate">`) {
		t.Errorf("--adaptive --html wrote no page with the estimate's plot: %v", err)
	}
	for _, args := range [][]string{
		{"--adaptive", "--json", "--csv"},
		{"--adaptive", "--tests", "3"},
		{"--adaptive", "--quiet"},
		{"--adaptive", "--steps", "10"},
		{"--adaptive", "--pool", "5"},
		{"--adaptive", writeFile(t, "one.anynt", "actions s l r\nspace table {\n\t1 3 2\n\t2 1 3\n\t3 2 1\n}\ngoodevil pattern l\n")},
		{"--test-time", "100"},
		{"--protocol", "lambda-one", "--weighting", "universal"},
	} {
		if _, errw, code := anynt(t, "", append([]string{"test"}, args...)...); code != exitUsage {
			t.Errorf("test %v: status %d (%s), want %d", args, code, errw, exitUsage)
		}
	}
}
