package main

import (
	"path/filepath"
	"strings"
	"testing"
)

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
