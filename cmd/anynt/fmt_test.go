package main

import (
	"os"
	"testing"
)

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
