//go:build linux

package main

import (
	"os"
	"strings"
	"testing"
)

// TestOutputLostIsAnIOError runs every command that prints with its
// standard output on /dev/full, where every write fails with ENOSPC as on
// a full disk: each one exits with exitIO and names the failure once,
// whatever else it had to say (a limit, unformatted files), and never
// with exit 0 and its output gone.
func TestOutputLostIsAnIOError(t *testing.T) {
	env := corpusDir + "thesis/omega1-blocker.anynt"
	unformatted := writeFile(t, "messy.anynt", "a  ->  b\n")
	db, _ := playedStudy(t, true)
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"--help"}},
		{"", []string{"--version"}},
		{"", []string{"markov", "--help"}},
		{"", []string{"markov", "--classic", corpusDir + "classic/binary-to-unary.markov", "101"}},
		{"", []string{"markov", "--json", "--classic", corpusDir + "classic/binary-to-unary.markov", "101"}},
		{"", []string{"markov", "--max-steps", "1", "--classic", corpusDir + "classic/binary-to-unary.markov", "101"}}, // and a limit
		{"", []string{"expand", corpusDir + "thesis/expansion.anynt"}},
		{"", []string{"fmt", corpusDir + "thesis/omega1.anynt"}},
		{"", []string{"fmt", "--check", unformatted}}, // and an unformatted file
		{"", []string{"disasm", corpusDir + "thesis/expansion.anynt"}},
		{"", []string{"check", "-v", env}},
		{"", []string{"space", "lr+:l-r+:l-r"}},
		{"", []string{"dot", corpusDir + "paper/example5.anynt"}},
		{"", []string{"run", env, "--episodes", "2", "--steps", "10"}},
		{"", []string{"run", env, "--episodes", "2", "--steps", "10", "--json"}},
		{"", []string{"complexity", env}},
		{"", []string{"complexity", "--json", env}},
		{"", []string{"enumerate", "--limit", "2", "--episodes", "10", "--steps", "10"}},
		{"", []string{"enumerate", "--limit", "2", "--episodes", "10", "--steps", "10", "--json"}},
		{"", []string{"evolve", "--seed", "1", "--generations", "1", "--population", "4"}},
		{"", []string{"test", "--agent", "random", "--tests", "2", "--seed", "1"}},
		{"", []string{"test", "--agent", "random", "--tests", "2", "--seed", "1", "--json"}},
		{"", []string{"test", "--agent", "random", "--tests", "2", "--seed", "1", "--csv"}},
		{"", []string{"test", "--adaptive", "--agent", "random", "--test-time", "100", "--seed", "1"}},
		{`{"type":"hello","protocol":"anynt/1"}` + "\n", []string{"serve-env"}},
		{"", []string{"results", "--db", db}},
		{"", []string{"results", "--db", db, "--json", "--quiet"}},
		{"", []string{"results", "--db", db, "--participants"}},
	} {
		full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		var errw strings.Builder
		code := run(c.args, strings.NewReader(c.stdin), full, &errw)
		full.Close()
		const cause = "no space left on device"
		if code != exitIO || strings.Count(errw.String(), cause) != 1 {
			t.Errorf("anynt %s > /dev/full: status %d, stderr %q; want %d naming %q once",
				strings.Join(c.args, " "), code, errw.String(), exitIO, cause)
		}
	}
}

// A run that stops at a limit with its output lost says both, the limit
// first, and exits with exitIO: the string it stopped at is gone.
func TestOutputLostBeatsALimit(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	var errw strings.Builder
	code := run([]string{"markov", "--max-steps", "1", "--classic", corpusDir + "classic/binary-to-unary.markov", "101"}, nil, full, &errw)
	limit, lost := strings.Index(errw.String(), "stopped at the step limit"), strings.Index(errw.String(), "anynt: writing the standard output: ")
	if code != exitIO || limit < 0 || lost < limit {
		t.Errorf("status %d, stderr %q; want %d, the limit and then the lost output", code, errw.String(), exitIO)
	}
}
