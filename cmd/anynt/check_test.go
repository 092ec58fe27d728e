package main

import (
	"fmt"
	"strings"
	"testing"
)

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

// check --filters' line names the agents behind its figures: a file
// rejected as unbalanced names the reference agents that did not play,
// one rejected as insensitive the best reference agent and its mean.
func TestCheckFiltersLineNamesTheAgents(t *testing.T) {
	// Three cells; the random agent spends 0.4 of its time in cell 3, where
	// Good stands, so its mean is about +0.1 (generate's lopsided).
	lopsided := writeFile(t, "lopsided.anynt", "actions s a b\nspace table {\n  1 2 3\n  2 1 1\n  3 3 1\n}\n"+
		"goodevil pattern s\nset garbage off\nset cycle off\nset rewards lambda-one\nplace π 1\nplace ⊕ 3\nplace ⊖ 2\n")
	blocker := corpusDir + "thesis/omega1-blocker.anynt"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{lopsided}, lopsided + ": rejected: unbalanced (random +0.0744 [+0.0397, +0.1091]; oracle, follower not run: balance failed first)\n"},
		{[]string{"--references", "stay", blocker}, blocker + ": rejected: insensitive (random -0.0001 [-0.0050, +0.0048], stay +0.0000)\n"},
	}
	for _, tc := range tests {
		out, errw, code := anynt(t, "", append([]string{"check", "--filters"}, tc.args...)...)
		if code != exitFile || out != tc.want || errw != "anynt: 1 file(s) failed the filters\n" {
			t.Errorf("check --filters %v: status %d, stdout %q, stderr %q; want status %d and %q", tc.args, code, out, errw, exitFile, tc.want)
		}
	}
}
