//go:build linux

package agentproto_test

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/proctest"
)

// An agent that writes a line when no answer is expected is at fault
// where it wrote it: a second act after step 3's is not taken as step 4's
// answer (the stream would go on one step late), and one after the last
// step is found before end. An error message then is the agent giving up.
// (The lines are written in one write, so that both are in the pipe when
// anynt reads the first: the test does not depend on the agent's speed.)
func TestExtraLineIsAFaultWhereItWasWritten(t *testing.T) {
	it := exercise(t, 1) // 20 steps
	tests := []struct {
		fault string
		step  int
		kind  error
		quote string
	}{
		{"twice", 3, agentproto.ErrUnexpected, `written after its act of step 3, before the agent read anynt's next message; the line: "{\"type\": \"act\", \"action\": 0}"`},
		{"twice", it.Steps, agentproto.ErrUnexpected, "written after its act of step 20"},
		{"giveup", 3, agentproto.ErrGaveUp, `"enough"`},
	}
	for _, tt := range tests {
		cmd := python(t) + " testdata/faulty.py " + tt.fault + " 1 " + strconv.Itoa(tt.step)
		p, err := agentproto.Start(cmd, agentproto.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ep := playEpisode(p, it, 0)
		p.Close()
		var f *agentproto.Fault
		if !errors.As(ep.Fault(), &f) || !errors.Is(f, tt.kind) || f.Exercise != it.Name || f.Step != tt.step || !strings.Contains(f.Error(), tt.quote) {
			t.Errorf("%s at step %d: fault %v; want %v at step %d of %s, saying %s", tt.fault, tt.step, ep.Fault(), tt.kind, tt.step, it.Name, tt.quote)
			continue
		}
		if ep.Times().Actions != tt.step {
			t.Errorf("%s at step %d: %d answers counted; want the %d before the extra line", tt.fault, tt.step, ep.Times().Actions, tt.step)
		}
	}
}

// An agent that exits while a process it started holds its output is
// reported by its exit status at once, not as silent until the timeout
// (an hour: a minute, however loaded the machine, is not at once).
func TestExitStatusComesFirst(t *testing.T) {
	begin := time.Now()
	_, err := agentproto.Start("sh -c 'sleep 1000 & exit 1'", agentproto.Options{Timeout: time.Hour, StartTimeout: time.Hour})
	if !errors.Is(err, agentproto.ErrCrash) || !strings.Contains(err.Error(), "exit status 1") {
		t.Errorf("Start: %v; want a crash with exit status 1", err)
	}
	if d := time.Since(begin); d > time.Minute {
		t.Errorf("the crash took %v to be reported", d)
	}
}

// An agent that exits while a process it started in a session of its own
// (setsid), out of its group, holds its input and output is reported by
// its exit status at once: anynt watches the agent's exit, not only its
// output, which that process keeps open. The timeout is an hour; the
// watchdog, a minute, ends the sleeper if the exit was not seen, which
// would let the output close and the test pass late: it fails then.
func TestAnExitIsSeenThoughAProcessOutOfTheGroupHoldsTheOutput(t *testing.T) {
	pidfile := filepath.Join(t.TempDir(), "pids")
	p, err := agentproto.Start(python(t)+" testdata/spawner.py "+pidfile+" detach", agentproto.Options{Timeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	sleeper := proctest.ReadPids(t, pidfile, 2)[1]
	defer syscall.Kill(sleeper, syscall.SIGKILL)
	var late atomic.Bool
	watchdog := time.AfterFunc(time.Minute, func() { late.Store(true); syscall.Kill(sleeper, syscall.SIGKILL) })
	ep := playEpisode(p, exercise(t, 1), 0)
	watchdog.Stop()
	var f *agentproto.Fault
	if !errors.As(ep.Fault(), &f) || !errors.Is(f, agentproto.ErrCrash) || f.Step != 1 || !strings.Contains(f.Detail, "exit status 4") {
		t.Errorf("fault %v; want a crash with exit status 4 at step 1", ep.Fault())
	}
	if late.Load() {
		t.Error("the exit was reported only once the process out of the group was ended, a minute later")
	} else if !proctest.Alive(sleeper) {
		t.Error("the process in a session of its own was ended too: the test shows nothing")
	}
}

// The agent and every process it started end when it faults, when it is
// interrupted, and when it exits after bye.
func TestTheAgentsGroupEndsWithIt(t *testing.T) {
	it := exercise(t, 1)
	t.Run("fault", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pids")
		p, err := agentproto.Start(python(t)+" testdata/spawner.py "+pidfile+" garbage", agentproto.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		pids := proctest.ReadPids(t, pidfile, 2)
		if ep := playEpisode(p, it, 0); !errors.Is(ep.Fault(), agentproto.ErrMalformed) {
			t.Fatalf("fault %v; want the garbage", ep.Fault())
		}
		proctest.CheckGone(t, "after a fault", pids)
	})
	t.Run("bye", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pids")
		p, err := agentproto.Start(python(t)+" testdata/spawner.py "+pidfile+" stay", agentproto.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if ep := playEpisode(p, it, 0); ep.Fault() != nil {
			t.Fatal(ep.Fault())
		}
		p.Close()
		proctest.CheckGone(t, "after bye", proctest.ReadPids(t, pidfile, 3))
	})
	t.Run("interrupt", func(t *testing.T) {
		pidfile := filepath.Join(t.TempDir(), "pids")
		p, err := agentproto.Start(python(t)+" testdata/spawner.py "+pidfile+" slow", agentproto.Options{Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		pids := proctest.ReadPids(t, pidfile, 2)
		it := exercise(t, 7)
		ep := p.Episode(agentproto.Exercise{Name: it.Name, Steps: it.Steps, Seed: it.Seed})
		run := env.NewPlayer(it.Env).Episode(ep, env.EpisodeSeed(it.Seed, 0))
		for step := 1; step <= it.Steps && ep.Fault() == nil; step++ {
			if step == 4 { // mid-episode, after three answers
				p.Interrupt(os.Interrupt)
			}
			run.Interact()
		}
		run.End()
		var f *agentproto.Fault
		if !errors.As(ep.Fault(), &f) || !errors.Is(f, agentproto.ErrInterrupted) || f.Step != 4 || !strings.Contains(f.Error(), `anynt received the signal "interrupt"; the agent was ended`) {
			t.Fatalf("fault %v; want an interruption at step 4", ep.Fault())
		}
		proctest.CheckGone(t, "after an interruption", pids)
		if err := p.Restart(); !errors.Is(err, agentproto.ErrInterrupted) {
			t.Errorf("Restart after an interruption: %v; want it refused", err)
		}
	})
}

// Linux sends the parent-death signal when the thread that forked the
// agent ends: an agent started from a goroutine locked to its thread,
// which then returns (so that its thread ends), must live on.
func TestTheAgentOutlivesTheThreadThatStartedIt(t *testing.T) {
	started := make(chan *agentproto.Process)
	go startLocked(t, started)
	p := <-started
	if p == nil {
		t.FailNow()
	}
	defer p.Close()
	time.Sleep(200 * time.Millisecond) // the signal, if any, has come
	if ep := playEpisode(p, exercise(t, 1), 0); ep.Fault() != nil {
		t.Errorf("the agent died with the thread that started it: %v", ep.Fault())
	}
}

// startLocked starts the random agent from a goroutine locked to a thread
// other than the main one, whose thread ends when it returns (the runtime
// keeps the main thread).
func startLocked(t *testing.T, started chan<- *agentproto.Process) {
	runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
	if syscall.Gettid() == syscall.Getpid() {
		inner := make(chan *agentproto.Process)
		go startLocked(t, inner) // this goroutine holds the main thread
		started <- <-inner
		return
	}
	p, err := agentproto.Start(python(t)+" testdata/random_agent.py", agentproto.Options{Timeout: 10 * time.Second})
	if err != nil {
		t.Error(err)
	}
	started <- p
}
