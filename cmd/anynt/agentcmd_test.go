package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The Python agents of these tests live with the protocol's own tests.
const agents = "../../agentproto/testdata/"

// python is the command that runs the test agents; the tests need it and
// fail, rather than skip, without it (CI installs it).
func python(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatal("python3 is not on the PATH: the --agent-cmd tests run real Python agents (install CPython 3)")
	}
	return "python3 "
}

// jsonRow is what these tests read of test --json's objects.
type jsonRow struct {
	Kind     string  `json:"kind"`
	Agent    string  `json:"agent"`
	Command  string  `json:"agent_cmd"`
	Name     string  `json:"name"`
	Steps    int     `json:"interactions"`
	Score    float64 `json:"score"`
	N        int     `json:"n"`
	Mean     float64 `json:"mean"`
	CI95     [2]float64
	Settings struct {
		Score string `json:"score"`
	} `json:"settings"`
	Values struct {
		Count       int     `json:"count"`
		PerCycle    float64 `json:"per_cycle"`
		Diminishing float64 `json:"diminishing"`
		Sum         float64 `json:"sum"`
	} `json:"values"`
	Times *struct {
		Actions int     `json:"actions"`
		Mean    float64 `json:"mean_seconds"`
		Max     float64 `json:"max_seconds"`
	} `json:"response_times"`
	Fault  string `json:"fault"`
	Faults *int   `json:"faults"`
}

func readRows(t *testing.T, out string) []jsonRow {
	t.Helper()
	var rows []jsonRow
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var r jsonRow
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		rows = append(rows, r)
	}
	return rows
}

// A random agent and a Q-learning agent written in Python from
// docs/protocol.md alone take the whole Λ_one test (20 tests of 7
// exercises) beside the built-in Q-learning; their items carry measured
// response times and v̌‖τ, and the Python Q-learning scores as the Go one
// does (its mean inside the Go one's 95% interval).
func TestAgentCmdTakesTheWholeTest(t *testing.T) {
	for _, tt := range []struct{ script, name string }{{"random_agent.py", "random.py"}, {"qlearning_agent.py", "qlearning.py"}} {
		cmd := python(t) + agents + tt.script
		out, errw, code := anynt(t, "", "test", "--agent", "qlearning", "--agent-cmd", cmd, "--json", "--seed", "1")
		if code != exitOK {
			t.Fatalf("%s: status %d: %s", tt.script, code, errw)
		}
		var items int
		var goQ, pyQ jsonRow
		for _, r := range readRows(t, out) {
			switch {
			case r.Kind == "summary" && r.Agent == "qlearning":
				goQ = r
			case r.Kind == "summary":
				pyQ = r
				if r.Agent != tt.name || r.Command != cmd || r.N != 140 || r.Faults == nil || *r.Faults != 0 || r.Times == nil || r.Times.Actions != 7000 {
					t.Errorf("%s: summary %+v", tt.script, r)
				}
			case r.Agent == tt.name:
				items++
				if r.Settings.Score != "diminishing" || r.Score != r.Values.Diminishing || r.Values.Count != r.Steps {
					t.Errorf("%s: %s scored %v, v̌‖τ %v, %d of %d interactions", tt.script, r.Name, r.Score, r.Values.Diminishing, r.Values.Count, r.Steps)
				}
				if r.Times == nil || r.Times.Actions != r.Steps || !(r.Times.Mean > 0 && r.Times.Max >= r.Times.Mean) {
					t.Errorf("%s: %s has response times %+v; want %d measured", tt.script, r.Name, r.Times, r.Steps)
				}
			case r.Times != nil:
				t.Errorf("the built-in %s has response times %+v", r.Agent, r.Times)
			}
		}
		if items != 140 {
			t.Errorf("%s: %d items; want 140", tt.script, items)
		}
		if tt.script == "qlearning_agent.py" && !(pyQ.Mean >= goQ.CI95[0] && pyQ.Mean <= goQ.CI95[1]) {
			t.Errorf("Python's Q-learning scores %v, outside the Go Q-learning's interval %v", pyQ.Mean, goQ.CI95)
		}
	}
}

// The text report names the agent's command and gives its response times
// in a table of its own, which the HTML page holds too; the CSV gives them
// in every row of the agent, empty for the built-in one.
func TestAgentCmdText(t *testing.T) {
	cmd := python(t) + agents + "random_agent.py"
	page := filepath.Join(t.TempDir(), "report.html")
	out, errw, code := anynt(t, "", "test", "--agent", "random", "--agent-cmd", cmd, "--tests", "1", "--html", page)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	html, err := os.ReadFile(page)
	if err != nil || !strings.Contains(string(html), "agents outside anynt: response times") || !strings.Contains(string(html), "random.py") {
		t.Errorf("the page lacks the agent's response times (%v)", err)
	}
	csvOut, errw, code := anynt(t, "", "test", "--agent", "random", "--agent-cmd", cmd, "--tests", "1", "--csv")
	rows, err := csv.NewReader(strings.NewReader(csvOut)).ReadAll()
	if code != exitOK || err != nil || len(rows) != 15 {
		t.Fatalf("status %d, %d rows, %v: %s", code, len(rows), err, errw)
	}
	head := rows[0]
	col := func(name string) int { return slices.Index(head, name) }
	for _, row := range rows[1:] {
		outside := row[col("agent")] == "random.py"
		if (row[col("agent_cmd")] == cmd) != outside || (row[col("response_mean_seconds")] != "") != outside || row[col("fault")] != "" {
			t.Errorf("row %v", row)
		}
	}
	for _, want := range []string{
		`agents random, random.py (--agent-cmd "` + cmd + `")`,
		"agents outside anynt: response times, from writing observe to reading act",
		"random.py  " + cmd + "  350      ",
		"paired differences against random",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

// One seed gives one set of scores to a deterministic agent (it seeds its
// random choices from start's seed); the response times differ.
func TestAgentCmdIsReproducible(t *testing.T) {
	cmd := python(t) + agents + "qlearning_agent.py"
	run := func() []jsonRow {
		out, errw, code := anynt(t, "", "test", "--agent-cmd", cmd, "--tests", "3", "--seed", "7", "--json")
		if code != exitOK {
			t.Fatalf("status %d: %s", code, errw)
		}
		return readRows(t, out)
	}
	a, b := run(), run()
	if len(a) != len(b) || len(a) != 22 {
		t.Fatalf("%d and %d rows; want 21 items and a summary each time", len(a), len(b))
	}
	for i := range a {
		if a[i].Score != b[i].Score || a[i].Values != b[i].Values || a[i].Mean != b[i].Mean {
			t.Errorf("row %d: %+v, then %+v", i, a[i], b[i])
		}
	}
}

// Each kind of fault, at step 5 of the third exercise, ends the test with
// exit status 5 and an error that quotes it, and the report keeps what was
// measured: the first two exercises whole and the third up to the fault,
// for the built-in agent too (they are compared on the same items).
func TestAgentCmdFaults(t *testing.T) {
	tests := []struct{ fault, says string }{
		{"hang", "no answer in time: 2s a message; the agent was killed"},
		{"crash", "the agent exited or closed its output: exit status 3"},
		{"garbage", `a malformed line: not a JSON object; the line: "this is not JSON"`},
		{"range", "an illegal action: the action"},
		{"error", `the agent sent an error: "out of ideas"`},
	}
	for _, tt := range tests {
		cmd := python(t) + agents + "faulty.py " + tt.fault + " 3 5"
		args := []string{"test", "--agent", "random", "--agent-cmd", cmd, "--tests", "1", "--json"}
		if tt.fault == "hang" {
			// 2 s for each answer; the start is not held to it: Python may
			// start slowly on a loaded machine.
			args = append(args, "--agent-timeout", "2s", "--agent-start-timeout", "1h")
		}
		out, errw, code := anynt(t, "", args...)
		if code != exitAgent {
			t.Errorf("%s: status %d; want %d: %s", tt.fault, code, exitAgent, errw)
		}
		for _, want := range []string{`agent "` + cmd + `" in lambda-one:1/3, episode 0, step 5: ` + tt.says, "faulty.py: committing " + tt.fault} {
			if !strings.Contains(errw, want) {
				t.Errorf("%s: the error lacks %q:\n%s", tt.fault, want, errw)
			}
		}
		items := map[string][]string{}
		for _, r := range readRows(t, out) {
			if r.Kind != "item" {
				continue
			}
			items[r.Agent] = append(items[r.Agent], r.Name)
			if r.Agent == "faulty" {
				faulted := r.Name == "lambda-one:1/3"
				if (r.Fault != "") != faulted || (faulted && (r.Times.Actions != 4 || r.Values.Count != 4)) {
					t.Errorf("%s: %s has fault %q, %+v answers, %d interactions", tt.fault, r.Name, r.Fault, r.Times, r.Values.Count)
				}
			}
		}
		want := "lambda-one:1/1 lambda-one:1/2 lambda-one:1/3"
		if got := strings.Join(items["faulty"], " "); got != want {
			t.Errorf("%s: the agent's items are %q; want %q", tt.fault, got, want)
		}
		if got := strings.Join(items["random"], " "); got != want {
			t.Errorf("%s: random's items are %q; want %q", tt.fault, got, want)
		}
	}
}

// --on-fault continue starts a new process for each next item: an agent
// that crashes in every exercise is faulted in all 7, and the test ends
// with status 5 after the whole report.
func TestAgentCmdOnFaultContinue(t *testing.T) {
	cmd := python(t) + agents + "faulty.py crash 1 5"
	out, errw, code := anynt(t, "", "test", "--agent-cmd", cmd, "--tests", "1", "--on-fault", "continue")
	if code != exitAgent {
		t.Fatalf("status %d: %s", code, errw)
	}
	if n := strings.Count(errw, "exit status 3"); n != 7 {
		t.Errorf("%d faults reported; want 7:\n%s", n, errw)
	}
	if !strings.Contains(out, "faults (a faulted item keeps the interactions done before its fault)") ||
		strings.Count(out, "+0.0000  fault\n") != 7 || strings.Count(out, "step 5: the agent exited or closed its output: exit status 3\n") != 7 {
		t.Errorf("the report does not show 7 faulted items:\n%s", out)
	}
}

// An agent that speaks another version is refused at the handshake: no
// report, status 5.
func TestAgentCmdVersionMismatch(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--agent-cmd", python(t)+agents+"faulty.py version", "--tests", "1")
	if code != exitAgent || out != "" || !strings.Contains(errw, `at the handshake: a protocol version mismatch: the agent speaks "anynt/2", anynt speaks "anynt/1.1"`) {
		t.Errorf("status %d, output %q, error %q", code, out, errw)
	}
}

func TestAgentCmdUsage(t *testing.T) {
	tests := []struct {
		args []string
		says string
	}{
		{[]string{"--agent-timeout", "1s"}, "--agent-timeout is a setting of --agent-cmd, which is not given"},
		{[]string{"--on-fault", "continue"}, "--on-fault is a setting of --agent-cmd"},
		{[]string{"--agent-cmd", "python3 'agent.py"}, "the quote ' is not closed"},
		{[]string{"--agent-cmd", " "}, "the command is empty"},
		{[]string{"--agent-cmd", "x", "--on-fault", "retry"}, `--on-fault is "retry"; it must be stop or continue`},
		{[]string{"--agent-cmd", "x", "--agent-timeout", "0s"}, "--agent-timeout is 0s; it must be above 0"},
		{[]string{"--agent-cmd", "x", "--agent-start-timeout", "0s"}, "--agent-start-timeout is 0s; it must be above 0"},
		{[]string{"--agent-start-timeout", "1m"}, "--agent-start-timeout is a setting of --agent-cmd, which is not given"},
		{[]string{"--agent-cmd", "x", "--adaptive"}, "--agent-cmd means nothing to the adaptive test"},
	}
	for _, tt := range tests {
		_, errw, code := anynt(t, "", append([]string{"test"}, tt.args...)...)
		if code != exitUsage || !strings.Contains(errw, tt.says) {
			t.Errorf("%v: status %d, %q; want %d saying %q", tt.args, code, errw, exitUsage, tt.says)
		}
	}
}

// Given no --tau, an agent outside anynt is read at each episode's own
// end, as a built-in agent keeping its pace is: with 6 episodes an item,
// the Python Q-learning's default score v̌‖τ is its per-cycle payoff v‖τ
// on every item, as the built-in one's is, and the item's τ is the mean
// of its episodes' ends, well below the pace's 300 s.
func TestAgentCmdEpisodesAreReadAtTheirOwnEnds(t *testing.T) {
	cmd := python(t) + agents + "qlearning_agent.py"
	out, errw, code := anynt(t, "", "test", "--protocol", "battery", "--steps", "300", "--episodes", "6", "--seed", "7",
		"--bounds=false", "--csv", "--agent", "qlearning", "--agent-cmd", cmd,
		"../../corpus/lambda-one", "../../corpus/gallery/beacon.anynt", "../../corpus/gallery/lever.anynt")
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != exitOK || err != nil || len(rows) != 7 {
		t.Fatalf("status %d, %d rows, %v: %s", code, len(rows), err, errw)
	}
	col := func(name string) int { return slices.Index(rows[0], name) }
	for _, row := range rows[1:] {
		if row[col("score")] != row[col("per_cycle")] || row[col("score")] != row[col("diminishing")] {
			t.Errorf("%s on %s: score %s, v‖τ %s, v̌‖τ %s; want them equal", row[col("agent")], row[col("name")],
				row[col("score")], row[col("per_cycle")], row[col("diminishing")])
		}
		if outside := row[col("agent")] == "qlearning.py"; outside == (row[col("tau")] == "300") {
			t.Errorf("%s on %s: τ %s", row[col("agent")], row[col("name")], row[col("tau")])
		}
	}
}
