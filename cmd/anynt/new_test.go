package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The skeleton anynt new writes passes check --strict and is balanced: a
// random agent's 95% interval over 200 episodes contains 0.
func TestNewSkeletonChecksStrictAndIsBalanced(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mine.anynt")
	if _, errw, code := anynt(t, "", "new", file); code != exitOK {
		t.Fatalf("new: exit %d: %s", code, errw)
	}
	if _, errw, code := anynt(t, "", "check", "--strict", file); code != exitOK || errw != "" {
		t.Fatalf("check --strict: exit %d: %s", code, errw)
	}
	out, errw, code := anynt(t, "", "run", file, "--agent", "random", "--episodes", "200", "--steps", "200", "--json")
	if code != exitOK {
		t.Fatalf("run: exit %d: %s", code, errw)
	}
	var res struct {
		Mean float64    `json:"mean"`
		CI95 [2]float64 `json:"ci95"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.CI95[0] > 0 || res.CI95[1] < 0 {
		t.Errorf("random scores %+.4f [%+.4f, %+.4f]: the skeleton is not balanced", res.Mean, res.CI95[0], res.CI95[1])
	}
}

// new never overwrites a file: it exits 4 and leaves it as it was; - writes
// the skeleton on standard output.
func TestNewRefusesToOverwrite(t *testing.T) {
	file := writeFile(t, "mine.anynt", "# mine\n")
	_, errw, code := anynt(t, "", "new", file)
	if code != exitIO || !strings.Contains(errw, "exists already") {
		t.Errorf("new over a file: exit %d, %q; want %d and exists already", code, errw, exitIO)
	}
	if got, _ := os.ReadFile(file); string(got) != "# mine\n" {
		t.Errorf("the file was changed: %q", got)
	}
	out, _, code := anynt(t, "", "new", "-")
	if code != exitOK || out != string(skeleton) {
		t.Errorf("new -: exit %d, wrote %d bytes; want the skeleton", code, len(out))
	}
	if _, _, code := anynt(t, "", "new", filepath.Join(t.TempDir(), "no", "such", "dir.anynt")); code != exitIO {
		t.Errorf("new in a missing folder: exit %d, want %d", code, exitIO)
	}
}
