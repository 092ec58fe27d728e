package main

import (
	"errors"
	"fmt"
	"slices"
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
}

func (o *outsideFlags) register(f *pflag.FlagSet) {
	f.StringArrayVar(&o.commands, "agent-cmd", nil, `an agent outside anynt: the command that runs it (split as a shell would, not run by one), spoken to by the protocol of docs/protocol.md; repeat it for several agents (test)`)
	f.DurationVar(&o.timeout, "agent-timeout", agentproto.DefaultTimeout, "the time --agent-cmd has to answer each message; past it, it is killed (a fault)")
	f.DurationVar(&o.testTimeout, "agent-test-timeout", 0, "the time --agent-cmd has for the whole test; 0: no limit")
	f.StringVar(&o.onFault, "on-fault", "stop", "after a fault of --agent-cmd: stop (the report covers the items up to it) or continue (a new process for the next item)")
}

// check refuses the agent's flags without the agent, and values out of
// range.
func (o *outsideFlags) check(changed func(string) bool, adaptive bool) error {
	if len(o.commands) == 0 || adaptive {
		for _, name := range []string{"agent-cmd", "agent-timeout", "agent-test-timeout", "on-fault"} {
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
	}
	return nil
}

// start starts an agent and shakes hands with it; it is named as it names
// itself, unless another agent of the test (taken) has that name. A
// command that cannot be split is a usage error, an agent that cannot
// start or fails the handshake exits with exitAgent.
func (o *outsideFlags) start(io *stdio, command string, taken []string) (exam.Examinee, report.Agent, error) {
	p, err := agentproto.Start(command, agentproto.Options{Timeout: o.timeout, TestTimeout: o.testTimeout, Stderr: io.err,
		Tool: "anynt " + versionString()})
	if errors.Is(err, agentproto.ErrCommand) {
		return exam.Examinee{}, report.Agent{}, usage(fmt.Errorf("--agent-cmd: %w", err))
	}
	if err != nil {
		return exam.Examinee{}, report.Agent{}, &exitError{code: exitAgent, err: err}
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
	return exam.Examinee{Name: name, Process: p}, report.Agent{Name: name, Command: command}, nil
}
