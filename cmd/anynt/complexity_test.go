package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestComplexityJSON(t *testing.T) {
	out, _, code := anynt(t, "", "complexity", "--json", corpusDir+"thesis/omega1-blocker.anynt", corpusDir+"thesis/expansion.anynt")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want one JSON object a file, got:\n%s", out)
	}
	for _, line := range lines {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"bits", "kt_bits", "brotli_bits", "parts", "version"} {
			if _, ok := r[key]; !ok {
				t.Errorf("%s lacks %q", line, key)
			}
		}
	}
}

// Kt^max of a rule file counts the steps of its run from the empty string:
// the thesis's space generator takes 7 (a run under zero limits would
// count none).
func TestComplexityOfARuleFileCountsItsSteps(t *testing.T) {
	out, errw, code := anynt(t, "", "complexity", "--json", corpusDir+"thesis/space-generator.anynt")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	var r struct {
		Bits     float64 `json:"bits"`
		KtBits   float64 `json:"kt_bits"`
		MaxSteps int     `json:"max_steps"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.MaxSteps != 7 || r.KtBits != r.Bits+math.Log2(7) {
		t.Errorf("max_steps %d, kt_bits %v, bits %v; want 7 steps and bits + log2 7", r.MaxSteps, r.KtBits, r.Bits)
	}
}

func TestComplexityOfABrokenFileIsPositioned(t *testing.T) {
	file := writeFile(t, "broken.anynt", "actions s r\nspace thesis r+:x\ngoodevil pattern 0\n")
	_, errw, code := anynt(t, "", "complexity", file)
	if code != exitFile || !strings.Contains(errw, file+":2:17:") {
		t.Errorf("status %d, stderr %q", code, errw)
	}
}
