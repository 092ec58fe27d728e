package main

import (
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"github.com/spf13/pflag"
)

// maxAgentTimeout bounds --agent-timeout and --agent-test-timeout: a week.
const maxAgentTimeout = 7 * 24 * time.Hour

// outsideFlags are the flags of an agent outside anynt (docs/protocol.md).
type outsideFlags struct {
	commands             []string
	timeout, testTimeout time.Duration
	onFault              string
	batch                int // --agent-batch, test only; 0 where it is not a flag
}

func (o *outsideFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&o.commands, "agent-cmd", nil, `an agent outside anynt: the command that runs it (split as a shell would, not run by one), spoken to by the protocol of docs/protocol.md; repeat it for several agents (test)`)
	f.DurationVar(&o.timeout, "agent-timeout", agentproto.DefaultTimeout, "the time --agent-cmd has to answer each message; past it, it is killed (a fault)")
	f.DurationVar(&o.testTimeout, "agent-test-timeout", 0, "the time --agent-cmd has for the whole test; 0: no limit")
	f.StringVar(&o.onFault, "on-fault", "stop", "after a fault of --agent-cmd: stop (the report covers the items up to it) or continue (a new process for the next item)")
}

// registerBatch adds --agent-batch, which anynt test has and anynt run
// has not: run plays one environment's episodes, one after another.
func (o *outsideFlags) registerBatch(f *pflag.FlagSet) {
	f.IntVar(&o.batch, "agent-batch", 1, fmt.Sprintf("the items --agent-cmd takes at once, 1 to %d: above 1, one message carries the observations of up to that many items and the agent answers their actions in one (docs/protocol.md, Batches); the agent must accept batches in its hello", agentproto.MaxBatch))
}

// check refuses the agent's flags without the agent, and values out of
// range.
func (o *outsideFlags) check(changed func(string) bool, adaptive bool) error {
	if len(o.commands) == 0 || adaptive {
		for _, name := range []string{"agent-cmd", "agent-timeout", "agent-test-timeout", "on-fault", "agent-batch"} {
			if changed(name) && (adaptive || name != "agent-cmd") {
				if adaptive {
					return usage(fmt.Errorf("--%s means nothing to the adaptive test (docs/protocol.md)", name))
				}
				return usage(fmt.Errorf("--%s is a setting of --agent-cmd, which is not given", name))
			}
		}
	}
	if slices.Contains(o.commands, "") {
		return usage(errors.New("--agent-cmd: the command is empty"))
	}
	switch {
	case o.timeout <= 0 || o.timeout > maxAgentTimeout:
		return usage(fmt.Errorf("--agent-timeout is %v; it must be above 0 and at most %v", o.timeout, maxAgentTimeout))
	case o.testTimeout < 0 || o.testTimeout > maxAgentTimeout:
		return usage(fmt.Errorf("--agent-test-timeout is %v; it must be 0 (no limit) to %v", o.testTimeout, maxAgentTimeout))
	case o.onFault != "stop" && o.onFault != "continue":
		return usage(fmt.Errorf("--on-fault is %q; it must be stop or continue", o.onFault))
	case changed("agent-batch") && (o.batch < 1 || o.batch > agentproto.MaxBatch):
		return usage(fmt.Errorf("--agent-batch is %d; it must be 1 to %d", o.batch, agentproto.MaxBatch))
	}
	return nil
}

// start starts an agent, guarded by g, and shakes hands with it; it is named as it names
// itself, unless another agent of the test (taken) has that name. A
// command that cannot be split is a usage error, an agent that cannot
// start or fails the handshake exits with exitAgent.
func (o *outsideFlags) start(io *stdio, g *guard, command string, taken []string) (exam.Examinee, report.Agent, error) {
	p, err := agentproto.Start(command, agentproto.Options{Timeout: o.timeout, TestTimeout: o.testTimeout, Stderr: io.err,
		Tool: "anynt " + versionString(), Batch: o.batch})
	if errors.Is(err, agentproto.ErrCommand) {
		return exam.Examinee{}, report.Agent{}, usage(fmt.Errorf("--agent-cmd: %w", err))
	}
	if err != nil {
		return exam.Examinee{}, report.Agent{}, agentFault(err)
	}
	g.add(p)
	name := p.Name
	if name == "" {
		name = "agent-cmd"
	}
	if slices.Contains(taken, name) {
		name = "agent-cmd:" + name
	}
	for k := 2; slices.Contains(taken, name); k++ {
		name = fmt.Sprintf("agent-cmd%d:%s", k, p.Name)
	}
	return exam.Examinee{Name: name, Process: p}, report.Agent{Name: name, Command: command, Batch: p.Batch()}, nil
}

// guard ends the agents outside anynt when anynt receives SIGINT, SIGTERM
// or SIGHUP: each agent's process group is ended at once (package
// agentproto), the test stops where it was as at a fault, the report of
// what was measured is written, and anynt exits with 128 + the signal's
// number, as a shell reports a command ended by it. A signal that comes
// while the built-in agents take the test closes stopped
// (exam.Settings.Stop): they take no further item. A second signal ends
// anynt at once (its default action), and the kernel then ends the agents
// (agentproto's parent-death signal, on Linux).
type guard struct {
	signals chan os.Signal
	done    chan struct{}
	stopped chan struct{} // closed on a signal
	mu      sync.Mutex
	agents  []*agentproto.Process
	sig     os.Signal
}

func newGuard() *guard {
	g := &guard{signals: make(chan os.Signal, 1), done: make(chan struct{}), stopped: make(chan struct{})}
	signal.Notify(g.signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case sig := <-g.signals:
			signal.Stop(g.signals)
			g.mu.Lock()
			defer g.mu.Unlock()
			g.sig = sig
			for _, p := range g.agents {
				p.Interrupt(sig)
			}
			close(g.stopped)
		case <-g.done:
		}
	}()
	return g
}

// add guards an agent's process.
func (g *guard) add(p *agentproto.Process) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.agents = append(g.agents, p)
	if g.sig != nil {
		p.Interrupt(g.sig)
	}
}

// stop stops catching signals; it returns the error that exits with the
// signal's status when one came, else err.
func (g *guard) stop(err error) error {
	signal.Stop(g.signals)
	close(g.done)
	g.mu.Lock()
	defer g.mu.Unlock()
	n, ok := g.sig.(syscall.Signal)
	if g.sig == nil || !ok {
		return err
	}
	if err == nil {
		err = fmt.Errorf("anynt received the signal %q after the test", g.sig)
	}
	return &signalError{sig: n, err: err}
}
