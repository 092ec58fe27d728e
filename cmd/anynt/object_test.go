package main

import (
	"strings"
	"testing"
)

// markov, expand and disasm work on one behaviour of an environment,
// picked with --object; without it they name the behaviours there are.
func TestObjectPicksABehaviour(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	tests := []struct {
		args   []string
		code   int
		stdout string // its first line
		stderr string // a part of it
	}{
		{[]string{"markov", file, "x"}, exitUsage, "", "is an environment: pick one of its behaviours with --object (generator, ω1, goodevil)"},
		{[]string{"expand", file}, exitUsage, "", "--object (generator, ω1, goodevil)"},
		{[]string{"disasm", file}, exitUsage, "", "--object (generator, ω1, goodevil)"},
		{[]string{"markov", "--object", "ω2", file, "x"}, exitUsage, "", "--object ω2: " + file + " has no such behaviour (generator, ω1, goodevil)"},
		{[]string{"markov", "--object", "ω1", corpusDir + "thesis/omega1.anynt", "π"}, exitUsage, "", "is a rule file, not an environment"},
		// ω1 sees π beside it and Evil's arrow: it blocks with s.
		{[]string{"markov", "--object", "ω1", file, "π⊙:ω1L:R:"}, exitOK, "π:ω1L:R:s", ""},
		{[]string{"markov", "--object", "goodevil", file, "⊙:ω1:"}, exitOK, "⊙", ""},
		{[]string{"markov", "--object", "generator", file, ""}, exitOK, "lr+:l-r+:l-r+:l-r+:l-r+:l-r", ""},
		{[]string{"markov", "--object", "ω1", file, "πx"}, exitUsage, "", "symbol x is not known"},
		{[]string{"expand", "--object", "ω1", file}, exitOK, "SL^Δ -> S", ""},
		{[]string{"disasm", "--object", "ω1", file}, exitOK, "alphabet S L R π ⊕ ⊖ ⊙ ω1 : s l r Φ", ""},
		{[]string{"expand", corpusDir + "paper/fig3-torus.anynt"}, exitUsage, "", "no rules to run"},
	}
	for _, tc := range tests {
		out, errw, code := anynt(t, "", tc.args...)
		first, _, _ := strings.Cut(out, "\n")
		if code != tc.code || first != tc.stdout || !strings.Contains(errw, tc.stderr) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want %d, %q, %q", tc.args, code, first, errw, tc.code, tc.stdout, tc.stderr)
		}
	}
}

// A behaviour runs under its environment's bounds, which --max-steps can
// lower but not raise.
func TestObjectRunsUnderTheEnvironmentsBounds(t *testing.T) {
	file := writeFile(t, "loop.anynt", "actions s r\nspace thesis r+:r+\nset max-steps 30\ngoodevil {\n\t-> r\n}\n")
	out, errw, code := anynt(t, "", "markov", "--json", "--object", "goodevil", file, "")
	if code != exitLimit || !strings.Contains(out, `"steps":30`) {
		t.Errorf("status %d, %s %s", code, out, errw)
	}
	out, _, code = anynt(t, "", "markov", "--json", "--max-steps", "5", "--object", "goodevil", file, "")
	if code != exitLimit || !strings.Contains(out, `"steps":5`) {
		t.Errorf("--max-steps 5: status %d, %s", code, out)
	}
}
