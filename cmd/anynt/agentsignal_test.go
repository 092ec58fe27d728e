//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/anynt/anynt/internal/proctest"
)

// An agent that answers step 5 of exercise 3 with two acts is at fault
// there, not exercises later: the report keeps its 5 answers of that item.
func TestAgentCmdExtraLineIsFaultedWhereItCame(t *testing.T) {
	cmd := python(t) + agents + "faulty.py twice 3 5"
	out, errw, code := anynt(t, "", "test", "--agent-cmd", cmd, "--tests", "1", "--json")
	if code != exitAgent || !strings.Contains(errw, `agent "`+cmd+`" in lambda-one:1/3, episode 0, step 5: a line when no answer is expected`) {
		t.Fatalf("status %d, stderr:\n%s\nwant status %d and the fault at lambda-one:1/3, step 5", code, errw, exitAgent)
	}
	var items []string
	for _, r := range readRows(t, out) {
		if r.Kind == "item" {
			items = append(items, r.Name)
			if r.Name == "lambda-one:1/3" && (r.Fault == "" || r.Times.Actions != 5 || r.Values.Count != 5) {
				t.Errorf("the faulted item: fault %q, %+v answers, %d interactions; want the fault after 5", r.Fault, r.Times, r.Values.Count)
			}
		}
	}
	if got := strings.Join(items, " "); got != "lambda-one:1/1 lambda-one:1/2 lambda-one:1/3" {
		t.Errorf("the items are %q; want the first three", got)
	}
}

// signalChild names, in the environment, the agent's pid file of the
// anynt test that TestAgentCmdSignals runs in a child process.
const signalChild = "ANYNT_TEST_SIGNAL_PIDS"

// A signal to anynt ends the agent and the processes it started. SIGTERM
// is caught: the report of what was measured is written, with the item
// under way marked, and anynt exits with 128+15. SIGKILL cannot be
// caught: the kernel ends the agent (its parent-death signal). anynt runs
// as a child process (this test binary, in the mode signalChild selects),
// its agent spawner.py, which starts a sleeper of its own.
func TestAgentCmdSignals(t *testing.T) {
	if pidfile := os.Getenv(signalChild); pidfile != "" {
		out, errw, code := anynt(t, "", "test", "--agent-cmd", python(t)+agents+"spawner.py "+pidfile+" stubborn", "--tests", "1", "--json")
		os.Stdout.WriteString(out)
		os.Stderr.WriteString(errw)
		os.Exit(code)
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			pidfile := filepath.Join(t.TempDir(), "pids")
			cmd := exec.Command(os.Args[0], "-test.run=^TestAgentCmdSignals$")
			cmd.Env = append(os.Environ(), signalChild+"="+pidfile)
			var out, errw strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &errw
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pids := proctest.ReadPids(t, pidfile, 2)
			time.Sleep(500 * time.Millisecond) // into the test: 280 steps of at least 10 ms
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			proctest.CheckGone(t, "after "+sig.String(), pids[:1])
			if sig == syscall.SIGKILL {
				syscall.Kill(pids[1], syscall.SIGKILL) // the sleeper: no signal reaches it (docs/protocol.md)
				return
			}
			proctest.CheckGone(t, "after "+sig.String(), pids[1:])
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 128+int(syscall.SIGTERM) {
				t.Errorf("anynt ended with %v; want exit status %d", err, 128+int(syscall.SIGTERM))
			}
			if !strings.Contains(errw.String(), `anynt was interrupted: anynt received the signal "terminated"; the agent was ended`) {
				t.Errorf("stderr does not say the agent was ended:\n%s", errw.String())
			}
			rows := readRows(t, out.String())
			if n := len(rows); n < 2 || rows[n-1].Kind != "summary" || !strings.Contains(rows[n-2].Fault, "anynt was interrupted") {
				t.Errorf("the report lacks the interrupted item or the summary:\n%s", out.String())
			}
		})
	}
}

// builtinSignalChild names, in the environment, the marker file of the
// anynt test that TestSignalStopsBuiltInAgents runs in a child process.
const builtinSignalChild = "ANYNT_TEST_SIGNAL_BUILTIN"

// quitter is an agent outside anynt that gives up at the first step of
// every exercise (a fault), writing a line to its marker file first; under
// --on-fault continue it is restarted for each of the 7 items, so that it
// is done after 7 lines, and the built-in agents' part of the test begins.
const quitter = `import sys
for line in sys.stdin:
    if line.startswith('{"type":"hello"'):
        print('{"type":"hello","protocol":"anynt/1","name":"quitter"}', flush=True)
    elif line.startswith('{"type":"observe"'):
        with open(sys.argv[1], "a") as f:
            f.write("gave up\n")
        print('{"type":"error","message":"giving up"}', flush=True)
    elif line.startswith('{"type":"bye"'):
        break
`

// A signal that comes once the agents outside anynt are done stops the
// built-in agents too: anynt does not play the rest of a long test (here
// several seconds) but writes the report of the items every agent took and
// exits with 128+15 at once.
func TestSignalStopsBuiltInAgents(t *testing.T) {
	if marker := os.Getenv(builtinSignalChild); marker != "" {
		agent := filepath.Join(filepath.Dir(marker), "quitter.py")
		// The first item (20 interactions an episode) takes about a
		// seventeenth of the test (350), here about 0.4 s of 7 s, and under
		// the race detector 0.8 s of 14 s: the signal, 3 s into the
		// built-in agents' part, comes after the first item and long
		// before the last, whether the machine is fast or busy.
		episodes := "50000"
		if raceDetector {
			episodes = "4000"
		}
		out, errw, code := anynt(t, "", "test", "--agent-cmd", python(t)+agent+" "+marker, "--on-fault", "continue",
			"--agent", "qlearning,random,stay,follower,oracle,modulator", "--episodes", episodes, "--tests", "1", "--json")
		os.Stdout.WriteString(out)
		os.Stderr.WriteString(errw)
		os.Exit(code)
	}
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(filepath.Join(dir, "quitter.py"), []byte(quitter), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalStopsBuiltInAgents$")
	cmd.Env = append(os.Environ(), builtinSignalChild+"="+marker)
	var out, errw strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(marker)
		if strings.Count(string(b), "\n") == 7 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the agent outside anynt did not give up on the 7 items; stderr:\n%s", errw.String())
		}
	}
	time.Sleep(3 * time.Second) // into the built-in agents' part: its first items are done
	cmd.Process.Signal(syscall.SIGTERM)
	ended := make(chan error, 1)
	go func() { ended <- cmd.Wait() }()
	var err error
	select {
	case err = <-ended:
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		<-ended
		t.Fatal("anynt went on with the built-in agents for 5 s after SIGTERM")
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("anynt ended with %v; want exit status %d; stderr:\n%s", err, 128+int(syscall.SIGTERM), errw.String())
	}
	rows := readRows(t, out.String())
	if n := len(rows); n == 0 || rows[n-1].Kind != "summary" {
		t.Fatalf("no report; stdout:\n%s\nstderr:\n%s", out.String(), errw.String())
	}
	items := map[string][]string{}
	for _, r := range rows {
		if r.Kind == "item" {
			items[r.Agent] = append(items[r.Agent], r.Name)
		}
	}
	if len(items) != 7 || len(items["quitter"]) == 0 || len(items["quitter"]) >= 7 {
		t.Errorf("the report's items by agent: %v; want some, not all 7, for each of the 7 agents", items)
	}
	for a, names := range items {
		if !slices.Equal(names, items["quitter"]) {
			t.Errorf("%s took %v; the agent outside anynt %v: want the same items", a, names, items["quitter"])
		}
	}
	if !strings.Contains(errw.String(), "the test was stopped before its last item") {
		t.Errorf("stderr does not say the test was stopped:\n%s", errw.String())
	}
}

// batchSignalChild names, in the environment, the agent's pid file of the
// anynt test that TestAgentBatchSignal runs in a child process.
const batchSignalChild = "ANYNT_TEST_BATCH_SIGNAL_PIDS"

// A signal in batches is as one at a time: the agent and what it started
// are ended, every item of the round under way (up to the 4 in flight) is
// marked interrupted, the items over keep their outcomes, the report is
// written and anynt exits with 128+15.
func TestAgentBatchSignal(t *testing.T) {
	if pidfile := os.Getenv(batchSignalChild); pidfile != "" {
		out, errw, code := anynt(t, "", "test", "--agent-cmd", python(t)+agents+"spawner.py "+pidfile+" stubborn", "--agent-batch", "4", "--tests", "1", "--json")
		os.Stdout.WriteString(out)
		os.Stderr.WriteString(errw)
		os.Exit(code)
	}
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^TestAgentBatchSignal$")
	cmd.Env = append(os.Environ(), batchSignalChild+"="+pidfile)
	var out, errw strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := proctest.ReadPids(t, pidfile, 2)
	time.Sleep(500 * time.Millisecond) // into the test: about 100 rounds of at least 10 ms
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	proctest.CheckGone(t, "after SIGTERM", pids)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 128+int(syscall.SIGTERM) {
		t.Errorf("anynt ended with %v; want exit status %d", err, 128+int(syscall.SIGTERM))
	}
	rows := readRows(t, out.String())
	interrupted := 0
	for _, r := range rows {
		if r.Kind == "item" && r.Fault != "" {
			interrupted++
			if !strings.Contains(r.Fault, "anynt was interrupted") || !strings.Contains(r.Fault, "of its round") {
				t.Errorf("%s: fault %q; want the interruption of its round", r.Name, r.Fault)
			}
		}
	}
	if n := len(rows); n < 2 || rows[n-1].Kind != "summary" || interrupted < 1 || interrupted > 4 {
		t.Errorf("%d items interrupted; want the 1 to 4 in flight, and the summary:\n%s", interrupted, out.String())
	}
}
