package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

// anynt runs the command line in process and returns its outputs and exit
// status.
func anynt(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errw bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errw)
	return out.String(), errw.String(), code
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const corpusDir = "../../corpus/"

func TestMarkovClassicFromArgumentAndStdin(t *testing.T) {
	out, errw, code := anynt(t, "", "markov", "--classic", corpusDir+"classic/binary-to-unary.markov", "101")
	if code != exitOK || out != "|||||\n" {
		t.Errorf("argument input: got %q, status %d, stderr %q", out, code, errw)
	}
	out, _, code = anynt(t, "_1111*11111_\n", "markov", "--classic", corpusDir+"classic/ruleset4.markov")
	if code != exitOK || out != "11111111111111111111\n" {
		t.Errorf("standard input: got %q, status %d", out, code)
	}
}

func TestMarkovTraceNamesStepRulePositionAndString(t *testing.T) {
	_, errw, code := anynt(t, "", "markov", "--classic", "--trace", corpusDir+"classic/binary-to-unary.markov", "101")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	lines := strings.Split(strings.TrimSpace(errw), "\n")
	if len(lines) != 8 {
		t.Fatalf("want 8 trace lines, got %d:\n%s", len(lines), errw)
	}
	want := "1\trule 2 (" + corpusDir + "classic/binary-to-unary.markov:5:1)\t0|01"
	if lines[0] != want {
		t.Errorf("first trace line %q, want %q", lines[0], want)
	}
}

func TestMarkovJSON(t *testing.T) {
	out, _, code := anynt(t, "", "markov", "--json", "--trace", corpusDir+"thesis/space-generator.anynt", "")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	var got markovOutcome
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Output != "lr+:l-r+:l-r+:l-r+:l-r+:l-r" || got.Halt != "terminated" || got.Steps != 7 || got.Rule == nil || *got.Rule != 3 || len(got.Trace) != 7 {
		t.Errorf("unexpected outcome %+v", got)
	}
}

// Runaway algorithms stop at the limits with status 3, the string so far on
// standard output and the limit named on standard error.
func TestMarkovLimits(t *testing.T) {
	tests := []struct {
		name, rules string
		args        []string
		stdout      string
		message     string
		input       string // "a" if empty
	}{
		{"empty rule never terminates", "-> a\n", []string{"--max-steps", "5"}, "aaaaaa\n", "step limit", ""},
		{"doubling hits the length limit", "a -> aa\n", []string{"--max-len", "8"}, "aaaaaaaa\n", "length limit", ""},
		{"default limits", "a -> aa\n", nil, "", "length limit", ""},
		{"zero steps mean none", "a -> b\n", []string{"--max-steps", "0"}, "a\n", "step limit: 0 steps done", ""},
		{"an input longer than --max-len is not run", "a -> b\n", []string{"--max-len", "0"}, "a\n", "the input is longer than --max-len 0 symbols (it has 1): nothing was run", ""},
		{"exponential matching hits the work limit", strings.Repeat("[a] ", 16) + strings.Repeat("a ", 16) + "c -> b\n", []string{"--max-work", "1000"}, "", "work limit", strings.Repeat("a", 20) + "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, "runaway.anynt", tt.rules)
			input := "a"
			if tt.input != "" {
				input = tt.input
			}
			args := append(append([]string{"markov"}, tt.args...), file, input)
			out, errw, code := anynt(t, "", args...)
			if code != exitLimit {
				t.Errorf("status %d, want %d", code, exitLimit)
			}
			if tt.stdout != "" && out != tt.stdout {
				t.Errorf("stdout %q, want %q", out, tt.stdout)
			}
			if !strings.Contains(errw, tt.message) {
				t.Errorf("stderr %q does not name the %s", errw, tt.message)
			}
		})
	}
}

// A file with several mistakes gets all of them, each positioned, with the
// source line and a caret, and status 1.
func TestErrorsArePositioned(t *testing.T) {
	file := writeFile(t, "bad.anynt", "a -> b\nχ -> χ\n(a] -> b\n\\nope -> x\nc -> χ7\n")
	_, errw, code := anynt(t, "", "markov", file, "a")
	if code != exitFile {
		t.Fatalf("status %d, want %d", code, exitFile)
	}
	for _, want := range []string{
		file + ":2:6: χ on the right-hand side must carry a subscript",
		file + ":3:1: ( is closed by ] at 3:3",
		file + ":4:1: unknown escape \\nope",
		file + ":5:6: χ7 is not bound on the left-hand side",
		"\tc -> χ7\n\t     ^\n",
	} {
		if !strings.Contains(errw, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errw)
		}
	}
}

// The lines shown under errors come from one reading of each file: a
// file of n errors (together in a sorted list) is read once, not once an
// error, which for a large file of many errors would be quadratic. The
// next file is read on its own.
func TestErrorLinesReadEachFileOnce(t *testing.T) {
	one := writeFile(t, "one.anynt", "a -> b\nc -> d\n")
	two := writeFile(t, "two.anynt", "x -> y\n")
	var src sources
	if line, ok := src.line(lang.Pos{File: one, Line: 1, Col: 1}); !ok || line != "a -> b" {
		t.Fatalf("line 1 of one: %q, %t", line, ok)
	}
	if err := os.WriteFile(one, []byte("changed\nagain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if line, ok := src.line(lang.Pos{File: one, Line: 2, Col: 1}); !ok || line != "c -> d" {
		t.Errorf("line 2 of one: %q, %t; want the first reading's \"c -> d\"", line, ok)
	}
	if line, ok := src.line(lang.Pos{File: two, Line: 1, Col: 1}); !ok || line != "x -> y" {
		t.Errorf("line 1 of two: %q, %t", line, ok)
	}
	if _, ok := src.line(lang.Pos{File: filepath.Join(t.TempDir(), "none"), Line: 1, Col: 1}); ok {
		t.Error("a file that cannot be read gave a line")
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"markov"},
		{"markov", "--max-len", "1000000000000", corpusDir + "classic/binary-to-unary.markov", "1"},
		{"markov", "--max-steps", "-1", corpusDir + "classic/binary-to-unary.markov", "1"},
		{"markov", "--max-work", "1000000000000", corpusDir + "classic/binary-to-unary.markov", "1"},
		{"markov", "--no-such-flag", "x"},
		{"no-such-command"},
	} {
		if _, _, code := anynt(t, "", args...); code != exitUsage {
			t.Errorf("anynt %v: status %d, want %d", args, code, exitUsage)
		}
	}
}

// A file that cannot be read or written exits with status 4, not with the
// usage status, and the message names the file.
func TestIOErrorsHaveTheirOwnStatus(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.anynt")
	dir := t.TempDir()
	for _, args := range [][]string{
		{"markov", missing, "a"},
		{"markov", "--classic", missing, "a"},
		{"expand", missing},
		{"disasm", missing},
		{"fmt", missing},
		{"fmt", "-w", dir}, // a directory reads as an error
		{"check", missing},
	} {
		_, errw, code := anynt(t, "", args...)
		if code != exitIO || !strings.Contains(errw, args[len(args)-1]) {
			t.Errorf("anynt %v: status %d, want %d, and a message naming the file:\n%s", args, code, exitIO, errw)
		}
	}
	// fmt -w writes through writeSource; a file in a missing folder cannot
	// be written, even by root, which may write where permissions forbid.
	err := writeSource(filepath.Join(missing, "x.anynt"), []byte("a -> b\n"))
	if exitCode(err) != exitIO || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writeSource: %v, want status %d keeping the cause", err, exitIO)
	}
}

// A malformed line of a classic file is reported, positioned, with status
// 1, by every command that reads classic files, beside the errors of
// meaning the well-formed lines have.
func TestClassicSyntaxErrorsArePositioned(t *testing.T) {
	file := writeFile(t, "bad.markov", "# a comment\na->b\nc -> d\n")
	for _, args := range [][]string{
		{"markov", "--classic", file, "ab"},
		{"expand", "--classic", file},
		{"disasm", "--classic", file},
	} {
		out, errw, code := anynt(t, "", args...)
		want := file + ":2:1: no rule separator"
		if code != exitFile || out != "" || !strings.HasPrefix(errw, want) || !strings.Contains(errw, "\ta->b\n\t^\n") {
			t.Errorf("anynt %v: status %d, stdout %q, stderr:\n%s\nwant status %d and %q with the line", args, code, out, errw, exitFile, want)
		}
	}
}

// A '|' at the top level is an ordinary symbol and takes ^Δ like any other
// left-hand side element; the VM and the expansion agree on it.
func TestMarkedPipeRuns(t *testing.T) {
	file := writeFile(t, "pipe.anynt", "|^Δ -> a\na ->. ∇\n")
	out, errw, code := anynt(t, "", "markov", file, "|")
	if code != exitOK || out != "|\n" {
		t.Errorf("markov: %q, status %d, stderr %q; want | (stored, then recalled)", out, code, errw)
	}
	out, _, code = anynt(t, "", "expand", file)
	if code != exitOK || out != "|^Δ -> a\na ->. ∇\n" {
		t.Errorf("expand: %q, status %d", out, code)
	}
	plain := writeFile(t, "plain.anynt", out)
	if got, _, _ := anynt(t, "", "markov", plain, "x||y"); got != "xa|y\n" {
		t.Errorf("the expansion runs to %q, want xa|y", got)
	}
	if got, _, _ := anynt(t, "", "markov", file, "x||y"); got != "xa|y\n" {
		t.Errorf("the rule file runs to %q, want xa|y", got)
	}
}

// A UTF-8 byte-order mark at the start of a file is skipped, in both
// formats, and carets on the first line still point at the right column.
func TestByteOrderMarkIsAccepted(t *testing.T) {
	file := writeFile(t, "bom.anynt", "\uFEFFab -> c\n")
	if out, errw, code := anynt(t, "", "markov", file, "xab"); code != exitOK || out != "xc\n" {
		t.Errorf("markov: %q, status %d, stderr %q", out, code, errw)
	}
	classic := writeFile(t, "bom.markov", "\uFEFFab -> c\n")
	if out, errw, code := anynt(t, "", "markov", "--classic", classic, "xab"); code != exitOK || out != "xc\n" {
		t.Errorf("markov --classic: %q, status %d, stderr %q", out, code, errw)
	}
	bad := writeFile(t, "bad.anynt", "\uFEFFa . b -> c\n")
	_, errw, code := anynt(t, "", "markov", bad, "x")
	if code != exitFile || !strings.Contains(errw, ":1:3: '.' marks") || !strings.Contains(errw, "\ta . b -> c\n\t  ^\n") {
		t.Errorf("status %d, stderr:\n%s", code, errw)
	}
}

func TestExpandPrintsTheThesisFixture(t *testing.T) {
	out, _, code := anynt(t, "", "expand", "--alphabet", "A1 A2 π ⊙", corpusDir+"thesis/expansion.anynt")
	want := "A2A1π -> πA2\nA2A1⊙ -> ⊙A2\n⊙A1π -> π⊙\n⊙A1⊙ -> ⊙⊙\nA1π -> π\nA1⊙ -> ⊙\n"
	if code != exitOK || out != want {
		t.Errorf("status %d, got:\n%s\nwant:\n%s", code, out, want)
	}
}

func TestFmt(t *testing.T) {
	file := writeFile(t, "messy.anynt", "# header\n  S(L|R)^\\Delta   →   S\n\\pi [\\odot] \\omega_1 ->   \\nabla Φ\n")
	out, _, code := anynt(t, "", "fmt", file)
	want := "# header\nS (L|R)^Δ -> S\nπ [⊙] ω1 -> ∇ Φ\n"
	if code != exitOK || out != want {
		t.Fatalf("status %d, got:\n%s\nwant:\n%s", code, out, want)
	}
	if _, _, code := anynt(t, "", "fmt", "--check", file); code != exitFile {
		t.Errorf("--check on an unformatted file: status %d, want %d", code, exitFile)
	}
	if _, _, code := anynt(t, "", "fmt", "-w", file); code != exitOK {
		t.Fatalf("-w: status %d", code)
	}
	if got, _ := os.ReadFile(file); string(got) != want {
		t.Errorf("-w wrote:\n%s", got)
	}
	if _, _, code := anynt(t, "", "fmt", "--check", file); code != exitOK {
		t.Errorf("--check on a formatted file: status %d", code)
	}
}

func TestDisasm(t *testing.T) {
	out, _, code := anynt(t, "", "disasm", corpusDir+"thesis/expansion.anynt")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{"split", "any", "save", "emitcap"} {
		if !strings.Contains(out, want) {
			t.Errorf("disassembly lacks %q:\n%s", want, out)
		}
	}
}

// A run makes only the subcommand it names: each name is its command's,
// and its help reads the same made alone as among all the others.
func TestSubcommandsAlone(t *testing.T) {
	help := func(root *cobra.Command, name string) string {
		var out strings.Builder
		root.SetArgs([]string{name, "--help"})
		root.SetOut(&out)
		if err := root.Execute(); err != nil {
			t.Fatalf("%s --help: %v", name, err)
		}
		return out.String()
	}
	for _, c := range subcommands {
		if got := c.make(&stdio{}).Name(); got != c.name {
			t.Errorf("subcommand %q makes the command %q", c.name, got)
		}
		args := []string{c.name, "--help"}
		if alone := newRootCmd(&stdio{}, args); len(alone.Commands()) != 1 {
			t.Errorf("%s: %d subcommands made, want 1", c.name, len(alone.Commands()))
		} else if a, all := help(alone, c.name), help(newRootCmd(&stdio{}, nil), c.name); a != all {
			t.Errorf("%s --help alone:\n%s\namong all:\n%s", c.name, a, all)
		}
	}
}

func TestEverySubcommandHasHelpWithAnExample(t *testing.T) {
	for _, cmd := range newRootCmd(&stdio{}, nil).Commands() {
		if cmd.Name() == "help" || cmd.Name() == "completion" {
			continue
		}
		if cmd.Example == "" {
			t.Errorf("%s has no example", cmd.Name())
		}
	}
}

func TestComplexityJSON(t *testing.T) {
	out, _, code := anynt(t, "", "complexity", "--json", corpusDir+"thesis/omega1-blocker.anynt", corpusDir+"thesis/expansion.anynt")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON object a file, got:\n%s", out)
	}
	for _, line := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"bits", "kt_bits", "brotli_bits", "parts", "version"} {
			if _, ok := r[key]; !ok {
				t.Errorf("%s lacks %q", line, key)
			}
		}
	}
}

// Kt^max of a rule file counts the steps of its run from the empty string:
// the thesis's space generator takes 7 (a run under zero limits would
// count none).
func TestComplexityOfARuleFileCountsItsSteps(t *testing.T) {
	out, errw, code := anynt(t, "", "complexity", "--json", corpusDir+"thesis/space-generator.anynt")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	var r struct {
		Bits     float64 `json:"bits"`
		KtBits   float64 `json:"kt_bits"`
		MaxSteps int     `json:"max_steps"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.MaxSteps != 7 || r.KtBits != r.Bits+math.Log2(7) {
		t.Errorf("max_steps %d, kt_bits %v, bits %v; want 7 steps and bits + log2 7", r.MaxSteps, r.KtBits, r.Bits)
	}
}

func TestComplexityOfABrokenFileIsPositioned(t *testing.T) {
	file := writeFile(t, "broken.anynt", "actions s r\nspace thesis r+:x\ngoodevil pattern 0\n")
	_, errw, code := anynt(t, "", "complexity", file)
	if code != exitFile || !strings.Contains(errw, file+":2:17:") {
		t.Errorf("status %d, stderr %q", code, errw)
	}
}

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

func TestCheckAndSpace(t *testing.T) {
	if _, errw, code := anynt(t, "", "check", corpusDir+"thesis/omega1-blocker.anynt", corpusDir+"lambda-one/fixture-b.anynt"); code != exitOK {
		t.Errorf("check of the corpus: status %d, %s", code, errw)
	}
	out, _, code := anynt(t, "", "space", "lr+:l-r+:l-r")
	if code != exitOK || out != "cell\ts\tl\tr\n1\t1\t1\t2\n2\t2\t1\t3\n3\t3\t2\t3\n" {
		t.Errorf("space: status %d, table:\n%s", code, out)
	}
	_, errw, code := anynt(t, "", "space", "--actions", "s r", "r+:r")
	if code != exitFile || !strings.Contains(errw, "cell 2: every arrow loops") {
		t.Errorf("an invalid space: status %d, %q", code, errw)
	}
	out, _, code = anynt(t, "", "dot", corpusDir+"paper/example5.anynt")
	if code != exitOK || !strings.Contains(out, "c1 -> c2 [label=\"r\"]") {
		t.Errorf("dot: status %d:\n%s", code, out)
	}
}

func TestEnumerateJSON(t *testing.T) {
	out, errw, code := anynt(t, "", "enumerate", "--limit", "3", "--json", "--episodes", "40", "--steps", "40")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got:\n%s", out)
	}
	last := -1.0
	for _, line := range lines {
		var e struct {
			Bits    float64        `json:"bits"`
			Source  string         `json:"source"`
			Filters map[string]any `json:"filters"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e.Bits < last || e.Source == "" || e.Filters["accepted"] != true {
			t.Errorf("unexpected line %s", line)
		}
		last = e.Bits
	}
	if !strings.Contains(errw, "examined") || !strings.Contains(errw, "accepted 3") {
		t.Errorf("no summary on standard error: %q", errw)
	}
}

func TestEvolveImprovesAndWrites(t *testing.T) {
	dir := t.TempDir()
	out, errw, code := anynt(t, "", "evolve", "--seed", "1", "--generations", "4", "--population", "6", "--out", dir)
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	if !strings.Contains(out, "best: fitness") {
		t.Errorf("no summary:\n%s", out)
	}
	best := filepath.Join(dir, "best-01.anynt")
	if _, errw, code := anynt(t, "", "check", "--filters", "--episodes", "60", "--steps", "60", best); code != exitOK {
		t.Errorf("the best environment fails its filters: %s", errw)
	}
}

// Hostile nesting is refused, positioned, with status 1, by every command:
// a million nested '(' used to overflow the Go stack in fmt, and 1,000
// nested optionals to run for minutes.
func TestDeepNestingIsRefused(t *testing.T) {
	million := writeFile(t, "million.anynt", strings.Repeat("(", 1_000_000))
	optionals := writeFile(t, "optionals.anynt", "a -> b\n"+strings.Repeat("[", 1000)+"a"+strings.Repeat("]", 1000)+" -> b\n")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"fmt", million}, million + ":1:101: brackets nest more than 100 deep here"},
		{[]string{"markov", optionals, "a"}, optionals + ":2:101: brackets nest more than 100 deep here"},
		{[]string{"expand", optionals}, optionals + ":2:101: brackets nest more than 100 deep here"},
	} {
		out, errw, code := anynt(t, "", tt.args...)
		if code != exitFile || out != "" || !strings.HasPrefix(errw, tt.want) {
			t.Errorf("anynt %s: status %d, stdout %.40q, stderr %.200q; want status %d and %q", tt.args[0], code, out, errw, exitFile, tt.want)
		}
	}
}

// A rule whose matching would try more than 1,048,576 ways at a position is
// refused by the commands that compile it, as expand refuses to print it:
// ten optional χ before a few choices passed check and then made every VM
// step exponential in their number.
func TestCheckAndExpandAgreeOnTheExpansionLimit(t *testing.T) {
	var rule strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&rule, "[χ%d]", i)
	}
	file := writeFile(t, "wide.anynt", "alphabet a b c d e x\nx -> x\n"+rule.String()+" (a|b|c) (d|e) -> x\n")
	want := file + ":3:1: this rule stands for more than 1048576 plain rules"
	for _, args := range [][]string{{"markov", file, "abc"}, {"disasm", file}, {"expand", file}} {
		out, errw, code := anynt(t, "", args...)
		if code != exitFile || out != "" || !strings.HasPrefix(errw, want) {
			t.Errorf("anynt %s: status %d, stdout %.40q, stderr %.200q; want status %d and %q", args[0], code, out, errw, exitFile, want)
		}
	}
}

// endless is a reader that never ends, as /dev/zero or `yes` on a pipe.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	return len(p), nil
}

// A device is refused before it is read, as a file that cannot be read
// (a directory too, its path named once); an input that never ends is
// refused after lang.MaxSourceSize bytes, instead of read until memory
// runs out.
func TestEndlessInputsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ file, want string }{
		{"/dev/zero", "anynt: read /dev/zero: it is a device, not a source file\n"},
		{dir, "anynt: read " + dir + ": it is a directory, not a source file\n"},
	} {
		_, errw, code := anynt(t, "", "check", tt.file)
		if code != exitIO || errw != tt.want {
			t.Errorf("check %s: status %d, %q; want %d and %q", tt.file, code, errw, exitIO, tt.want)
		}
	}
	_, err := readInput(endless{}, []string{"f.anynt"})
	if exitCode(err) != exitLimit {
		t.Errorf("an endless standard input: %v, want exit %d", err, exitLimit)
	}
}
