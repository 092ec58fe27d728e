package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const chaserTrap = "../../env/testdata/chaser-trap.anynt"

// try shows the chaser trap in one command: the observation ω1 is given,
// with ⊙ between π and the marker, and that its first rule did not fire.
func TestTryShowsTheObservationAndTheRuleThatFires(t *testing.T) {
	out, errw, code := anynt(t, "", "try", chaserTrap, "--object", "ω1", "--at", "π=1 ⊕=1 ⊖=2 ω1=2")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw)
	}
	for _, want := range []string{
		"ω1 in cell 2 sees π⊙LR:⊙ω1S:\n",
		"1\trule 2 (" + chaserTrap + ":12:2)\t->. s\tπ⊙LR:⊙ω1S:s\n",
		"halted: rule 2 is terminating after 1 step",
		"ω1 takes s (the rightmost action of the output) and stays in cell 2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Good's run in the thesis's ω1-blocker, placed with ASCII spellings:
// Good sees ⊙ for itself and Evil, follows every action of its output,
// and leaves its memory for the next run.
func TestTryGoodEvilWithASCIINamesAndMemory(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	out, errw, code := anynt(t, "", "try", file, "--object", "good", "--at", `\pi=3 \oplus=1 \ominus=6 \omega1=4`)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw)
	}
	for _, want := range []string{"⊕ in cell 1 sees ⊙SL:R:π:ω1::⊙:\n", "memory after: HIIIDDD\n", "⊕ follows l and intends to go to cell 1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The memory that run left makes the next step of the pattern.
	out, errw, code = anynt(t, "", "try", file, "--object", "⊖", "--at", "π=3 ⊕=1 ⊖=6 ω1=4", "--memory", "HIIIDDD", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var o struct {
		Object, Observation, Output, Halt, Memory string
		Actions                                   []string
		Dest                                      int
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		t.Fatal(err)
	}
	if o.Object != "⊖" || o.Observation != "⊙::π:ω1:L:⊙SR:" || o.Memory != "HIIDDD" || strings.Join(o.Actions, " ") != "l" || o.Dest != 5 {
		t.Errorf("got %+v", o)
	}
}

// What --at and place leave unplaced is drawn from --seed, and is an error
// without it; π's observation shows ⊕ and ⊖.
func TestTryPlacement(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt" // place π 1, place ω1 4
	_, errw, code := anynt(t, "", "try", file, "--object", "ω1")
	if code != exitUsage || !strings.Contains(errw, "--at does not place ⊕, ⊖") {
		t.Errorf("exit %d, %q", code, errw)
	}
	a, _, code := anynt(t, "", "try", file, "--object", "π", "--seed", "3")
	b, _, _ := anynt(t, "", "try", file, "--object", "π", "--seed", "3")
	if code != exitOK || a != b || !strings.HasPrefix(a, "π in cell 1 sees π") || !strings.Contains(a, "⊕") || !strings.Contains(a, "⊖") {
		t.Errorf("exit %d:\n%s\n%s", code, a, b)
	}
}

// Names, cells and objects try cannot use are usage errors that say why.
func TestTryUsageErrors(t *testing.T) {
	file := corpusDir + "thesis/omega1-blocker.anynt"
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--at", "⊕=1 ⊖=2"}, "--object names"},
		{[]string{"--object", "ω7", "--at", "⊕=1 ⊖=2"}, "--object ω7: " + file + " has no such object (π, ⊕, ⊖, ω1)"},
		{[]string{"--object", "ω1", "--at", "⊕=1 ⊖=1"}, "⊕ and ⊖ are both in cell 1"},
		{[]string{"--object", "ω1", "--at", "⊕=1 ⊖=9"}, "⊖=9: the cell is a number from 1 to 6"},
		{[]string{"--object", "ω1", "--at", "⊕ 1"}, `"⊕" is not NAME=CELL`},
		{[]string{"--object", "ω1", "--at", "ω2=1"}, "ω2 is not an object"},
		{[]string{"--object", "ω1", "--at", "⊕=1 ⊖=2", "--memory", "Q"}, "--memory"},
	}
	for _, tc := range tests {
		_, errw, code := anynt(t, "", append([]string{"try", file}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errw, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tc.args, code, errw, exitUsage, tc.want)
		}
	}
	_, errw, code := anynt(t, "", "try", corpusDir+"lambda-one/fixture-b.anynt", "--object", "good")
	if code != exitUsage || !strings.Contains(errw, "follows the pattern of goodevil pattern") {
		t.Errorf("Good on a pattern: exit %d, %q", code, errw)
	}
	_, errw, code = anynt(t, "", "try", corpusDir+"thesis/expansion.anynt", "--object", "ω1")
	if code != exitUsage || !strings.Contains(errw, "is a rule file") {
		t.Errorf("a rule file: exit %d, %q", code, errw)
	}
}

// check warns, at the rule, that the chaser trap's first rule can never
// match and why; --strict fails on it.
func TestCheckWarnsOfTheChaserTrap(t *testing.T) {
	_, errw, code := anynt(t, "", "check", chaserTrap)
	want := chaserTrap + ":11:2: warning: object ω1: this rule can never match: it needs πL, but π is never directly followed by L"
	if code != exitOK || !strings.Contains(errw, want) || !strings.Contains(errw, "π⊙L can occur") {
		t.Errorf("check: exit %d:\n%s", code, errw)
	}
	if _, _, code := anynt(t, "", "check", "--strict", chaserTrap); code != exitFile {
		t.Errorf("check --strict: exit %d, want %d", code, exitFile)
	}
}
