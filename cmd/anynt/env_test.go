package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/internal/version"
)

// The example of check --help is true: environments and rule files share
// .anynt, and check takes each as its kind.
func TestCheckHelpExample(t *testing.T) {
	paper, err := filepath.Glob(corpusDir + "paper/*.anynt")
	if err != nil || len(paper) < 2 {
		t.Fatalf("corpus/paper: %d files, %v", len(paper), err)
	}
	args := append([]string{"check", corpusDir + "thesis/omega1-blocker.anynt"}, paper...)
	if _, errw, code := anynt(t, "", args...); code != exitOK {
		t.Errorf("status %d:\n%s", code, errw)
	}
}

func TestCheckTakesEachFileAsItsKind(t *testing.T) {
	out, _, code := anynt(t, "", "check", "-v", corpusDir+"paper/example3-agent.anynt", corpusDir+"paper/example5.anynt")
	want := corpusDir + "paper/example3-agent.anynt: rule file\n" + corpusDir + "paper/example5.anynt: environment\n"
	if code != exitOK || out != want {
		t.Errorf("status %d, -v printed\n%s\nwant\n%s", code, out, want)
	}
	// A rule file is compiled, and its errors are positioned.
	bad := writeFile(t, "bad.anynt", "a -> b\nc -> χ\n")
	if _, errw, code := anynt(t, "", "check", bad); code != exitFile || !strings.Contains(errw, bad+":2:6:") {
		t.Errorf("a broken rule file: status %d, %q", code, errw)
	}
	// A file with an object block but no actions is an environment that
	// lacks them.
	partial := writeFile(t, "partial.anynt", "object ω1 {\n\t->. s\n}\n")
	if _, errw, code := anynt(t, "", "check", partial); code != exitFile || !strings.Contains(errw, "an environment declares its actions") {
		t.Errorf("an environment without actions: status %d, %q", code, errw)
	}
}

// check --classic reads classic rule files: the corpus's pass, and a
// malformed line is reported at its position.
func TestCheckClassic(t *testing.T) {
	files, err := filepath.Glob(corpusDir + "classic/*.markov")
	if err != nil || len(files) == 0 {
		t.Fatalf("classic corpus: %d files, %v", len(files), err)
	}
	if _, errw, code := anynt(t, "", append([]string{"check", "--classic"}, files...)...); code != exitOK {
		t.Errorf("check --classic on the classic corpus: status %d, %q", code, errw)
	}
	bad := writeFile(t, "bad.markov", "a -> b\nc->d\n")
	if _, errw, code := anynt(t, "", "check", "--classic", bad); code != exitFile || !strings.Contains(errw, bad+":2:1:") {
		t.Errorf("a malformed classic line: status %d, %q", code, errw)
	}
	if _, _, code := anynt(t, "", "check", "--classic", "--filters", bad); code != exitUsage {
		t.Errorf("--classic --filters: status %d, want %d", code, exitUsage)
	}
}

// Warnings are positioned, do not fail check, and fail it with --strict.
func TestCheckWarnings(t *testing.T) {
	file := writeFile(t, "marker.anynt", "actions s l r\nspace thesis lr+:l-r+:l-r\ngoodevil {\n\t->. R\n}\n")
	_, errw, code := anynt(t, "", "check", file)
	want := file + ":4:6: warning: Good/Evil writes R, the observation marker of action r, and never an action: did you mean r?"
	if code != exitOK || !strings.HasPrefix(errw, want) {
		t.Errorf("status %d, stderr %q; want status 0 and %q", code, errw, want)
	}
	if _, _, code := anynt(t, "", "check", "--strict", file); code != exitFile {
		t.Errorf("--strict: status %d, want %d", code, exitFile)
	}
	if _, errw, code := anynt(t, "", "check", "--strict", corpusDir+"thesis/omega1-blocker.anynt"); code != exitOK || errw != "" {
		t.Errorf("--strict on the ω1-blocker: status %d, %q", code, errw)
	}
}

// Commands that need an environment say what a rule file is and how to
// run it, and exit 2 (a usage error, docs/output.md): a battery or the
// adaptive test named a rule file too, beside an environment, the files'
// errors positioned.
func TestRuleFileGivenForAnEnvironment(t *testing.T) {
	file := corpusDir + "thesis/omega1.anynt"
	for _, cmd := range [][]string{{"run"}, {"dot"}, {"check", "--filters"}} {
		_, errw, code := anynt(t, "", append(cmd, file)...)
		if code != exitUsage || !strings.Contains(errw, "is a rule file") {
			t.Errorf("%s: status %d, %q", cmd, code, errw)
		}
	}
	env := corpusDir + "thesis/omega1-blocker.anynt"
	for _, cmd := range [][]string{{"test", "--protocol", "battery"}, {"test", "--adaptive"}} {
		_, errw, code := anynt(t, "", append(cmd, env, file)...)
		if want := file + ":1:1: a rule file (no environment statements such as actions), not an environment"; code != exitUsage || !strings.HasPrefix(errw, want) {
			t.Errorf("%s: status %d, %q; want %d and %q", cmd, code, errw, exitUsage, want)
		}
	}
	_, errw, code := anynt(t, "", "run", corpusDir+"thesis/omega1.anynt")
	if code != exitUsage || !strings.Contains(errw, "anynt markov") {
		t.Errorf("run: status %d, %q", code, errw)
	}
}

// Every flag that sizes a run is bounded, and an agent is looked up, with
// its settings checked, before anything runs: a usage error, never a crash.
func TestRunRefusesFlagsOutOfRange(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--episodes", "1000000000"}, "--episodes is 1000000000; it must be from 1 to 1000000"},
		{[]string{"--episodes", "0"}, "--episodes is 0"},
		{[]string{"--steps", "100000000"}, "--steps is 100000000"},
		{[]string{"--episodes", "1000000", "--steps", "1000000"}, "at most 10000000000"},
		{[]string{"--agent", "randon"}, `no such agent: "randon"`},
		{[]string{"--agent", "qlearning", "--alpha", "0"}, "alpha is 0; it must be in (0, 1]"},
		{[]string{"--agent", "qlearning", "--gamma", "1"}, "gamma is 1; it must be in [0, 1)"},
		{[]string{"--agent", "qlearning", "--q0", "+Inf"}, "q0 is +Inf; it must be finite"},
		{[]string{"--agent", "random", "--alpha", "0.5"}, "--alpha is a setting of qlearning; agent random has none"},
	}
	for _, tc := range tests {
		_, errw, code := anynt(t, "", append([]string{"run", file}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errw, tc.want) {
			t.Errorf("%v: status %d, %q; want %d and %q", tc.args, code, errw, exitUsage, tc.want)
		}
	}
	for _, args := range [][]string{{"--episodes", "2000000"}, {"--episodes", "1"}, {"--steps", "5000000"}} {
		// The filters' own ceilings, the same as enumerate's and evolve's.
		if _, errw, code := anynt(t, "", append([]string{"check", "--filters", file}, args...)...); code != exitUsage || !strings.Contains(errw, "the filters need 2 to 1000000 episodes and 1 to 1000000 steps") {
			t.Errorf("check --filters %v: status %d, %q", args, code, errw)
		}
	}
	if _, errw, code := anynt(t, "", "complexity", "--agent", "nobody", file); code != exitUsage || !strings.Contains(errw, "no such agent") {
		t.Errorf("complexity --agent nobody: status %d, %q", code, errw)
	}
}

// run says what the score means; one episode's interval is unavailable,
// not zero-wide; the JSON carries the version and the settings.
func TestRunOutput(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	out, _, code := anynt(t, "", "run", file, "--episodes", "1", "--steps", "20")
	if code != exitOK || !strings.Contains(out, "agent random, 1 episode of 20 interactions") || !strings.Contains(out, "95% CI n/a") || !strings.Contains(out, "from -1 to 1; a random agent scores 0 in expectation") {
		t.Errorf("status %d:\n%s", code, out)
	}
	out, _, _ = anynt(t, "", "run", file, "--episodes", "1", "--steps", "20", "--json", "--agent", "qlearning")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if ci, ok := r["ci95"]; !ok || ci != nil {
		t.Errorf("one episode: ci95 is %v, want null", ci)
	}
	if r["version"] != version.String() || r["qlearning"] == nil || r["episodes"] != 1.0 || r["file"] != file {
		t.Errorf("the JSON lacks the version or the settings: %s", out)
	}
	out, _, _ = anynt(t, "", "run", file, "--episodes", "3", "--steps", "20", "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if _, ok := r["ci95"].([]any); !ok {
		t.Errorf("three episodes: ci95 is %v", r["ci95"])
	}
}

func TestRunTraceHasAHeader(t *testing.T) {
	_, errw, code := anynt(t, "", "run", corpusDir+"thesis/omega1-blocker.anynt", "--episodes", "1", "--steps", "2", "--trace")
	lines := strings.Split(strings.TrimSpace(errw), "\n")
	if code != exitOK || len(lines) != 3 || lines[0] != "interaction\tobservation\taction\treward\tcells after the moves (π ⊕ ⊖ ω1)" {
		t.Errorf("status %d, trace:\n%s", code, errw)
	}
	if !strings.HasPrefix(lines[1], "1\t") || len(strings.Split(lines[1], "\t")) != 5 {
		t.Errorf("a trace line does not have the header's five columns: %q", lines[1])
	}
}

func TestVersion(t *testing.T) {
	out, _, code := anynt(t, "", "--version")
	if code != exitOK || !strings.Contains(out, version.String()) {
		t.Errorf("status %d, %q", code, out)
	}
	out, _, _ = anynt(t, "", "complexity", "--json", corpusDir+"thesis/omega1-blocker.anynt")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r["version"] != version.String() || r["code"] == nil || r["agent"] != "random" || r["seed"] != 1.0 {
		t.Errorf("complexity --json lacks the version or its settings: %s", out)
	}
}

// The progress line shows the rate and the time left, redraws at most ten
// times a second, and clears its line before other output.
func TestProgress(t *testing.T) {
	var b bytes.Buffer
	now := time.Unix(0, 0)
	p := startProgress(&b, "episodes", 100, func() time.Time { return now })
	now = now.Add(100 * time.Millisecond)
	p.update(1)
	if got, want := b.String(), "\r\x1b[K1/100 episodes"; got != want {
		t.Errorf("progress after 0.1 s %q, want %q: no rate yet", got, want)
	}
	b.Reset()
	now = now.Add(1900 * time.Millisecond)
	p.update(10)
	if got, want := b.String(), "\r\x1b[K10/100 episodes, 5.0/s, 18s left"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	b.Reset()
	now = now.Add(10 * time.Millisecond)
	p.update(11)
	if b.Len() != 0 {
		t.Errorf("redrawn after 10 ms: %q", b.String())
	}
	p.clear()
	if b.String() != "\r\x1b[K" {
		t.Errorf("clear wrote %q", b.String())
	}
	var none *progress // not a terminal: nothing is shown
	none.update(1)
	none.clear()
}
