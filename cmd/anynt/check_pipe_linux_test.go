//go:build linux

package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// check reads a rule file once: a file given through a pipe, as
// `anynt check <(generate)` gives it, which a second reading would find
// empty, fails on its syntax error, reported with the errors of meaning
// of the lines that parsed. check once read a rule file with syntax
// errors a second time to find those, and passed it.
func TestCheckReadsAPipeOnce(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := w.WriteString("a -> χ\nx (y -> z\n"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	name := fmt.Sprintf("/dev/fd/%d", r.Fd())
	_, errw, code := anynt(t, "", "check", name)
	if code != exitFile {
		t.Fatalf("status %d, want %d; stderr:\n%s", code, exitFile, errw)
	}
	for _, want := range []string{
		name + ":1:6: χ on the right-hand side must carry a subscript",
		name + ":2:3: ( is not closed",
	} {
		if !strings.Contains(errw, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errw)
		}
	}
}
