package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every documented exit status comes out of exitCode, each from a real
// command given the input that calls for it, with the message that says
// why on standard error (none for the silent exit). The status 128 + n of
// a signal is TestAgentCmdSignals's, which needs a child process.
func TestEachExitStatusFromACommand(t *testing.T) {
	syntax := writeFile(t, "syntax.anynt", "a -> b\nc -> }\n")
	messy := writeFile(t, "messy.anynt", "a   ->   b\n")
	missing := filepath.Join(t.TempDir(), "missing.anynt")
	blocker := corpusDir + "thesis/omega1-blocker.anynt"
	for _, tt := range []struct {
		name   string
		stdin  string
		args   []string
		status int
		stderr string // "" asks for an empty standard error
	}{
		{"success", "", []string{"run", blocker, "--episodes", "2", "--steps", "10"}, exitOK, ""},
		{"positioned errors", "", []string{"check", syntax}, exitFile, syntax + ":2:6:"},
		{"the silent exit", "", []string{"fmt", "--check", messy}, exitFile, ""},
		{"a rule file for an environment", "", []string{"run", messy}, exitUsage, "is a rule file"},
		{"a flag out of its range", "", []string{"run", blocker, "--episodes", "0"}, exitUsage, "--episodes is 0"},
		{"a flag cobra refuses", "", []string{"run", "--no-such-flag", blocker}, exitUsage, "Run 'anynt --help' for usage."},
		{"a limit", "", []string{"markov", "--max-steps", "2", "--classic", corpusDir + "classic/binary-to-unary.markov", "101"}, exitLimit, "step limit"},
		{"a file that cannot be read", "", []string{"check", missing}, exitIO, missing},
		{"an agent's protocol version", `{"type":"hello","protocol":"anynt/2"}` + "\n", []string{"serve-env"}, exitAgent, "anynt/2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errw, code := anynt(t, tt.stdin, tt.args...)
			if code != tt.status {
				t.Errorf("anynt %s: status %d, want %d; stderr:\n%s", strings.Join(tt.args, " "), code, tt.status, errw)
			}
			if tt.stderr == "" && errw != "" || !strings.Contains(errw, tt.stderr) {
				t.Errorf("anynt %s: stderr %q, want %q", strings.Join(tt.args, " "), errw, tt.stderr)
			}
		})
	}
}
