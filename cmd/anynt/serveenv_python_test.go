package main

import (
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/google/go-cmp/cmp"
)

// A Python client written from the protocol's documentation with the
// standard library only (testdata/serve_client.py) plays an episode with a
// fixed cycle of actions; the trajectory it prints is the one the episode
// plays inside the process with the same seed and actions.
func TestServeEnvPythonClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("this test needs python3 (the Python 3 interpreter, standard library only) on PATH: %v", err)
	}
	items, err := exam.LambdaOneItems(2, 1, versionString())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		e       *env.Env
		seed    uint64
		steps   int
		actions []int
	}{
		{[]string{"--file", blocker, "--seed", "7", "--steps", "40", "--actions", "2,1,1,0,2"}, loadFor(t, blocker), env.EpisodeSeed(7, 0), 40, []int{2, 1, 1, 0, 2}},
		// --bench plays on, four environments at a time, requests sent
		// ahead of the answers, and prints its rate last.
		{[]string{"--lambda-one", "2:1", "--actions", "1,0,2", "--bench", "200", "--batch", "4"}, items[0].Env, env.EpisodeSeed(items[0].Seed, 0), items[0].Steps, []int{1, 0, 2}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			// The client speaks over its standard input and output, which
			// are piped to serve-env running in this process.
			cmd := exec.Command(python, append([]string{"testdata/serve_client.py"}, tt.args...)...)
			requests, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			answers, toClient := io.Pipe()
			cmd.Stdin = answers
			var trajectory strings.Builder
			cmd.Stderr = &trajectory
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var serveErr strings.Builder
			code := run([]string{"serve-env"}, requests, toClient, &serveErr)
			toClient.Close()
			if err := cmd.Wait(); err != nil || code != exitOK {
				t.Fatalf("client: %v, serve-env status %d; client's stderr:\n%s\nserve-env's: %s", err, code, trajectory.String(), serveErr.String())
			}
			var want strings.Builder
			want.WriteString("interaction\tobservation\taction\treward\n")
			e := tt.e
			for i, p := range runTrajectory(e, tt.seed, tt.steps, tt.actions) {
				fmt.Fprintf(&want, "%d\t%s\t%s\t%+.4g\n", i+1, p.Observation, e.Actions[p.Action], p.Reward)
			}
			got := trajectory.String()
			if slices.Contains(tt.args, "--bench") {
				lines := strings.SplitAfter(strings.TrimSuffix(got, "\n"), "\n")
				if rate := lines[len(lines)-1]; !strings.HasPrefix(rate, "200 steps in ") || !strings.Contains(rate, "4 environment(s) at a time") {
					t.Errorf("the bench's last line %q", rate)
				}
				got = strings.Join(lines[:len(lines)-1], "")
			}
			if diff := cmp.Diff(want.String(), got); diff != "" {
				t.Errorf("the Python client's trajectory differs (-run +client):\n%s", diff)
			}
		})
	}
}

// The trajectory anynt run --trace prints (its first episode) is the one
// serve-env plays with the same seed and the same actions: here the stay
// agent's.
func TestServeEnvMatchesRunTrace(t *testing.T) {
	const steps = 50
	_, trace, code := anynt(t, "", "run", blocker, "--agent", "stay", "--seed", "7", "--steps", fmt.Sprint(steps), "--episodes", "1", "--trace")
	if code != exitOK {
		t.Fatalf("run: status %d", code)
	}
	answers, _, _ := serveEnv(t, append([]string{hello, `{"type":"make","file":"` + blocker + `","steps":50}`, `{"type":"reset","env":1,"seed":7}`}, stepLines(steps, []int{0})...)...)
	served := servedTrajectory(t, answers[2:], []int{0})
	lines := strings.Split(strings.TrimSpace(trace), "\n")[1:]
	if len(lines) != steps || len(served) != steps {
		t.Fatalf("%d trace lines, %d steps served", len(lines), len(served))
	}
	for i, l := range lines {
		cols := strings.Split(l, "\t")
		if got := fmt.Sprintf("%d\t%s\ts\t%+.4g", i+1, served[i].Observation, served[i].Reward); got != strings.Join(cols[:4], "\t") {
			t.Errorf("interaction %d: served %q, run --trace %q", i+1, got, l)
		}
	}
}
