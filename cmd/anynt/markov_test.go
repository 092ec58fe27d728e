package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMarkovClassicFromArgumentAndStdin(t *testing.T) {
	out, errw, code := anynt(t, "", "markov", "--classic", corpusDir+"classic/binary-to-unary.markov", "101")
	if code != exitOK || out != "|||||\n" {
		t.Errorf("argument input: got %q, status %d, stderr %q", out, code, errw)
	}
	out, _, code = anynt(t, "_1111*11111_\n", "markov", "--classic", corpusDir+"classic/ruleset4.markov")
	if code != exitOK || out != "11111111111111111111\n" {
		t.Errorf("standard input: got %q, status %d", out, code)
	}
}

func TestMarkovTraceNamesStepRulePositionAndString(t *testing.T) {
	_, errw, code := anynt(t, "", "markov", "--classic", "--trace", corpusDir+"classic/binary-to-unary.markov", "101")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	lines := strings.Split(strings.TrimSpace(errw), "\n")
	if len(lines) != 8 {
		t.Fatalf("want 8 trace lines, got %d:\n%s", len(lines), errw)
	}
	want := "1\trule 2 (" + corpusDir + "classic/binary-to-unary.markov:5:1)\t0|01"
	if lines[0] != want {
		t.Errorf("first trace line %q, want %q", lines[0], want)
	}
}

func TestMarkovJSON(t *testing.T) {
	out, _, code := anynt(t, "", "markov", "--json", "--trace", corpusDir+"thesis/space-generator.anynt", "")
	if code != exitOK {
		t.Fatalf("status %d", code)
	}
	var got markovOutcome
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if got.Output != "lr+:l-r+:l-r+:l-r+:l-r+:l-r" || got.Halt != "terminated" || got.Steps != 7 || got.Rule == nil || *got.Rule != 3 || len(got.Trace) != 7 {
		t.Errorf("unexpected outcome %+v", got)
	}
}

// Runaway algorithms stop at the limits with status 3, the string so far on
// standard output and the limit named on standard error.
func TestMarkovLimits(t *testing.T) {
	tests := []struct {
		name, rules string
		args        []string
		stdout      string
		message     string
		input       string // "a" if empty
	}{
		{"empty rule never terminates", "-> a\n", []string{"--max-steps", "5"}, "aaaaaa\n", "step limit", ""},
		{"doubling hits the length limit", "a -> aa\n", []string{"--max-len", "8"}, "aaaaaaaa\n", "length limit", ""},
		{"default limits", "a -> aa\n", nil, "", "length limit", ""},
		{"zero steps mean none", "a -> b\n", []string{"--max-steps", "0"}, "a\n", "step limit: 0 steps done", ""},
		{"an input longer than --max-len is not run", "a -> b\n", []string{"--max-len", "0"}, "a\n", "the input is longer than --max-len 0 symbols (it has 1): nothing was run", ""},
		{"exponential matching hits the work limit", strings.Repeat("[a] ", 16) + strings.Repeat("a ", 16) + "c -> b\n", []string{"--max-work", "1000"}, "", "work limit", strings.Repeat("a", 20) + "c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file := writeFile(t, "runaway.anynt", tt.rules)
			input := "a"
			if tt.input != "" {
				input = tt.input
			}
			args := append(append([]string{"markov"}, tt.args...), file, input)
			out, errw, code := anynt(t, "", args...)
			if code != exitLimit {
				t.Errorf("status %d, want %d", code, exitLimit)
			}
			if tt.stdout != "" && out != tt.stdout {
				t.Errorf("stdout %q, want %q", out, tt.stdout)
			}
			if !strings.Contains(errw, tt.message) {
				t.Errorf("stderr %q does not name the %s", errw, tt.message)
			}
		})
	}
}
