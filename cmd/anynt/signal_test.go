//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/anynt/anynt/internal/proctest"
)

// signalChildArgs names, in the environment, the command line of the
// anynt that a signal test runs as a child process: this test binary,
// which then runs anynt alone (beSignalChild).
const signalChildArgs = "ANYNT_TEST_SIGNAL_ARGS"

// beSignalChild is the child's part of a signal test: in the child, it
// runs anynt with the command line of signalChildArgs, on this process's
// standard streams, and exits with its status; in the test, it returns.
func beSignalChild(t *testing.T) {
	args := os.Getenv(signalChildArgs)
	if args == "" {
		return
	}
	var argv []string
	if err := json.Unmarshal([]byte(args), &argv); err != nil {
		t.Fatal(err)
	}
	os.Exit(run(argv, os.Stdin, os.Stdout, os.Stderr))
}

// progressLine is a progress line's count: done of total.
var progressLine = regexp.MustCompile(`(\d+)/\d+ `)

// signalAt runs anynt with args as a child process (test names the test
// whose beSignalChild runs it), its standard error a terminal so that it
// draws its progress line, and sends it SIGTERM once the line shows at
// least done units done: the event, not a pause, says that the run is as
// far as the test needs. It returns anynt's standard output, what it wrote
// to the terminal (lines end in \r\n there), and its exit status.
func signalAt(t *testing.T, test string, args []string, done int) (stdout, stderr string, status int) {
	t.Helper()
	argv, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	pty, tty := proctest.Terminal(t)
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), signalChildArgs+"="+string(argv))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child's copy alone: reading pty ends when the child exits
	read := make(chan string)
	go func() {
		var seen []byte
		signalled := false
		buf := make([]byte, 4096)
		for {
			n, err := pty.Read(buf)
			seen = append(seen, buf[:n]...)
			if m := progressLine.FindAllSubmatch(seen, -1); !signalled && len(m) > 0 {
				if k, _ := strconv.Atoi(string(m[len(m)-1][1])); k >= done {
					cmd.Process.Signal(syscall.SIGTERM)
					signalled = true
				}
			}
			if err != nil {
				read <- string(seen)
				return
			}
		}
	}()
	err = cmd.Wait()
	stderr = <-read
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return out.String(), stderr, cmd.ProcessState.ExitCode()
}

// A test of built-in agents alone that a signal stops writes the report of
// the items every agent took whole, says it was stopped, and exits with
// 128+15, as a test with an agent outside anynt does: a long run stopped
// by hand or by a batch system's time limit keeps what it measured. The
// signal comes once the progress line shows 12 of the 42 items × agents
// taken (the two smallest items, about a twentieth of the work; the rest
// takes seconds).
func TestSignalStopsATestOfBuiltInAgents(t *testing.T) {
	beSignalChild(t)
	episodes := "10000"
	if raceDetector {
		episodes = "1000"
	}
	out, errw, code := signalAt(t, "TestSignalStopsATestOfBuiltInAgents", []string{"test",
		"--agent", "qlearning,random,stay,follower,oracle,modulator", "--episodes", episodes, "--tests", "1", "--json"}, 12)
	if code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d; want %d; stderr:\n%s", code, 128+int(syscall.SIGTERM), errw)
	}
	checkStoppedReport(t, out, errw, 6)
}

// checkStoppedReport checks the report of a test that a signal stopped
// while the built-in agents took it: the same items, some and not all 7,
// for each of the agents, and the error saying the test was stopped.
func checkStoppedReport(t *testing.T, out, errw string, agents int) {
	t.Helper()
	rows := readRows(t, out)
	if n := len(rows); n == 0 || rows[n-1].Kind != "summary" {
		t.Fatalf("no report; stdout:\n%s\nstderr:\n%s", out, errw)
	}
	items := map[string][]string{}
	for _, r := range rows {
		if r.Kind == "item" {
			items[r.Agent] = append(items[r.Agent], r.Name)
		}
	}
	first := items[rows[0].Agent]
	for a, names := range items {
		if len(names) == 0 || len(names) >= 7 || !slices.Equal(names, first) {
			t.Errorf("%s took %v; %s %v: want the same items, some, not all 7", a, names, rows[0].Agent, first)
		}
	}
	if len(items) != agents {
		t.Errorf("the report's items by agent: %v; want %d agents", items, agents)
	}
	if !strings.Contains(errw, "the test was stopped before its last item") {
		t.Errorf("stderr does not say the test was stopped:\n%s", errw)
	}
}

// A signal during the handshake, to an agent that never answers hello,
// ends it at once, whatever the start's time (an hour here): anynt guards
// the agent from its start, exits with 128+15, and its message names the
// signal. A watchdog ends anynt after a minute, which fails the test.
func TestSignalDuringTheHandshake(t *testing.T) {
	beSignalChild(t)
	pidfile := filepath.Join(t.TempDir(), "pid")
	silent := python(t) + `-c 'import os, sys, time
open(sys.argv[1], "w").write(str(os.getpid()))
time.sleep(3600)' ` + pidfile
	argv, err := json.Marshal([]string{"test", "--agent-cmd", silent, "--agent-start-timeout", "1h", "--tests", "1", "--json"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSignalDuringTheHandshake$")
	cmd.Env = append(os.Environ(), signalChildArgs+"="+string(argv))
	var out, errw strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	agent := proctest.ReadPids(t, pidfile, 1) // the agent runs: the handshake is under way
	cmd.Process.Signal(syscall.SIGTERM)
	watchdog := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	cmd.Wait()
	if !watchdog.Stop() {
		t.Fatal("anynt waited for the hello's time after SIGTERM; it was killed a minute later")
	}
	proctest.CheckGone(t, "after SIGTERM", agent)
	if code := cmd.ProcessState.ExitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d; want %d", code, 128+int(syscall.SIGTERM))
	}
	if want := `at the handshake: anynt was interrupted: anynt received the signal "terminated"; the agent was ended`; !strings.Contains(errw.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errw.String())
	}
	if out.Len() != 0 {
		t.Errorf("a report of nothing measured:\n%s", out.String())
	}
}

// The adaptive test stopped by a signal reports every examinee's test as
// it stood, the same environments for each (they take the schedule
// together), says it was stopped, and exits with 128+15. The signal comes
// once the progress line shows 20 environments done, of about 13,000.
func TestSignalStopsTheAdaptiveTest(t *testing.T) {
	beSignalChild(t)
	out, errw, code := signalAt(t, "TestSignalStopsTheAdaptiveTest", []string{"test", "--adaptive",
		"--agent", "qlearning,random", "--test-time", "1000000", "--json"}, 20)
	if code != 128+int(syscall.SIGTERM) {
		t.Errorf("exit status %d; want %d; stderr:\n%s", code, 128+int(syscall.SIGTERM), errw)
	}
	type result struct {
		Kind         string  `json:"kind"`
		Agent        string  `json:"agent"`
		Environments int     `json:"environments"`
		Unused       float64 `json:"unused"`
	}
	var results []result
	for line := range strings.Lines(out) {
		var r result
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		if r.Kind == "adaptive-result" {
			results = append(results, r)
		}
	}
	if len(results) != 2 {
		t.Fatalf("%d results; want qlearning's and random's; stdout:\n%s\nstderr:\n%s", len(results), out, errw)
	}
	if n := results[0].Environments; n < 10 || n != results[1].Environments || results[0].Unused <= 0 {
		t.Errorf("results %+v; want the same environments for both, at least 10, with time unused", results)
	}
	if !strings.Contains(errw, "the test was stopped before its last item: every examinee's test is reported as it stood at") {
		t.Errorf("stderr does not say the test was stopped:\n%s", errw)
	}
}
