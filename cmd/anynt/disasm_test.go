package main

import (
	"strings"
	"testing"
)

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
