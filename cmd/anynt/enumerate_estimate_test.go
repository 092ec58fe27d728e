package main

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// --estimate counts what enumerate examines: the candidates it reports up
// to a bound, in all and bit by bit, are those the enumeration walks; the
// rate is a measured one; a shard's part is the total over N, rounded up.
func TestEnumerateEstimateCountsTheStream(t *testing.T) {
	out, errw, code := anynt(t, "", "enumerate", "--max-bits", "57", "--estimate", "--shard", "1/7", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errw)
	}
	var e struct {
		Version    string     `json:"version"`
		Candidates int        `json:"candidates"`
		Sampled    int        `json:"sampled"`
		PerSecond  float64    `json:"seconds_a_candidate"`
		Seconds    float64    `json:"seconds"`
		Shard      float64    `json:"seconds_a_shard"`
		RateCI     [2]float64 `json:"seconds_a_candidate_ci95"`
		AllCI      [2]float64 `json:"seconds_ci95"`
		PerBit     []struct {
			Bits, Candidates int
			UpTo             int `json:"up_to"`
		} `json:"per_bit"`
	}
	if err := json.Unmarshal([]byte(out), &e); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	_, walked, code := anynt(t, "", "enumerate", "--max-bits", "57", "--episodes", "16", "--steps", "10")
	m := regexp.MustCompile(`this run: examined (\d+)`).FindStringSubmatch(walked)
	if code != 0 || m == nil {
		t.Fatalf("enumerate: exit %d: %s", code, walked)
	}
	if n, _ := strconv.Atoi(m[1]); e.Candidates != n || n == 0 {
		t.Errorf("--estimate counts %d candidates; enumerate examines %d", e.Candidates, n)
	}
	sum := 0
	for _, b := range e.PerBit {
		sum += b.Candidates
		if b.UpTo != sum || b.Bits > 57 {
			t.Errorf("bits %d: %d candidates, %d up to there; the sum is %d", b.Bits, b.Candidates, b.UpTo, sum)
		}
	}
	if sum != e.Candidates || e.Version == "" {
		t.Errorf("the bits' candidates add up to %d of %d; version %q", sum, e.Candidates, e.Version)
	}
	if e.Sampled == 0 || e.PerSecond <= 0 || e.Seconds != e.PerSecond*float64(e.Candidates) ||
		e.Shard != e.PerSecond*float64((e.Candidates+6)/7) {
		t.Errorf("sampled %d at %v s a candidate: %v s in all, %v s a shard", e.Sampled, e.PerSecond, e.Seconds, e.Shard)
	}
	// The rate comes with its spread: an interval around it, not one
	// figure.
	if lo, hi := e.RateCI[0], e.RateCI[1]; !(lo < e.PerSecond && e.PerSecond < hi) || e.AllCI[1] != hi*float64(e.Candidates) {
		t.Errorf("the rate %v s has the interval [%v, %v], in all %v", e.PerSecond, lo, hi, e.AllCI)
	}
	text, _, _ := anynt(t, "", "enumerate", "--max-bits", "57", "--estimate")
	for _, want := range []string{"# anynt ", "up to 57 bits", "bits  candidates", "rate: ", "95% interval", "in all: " + grouped(e.Candidates) + " candidates"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// --estimate enumerates nothing, so --out and --limit mean nothing with it.
func TestEnumerateEstimateRefusesOutAndLimit(t *testing.T) {
	for _, args := range [][]string{{"--out", t.TempDir()}, {"--limit", "3"}} {
		_, errw, code := anynt(t, "", append([]string{"enumerate", "--estimate"}, args...)...)
		if code != exitUsage || !strings.Contains(errw, "--estimate enumerates nothing") {
			t.Errorf("%v: exit %d, %s", args, code, errw)
		}
	}
}
