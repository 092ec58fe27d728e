package main

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/anynt/anynt/agentproto"
)

// guard stops a test, or a run of an agent outside anynt, when anynt
// receives SIGINT, SIGTERM or SIGHUP: the report of what was measured is
// written, and anynt exits with 128 + the signal's number, as a shell
// reports a command ended by it. Each agent outside anynt has its process
// group ended at once (package agentproto), from before its handshake on,
// and the test stops where it was as at a fault. The built-in agents find
// stopped closed (exam.Settings.Stop): they take no further item. A second
// signal ends anynt at once (its default action), and the kernel then
// ends the agents (agentproto's parent-death signal, on Linux).
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
