//go:build linux

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

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
			proctest.WaitFile(t, pidfile+".playing") // into the test: the agent answered an observe
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

// quitter is an agent outside anynt that gives up at the first step of
// every exercise (a fault); under --on-fault continue it is restarted for
// each of the 7 items, so that it is done after 7, and the built-in
// agents' part of the test begins.
const quitter = `import sys
for line in sys.stdin:
    if line.startswith('{"type":"hello"'):
        print('{"type":"hello","protocol":"anynt/1","name":"quitter"}', flush=True)
    elif line.startswith('{"type":"observe"'):
        print('{"type":"error","message":"giving up"}', flush=True)
    elif line.startswith('{"type":"bye"'):
        break
`

// A signal that comes once the agents outside anynt are done stops the
// built-in agents too: anynt does not play the rest of a long test but
// writes the report of the items every agent took and exits with 128+15
// at once. The signal comes when the progress line shows the quitter's 7
// items and 12 of the built-in agents' 42 taken (their two smallest
// items, about a twentieth of their work).
func TestSignalStopsBuiltInAgents(t *testing.T) {
	beSignalChild(t)
	agent := filepath.Join(t.TempDir(), "quitter.py")
	if err := os.WriteFile(agent, []byte(quitter), 0o644); err != nil {
		t.Fatal(err)
	}
	episodes := "10000"
	if raceDetector {
		episodes = "1000"
	}
	out, errw, code := signalAt(t, "TestSignalStopsBuiltInAgents", []string{"test", "--agent-cmd", python(t) + agent, "--on-fault", "continue",
		"--agent", "qlearning,random,stay,follower,oracle,modulator", "--episodes", episodes, "--tests", "1", "--json"}, 7+12)
	if code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d; want %d; stderr:\n%s", code, 128+int(syscall.SIGTERM), errw)
	}
	checkStoppedReport(t, out, errw, 7)
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
	proctest.WaitFile(t, pidfile+".playing") // into the test: the agent answered a round
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
