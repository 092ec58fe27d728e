package main

import (
	"bytes"
	"errors"
	"io/fs"
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
