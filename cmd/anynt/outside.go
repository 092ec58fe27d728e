package main

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// maxAgentTimeout bounds --agent-timeout, --agent-start-timeout and
// --agent-test-timeout: a week.
const maxAgentTimeout = 7 * 24 * time.Hour

// outsideFlags are the flags of an agent outside anynt (docs/protocol.md).
type outsideFlags struct {
	commands                           []string
	timeout, startTimeout, testTimeout time.Duration
	onFault                            string
	batch                              int // --agent-batch, test only; 0 where it is not a flag
	// all are the flags of the group, settings those that set up an
	// agent that --agent-cmd names.
	all, settings flagGroup
}

func (o *outsideFlags) register(f flagDefs) {
	f.in(&o.all, func(f flagDefs) {
		f.StringArrayVar(&o.commands, "agent-cmd", nil, `an agent outside anynt: the command that runs it (split as a shell would, not run by one), spoken to by the protocol of docs/protocol.md; repeat it for several agents (test)`)
		f.in(&o.settings, func(f flagDefs) {
			f.DurationVar(&o.timeout, "agent-timeout", agentproto.DefaultTimeout, "the time --agent-cmd has to answer each message; past it, it is killed (a fault)")
			f.DurationVar(&o.startTimeout, "agent-start-timeout", agentproto.DefaultStartTimeout, "the time --agent-cmd has to start and answer hello (loading a model, say); past it, it is killed (a fault)")
			f.DurationVar(&o.testTimeout, "agent-test-timeout", 0, "the time --agent-cmd has for the whole test; 0: no limit")
			f.StringVar(&o.onFault, "on-fault", "stop", "after a fault of --agent-cmd: stop (the report covers the items up to it) or continue (a new process for the next item)")
		})
	})
}

// registerBatch adds --agent-batch, which anynt test has and anynt run
// has not: run plays one environment's episodes, one after another.
func (o *outsideFlags) registerBatch(f flagDefs) {
	f.in(&o.all, func(f flagDefs) {
		f.in(&o.settings, func(f flagDefs) {
			f.IntVar(&o.batch, "agent-batch", 1, fmt.Sprintf("the items --agent-cmd takes at once, 1 to %d: above 1, one message carries the observations of up to that many items and the agent answers their actions in one (docs/protocol.md, Batches); the agent must accept batches in its hello", agentproto.MaxBatch))
		})
	})
}

// check refuses the agent's flags without the agent, and values out of
// range.
func (o *outsideFlags) check(adaptive bool) error {
	if name := o.all.given(); adaptive && name != "" {
		return usage(fmt.Errorf("--%s means nothing to the adaptive test (docs/protocol.md)", name))
	}
	if name := o.settings.given(); len(o.commands) == 0 && name != "" {
		return usage(fmt.Errorf("--%s is a setting of --agent-cmd, which is not given", name))
	}
	if slices.Contains(o.commands, "") {
		return usage(errors.New("--agent-cmd: the command is empty"))
	}
	switch {
	case o.timeout <= 0 || o.timeout > maxAgentTimeout:
		return usage(fmt.Errorf("--agent-timeout is %v; it must be above 0 and at most %v", o.timeout, maxAgentTimeout))
	case o.startTimeout <= 0 || o.startTimeout > maxAgentTimeout:
		return usage(fmt.Errorf("--agent-start-timeout is %v; it must be above 0 and at most %v", o.startTimeout, maxAgentTimeout))
	case o.testTimeout < 0 || o.testTimeout > maxAgentTimeout:
		return usage(fmt.Errorf("--agent-test-timeout is %v; it must be 0 (no limit) to %v", o.testTimeout, maxAgentTimeout))
	case o.onFault != "stop" && o.onFault != "continue":
		return usage(fmt.Errorf("--on-fault is %q; it must be stop or continue", o.onFault))
	case o.settings.changed("agent-batch") && (o.batch < 1 || o.batch > agentproto.MaxBatch):
		return usage(fmt.Errorf("--agent-batch is %d; it must be 1 to %d", o.batch, agentproto.MaxBatch))
	}
	return nil
}

// start starts an agent, guarded by g from before its handshake, and
// shakes hands with it; it is named as it names itself, unless another agent of the test (taken) has that name. A
// command that cannot be split is a usage error, an agent that cannot
// start or fails the handshake exits with exitAgent.
func (o *outsideFlags) start(io *stdio, g *guard, command string, taken []string) (exam.Examinee, report.Agent, error) {
	p, err := agentproto.New(command, agentproto.Options{Timeout: o.timeout, StartTimeout: o.startTimeout, TestTimeout: o.testTimeout, Stderr: io.err,
		Tool: "anynt " + versionString(), Batch: o.batch})
	if err != nil {
		return exam.Examinee{}, report.Agent{}, usage(fmt.Errorf("--agent-cmd: %w", err))
	}
	g.add(p) // before the handshake, which a signal then ends at once
	if err := p.Start(); err != nil {
		return exam.Examinee{}, report.Agent{}, agentFault(err)
	}
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
