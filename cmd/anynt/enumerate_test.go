package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --shard K/N is read strictly: two decimal integers, 1 ≤ K ≤ N, and
// nothing before, between or after.
func TestParseShard(t *testing.T) {
	tests := []struct {
		in   string
		k, n int
		ok   bool
	}{
		{"1/1", 1, 1, true},
		{"1/3", 1, 3, true},
		{"3/3", 3, 3, true},
		{"12/40", 12, 40, true},
		{"1/3x", 0, 0, false},
		{"1x/3", 0, 0, false},
		{"1/3/4", 0, 0, false},
		{"1 /3", 0, 0, false},
		{"+1/3", 0, 0, false},
		{"-1/3", 0, 0, false},
		{"0/3", 0, 0, false},
		{"4/3", 0, 0, false},
		{"1/0", 0, 0, false},
		{"1", 0, 0, false},
		{"/", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		k, n, err := parseShard(tt.in)
		if (err == nil) != tt.ok || k != tt.k || n != tt.n {
			t.Errorf("parseShard(%q) = %d, %d, %v; want %d, %d, ok %v", tt.in, k, n, err, tt.k, tt.n, tt.ok)
		}
	}
	if _, errw, code := anynt(t, "", "enumerate", "--shard", "1/3x", "--limit", "1"); code != exitUsage || !strings.Contains(errw, `"1/3x"`) {
		t.Errorf("enumerate --shard 1/3x: status %d, %q; want a usage error naming it", code, errw)
	}
}

// A misspelt reference agent is a usage error before anything runs.
func TestUnknownReferenceAgent(t *testing.T) {
	for _, args := range [][]string{
		{"enumerate", "--limit", "1", "--references", "orcale"},
		{"evolve", "--generations", "0", "--references", "oracle,folower"},
	} {
		_, errw, code := anynt(t, "", args...)
		if code != exitUsage || !strings.Contains(errw, "no such agent") {
			t.Errorf("%v: status %d, %q; want a usage error naming the agent", args, code, errw)
		}
	}
}

// Every JSON line of enumerate and evolve carries the version and the
// settings that decided it.
func TestGenerationJSONCarriesVersionAndSettings(t *testing.T) {
	for _, args := range [][]string{
		{"enumerate", "--limit", "2", "--json", "--episodes", "30", "--steps", "30"},
		{"evolve", "--generations", "1", "--population", "4", "--episodes", "30", "--steps", "30", "--json"},
	} {
		out, errw, code := anynt(t, "", args...)
		if code != exitOK {
			t.Fatalf("%v: status %d: %s", args, code, errw)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 2 {
			t.Fatalf("%v: want 2 lines, got\n%s", args, out)
		}
		for _, line := range lines {
			var obj struct {
				Version  string `json:"version"`
				Settings struct {
					Filters struct {
						Episodes   int      `json:"episodes"`
						References []string `json:"references"`
					} `json:"filters"`
				} `json:"settings"`
			}
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Fatal(err)
			}
			if obj.Version == "" || obj.Settings.Filters.Episodes != 30 || len(obj.Settings.Filters.References) != 2 {
				t.Errorf("%v: line without its version or settings: %s", args, line)
			}
		}
	}
}

// failingWriter fails every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// A failed write of the output ends the run with an I/O error, not silently
// and not as a usage error.
func TestGenerationOutputWriteErrors(t *testing.T) {
	for _, args := range [][]string{
		{"enumerate", "--limit", "2", "--json", "--episodes", "30", "--steps", "30"},
		{"enumerate", "--limit", "2", "--episodes", "30", "--steps", "30"},
		{"evolve", "--generations", "1", "--population", "4", "--episodes", "30", "--steps", "30", "--json"},
	} {
		var errw strings.Builder
		if code := run(args, strings.NewReader(""), failingWriter{}, &errw); code != exitIO || !strings.Contains(errw.String(), "broken pipe") {
			t.Errorf("%v into a failing writer: status %d, %q", args, code, errw.String())
		}
	}
}

// Sizes that make no sense are usage errors before anything runs, not a
// crash or hours of work.
func TestGenerationFlagBounds(t *testing.T) {
	for _, args := range [][]string{
		{"enumerate", "--limit", "-1"},
		{"enumerate", "--limit", "1", "--episodes", "1000000000"},
		{"enumerate", "--limit", "1", "--steps", "0"},
		{"evolve", "--episodes", "1000000000"},
		{"evolve", "--population", "100000000"},
		{"evolve", "--generations", "1000000000"},
	} {
		if _, errw, code := anynt(t, "", args...); code != exitUsage {
			t.Errorf("%v: status %d, %q; want a usage error", args, code, errw)
		}
	}
}

// An output folder that cannot be made is an I/O failure (exit 4), not a
// usage error.
func TestGenerationOutputFolderErrors(t *testing.T) {
	notAFolder := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notAFolder, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"enumerate", "--limit", "1", "--episodes", "30", "--steps", "30", "--out", notAFolder},
		{"evolve", "--generations", "0", "--population", "4", "--episodes", "30", "--steps", "30", "--out", notAFolder},
	} {
		if _, errw, code := anynt(t, "", args...); code != exitIO || !strings.Contains(errw, notAFolder) {
			t.Errorf("%v: status %d, %q; want exit %d naming the folder", args, code, errw, exitIO)
		}
	}
}

// Evolve's exit statuses and text say what happened: no seed found within
// the tries is a run stopped at a limit (3); a folder refused before the
// first generation leaves standard output empty; a finished run resumed
// writes nothing and says where the population is.
func TestEvolveSaysWhatHappened(t *testing.T) {
	quick := []string{"evolve", "--generations", "0", "--population", "2", "--episodes", "2", "--steps", "2"}
	if out, errw, code := anynt(t, "", append(quick, "--references", "stay")...); code != exitLimit || !strings.Contains(errw, "no seed environment") {
		t.Errorf("no seed: status %d, stdout %q, stderr %q; want %d", code, out, errw, exitLimit)
	}
	dir := t.TempDir()
	args := append(quick[:len(quick):len(quick)], "--episodes", "30", "--steps", "30", "--out", dir)
	out, errw, code := anynt(t, "", args...)
	if code != exitOK || !strings.Contains(out, "wrote 2 environments to "+dir) || !strings.Contains(out, "seed 1: 0 generations of 2") {
		t.Fatalf("first run: status %d\n%s%s", code, out, errw)
	}
	out, errw, code = anynt(t, "", args...)
	if code != exitOK || strings.Contains(out, "wrote") || !strings.Contains(out, "the population is in "+dir) || !strings.Contains(errw, "nothing to do") {
		t.Errorf("finished run again: status %d\n%s%s", code, out, errw)
	}
	other := append(quick[:len(quick):len(quick)], "--seed", "2", "--episodes", "30", "--steps", "30", "--out", dir)
	if out, errw, code := anynt(t, "", other...); code != exitIO || out != "" {
		t.Errorf("another run's folder: status %d, stdout %q (want none), stderr %q", code, out, errw)
	}
}

// --max-bits is a number from 0 to 1000: NaN, infinities and negatives are
// usage errors, not an enumeration of nothing.
func TestEnumerateMaxBitsIsBounded(t *testing.T) {
	for _, bits := range []string{"NaN", "-1", "+Inf", "1001"} {
		if _, errw, code := anynt(t, "", "enumerate", "--limit", "1", "--max-bits", bits); code != exitUsage || !strings.Contains(errw, "--max-bits is") {
			t.Errorf("--max-bits %s: status %d, %q; want a usage error", bits, code, errw)
		}
	}
}

func TestEnumerateJSON(t *testing.T) {
	out, errw, code := anynt(t, "", "enumerate", "--limit", "3", "--json", "--episodes", "40", "--steps", "40")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want 3 lines, got:\n%s", out)
	}
	last := -1.0
	for _, line := range lines {
		var e struct {
			Bits    float64        `json:"bits"`
			Source  string         `json:"source"`
			Filters map[string]any `json:"filters"`
		}
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatal(err)
		}
		if e.Bits < last || e.Source == "" || e.Filters["accepted"] != true {
			t.Errorf("unexpected line %s", line)
		}
		last = e.Bits
	}
	if !strings.Contains(errw, "examined") || !strings.Contains(errw, "accepted 3") {
		t.Errorf("no summary on standard error: %q", errw)
	}
}

// With --pack the log is progress and a summary, not a copy of the pack:
// nothing on standard output, and on standard error a line at each tenth
// of the shard, the last at 100%, then the summary, however many
// environments are accepted.
func TestEnumeratePackLogsNoRecords(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.pack")
	out, errw, code := anynt(t, "", "enumerate", "--max-bits", "58", "--episodes", "16", "--steps", "20", "--shard", "2/3", "--pack", p)
	if code != exitOK || out != "" {
		t.Fatalf("exit %d; standard output %d bytes, want none:\n%.300s\n%s", code, len(out), out, errw)
	}
	lines := strings.Split(strings.TrimSpace(errw), "\n")
	var tenths []string
	for _, l := range lines[:len(lines)-1] {
		pct, _, ok := strings.Cut(strings.TrimPrefix(l, "anynt: "), "% of shard 2/3: examined ")
		if !ok {
			t.Fatalf("a line that is not progress: %q", l)
		}
		tenths = append(tenths, pct)
	}
	if len(tenths) != 10 || tenths[9] != "100" || !strings.HasPrefix(lines[len(lines)-1], "this run: examined 411 ") {
		t.Errorf("standard error:\n%s\nwant a line at each tenth, the last at 100%%, then the summary", errw)
	}
}
