package main

import (
	"testing"
)

func TestExpandPrintsTheThesisFixture(t *testing.T) {
	out, _, code := anynt(t, "", "expand", "--alphabet", "A1 A2 π ⊙", corpusDir+"thesis/expansion.anynt")
	want := "A2A1π -> πA2\nA2A1⊙ -> ⊙A2\n⊙A1π -> π⊙\n⊙A1⊙ -> ⊙⊙\nA1π -> π\nA1⊙ -> ⊙\n"
	if code != exitOK || out != want {
		t.Errorf("status %d, got:\n%s\nwant:\n%s", code, out, want)
	}
}
