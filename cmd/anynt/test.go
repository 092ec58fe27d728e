package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"github.com/spf13/cobra"
)

// testFlags are the flags of anynt test, in groups that register and
// check themselves; a protocol, or the adaptive test, reads those it
// needs and refuses the rest.
type testFlags struct {
	draw         drawFlags // which items: the protocol, its tests, the seed, a battery
	exam         examFlags // how the agents take them, how the report is written
	outside      outsideFlags
	adaptiveTest adaptiveFlags
	bounds       bool
	adaptive     bool
	// boundsFlag is --bounds, which only a protocol's report reads.
	boundsFlag flagGroup
	shard      shardFlags // --shard K/N --out DIR: one part of the test
}

func newTestCmd(io *stdio) *cobra.Command {
	var fl testFlags
	cmd := &cobra.Command{
		Use:     "test [--protocol P | --adaptive] [--agent A,B] [--tests N] [--seed S] [--json | --csv] [--html FILE] [FILE|DIR...]",
		Short:   "Give a test to agents and report their scores",
		Long:    testLong(),
		Example: testExample,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.draw.files = args
			if err := fl.check(); err != nil {
				return err
			}
			if len(fl.outside.commands) > 0 && !fl.exam.report.changed("agent") {
				fl.exam.agents = nil // the agent outside anynt alone, unless built-in ones are named
			}
			if fl.adaptive {
				return runAdaptiveTest(io, fl)
			}
			return runTest(io, fl)
		},
	}
	f := cmd.Flags()
	defs := defsOf(f)
	fl.draw.register(defs)
	fl.exam.register(defs, []string{"random", "qlearning"})
	fl.outside.register(defs)
	fl.outside.registerBatch(defs)
	defs.in(&fl.boundsFlag, func(f flagDefs) {
		f.BoolVar(&fl.bounds, "bounds", true, "compute each item's optimum and random's expectation, and the normalised scores (--bounds=false skips it)")
	})
	f.BoolVar(&fl.adaptive, "adaptive", false, "give the adaptive anytime test instead of a protocol")
	fl.shard.register(defs)
	fl.adaptiveTest = newAdaptiveFlags()
	fl.adaptiveTest.register(defs)
	return cmd
}

// check refuses Q-learning's settings without Q-learning, a flag or a
// file that the test asked for does not read, and the outside agents'
// flags out of range.
func (fl *testFlags) check() error {
	if err := fl.exam.checkQLearning(); err != nil {
		return err
	}
	if fl.adaptive {
		if name := firstGiven(&fl.draw.choice, &fl.exam.protocolOnly, &fl.draw.battery.sampling, &fl.boundsFlag, &fl.shard.group); name != "" {
			return meaningless(name, "the adaptive test")
		}
	} else {
		if name := fl.adaptiveTest.group.given(); name != "" {
			return meaningless(name, "a protocol; it is a setting of --adaptive")
		}
		if err := fl.draw.check(); err != nil {
			return err
		}
	}
	if err := fl.shard.check(fl.exam); err != nil {
		return err
	}
	return fl.outside.check(fl.adaptive)
}

func runTest(io *stdio, fl testFlags) (err error) {
	p := protocols[fl.draw.protocol] // fl.check found it
	if fl.exam.json && fl.exam.csv {
		return usage(fmt.Errorf("--json and --csv both print the items; choose one"))
	}
	s, examinees, agents, err := fl.exam.settings(fl.draw.tests, &fl.outside)
	if err != nil {
		return err
	}
	items, err := p.items(fl.draw)
	if err != nil {
		return err
	}
	if fl.draw.protocol != "lambda-one" {
		fl.draw.tests = 1
	}
	if err := checkTestSize(items, len(examinees)+len(fl.outside.commands), s); err != nil {
		return err
	}
	// Every test catches the signals, with built-in agents alone too: a
	// long test stopped keeps what it measured (--help).
	g := newGuard()
	defer func() { err = g.stop(err) }() // after the agents' Close
	s.Stop = g.stopped
	names := slices.Clone(fl.exam.agents)
	for _, command := range fl.outside.commands {
		x, a, err := fl.outside.start(io, g, command, names)
		if err != nil {
			return err
		}
		defer x.Process.Close()
		examinees, agents, names = append(examinees, x), append(agents, a), append(names, x.Name)
	}
	return takeTest(io, fl, p, s, items, examinees, agents)
}

// takeTest gives the items to the examinees and writes the report; an
// agent's fault is reported after the items every examinee took.
func takeTest(io *stdio, fl testFlags, p protocol, s exam.Settings, items []exam.Item, examinees []exam.Examinee, agents []report.Agent) error {
	if fl.shard.out != "" {
		return takeShard(io, fl, p, s, items, examinees, agents)
	}
	var bar *progress
	if !fl.exam.quiet {
		bar = newProgress(io.err, "items", len(items)*len(examinees))
	}
	outcomes, err := exam.Take(items, examinees, s, func(done, total int) {
		if bar != nil {
			bar.total = total // smaller when an agent's fault stops the test
		}
		bar.update(done)
	})
	bar.clear()
	var failed *exam.AgentError
	if errors.As(err, &failed) {
		items = items[:failed.Items] // what every examinee took
		if len(items) == 0 {         // stopped before any item: nothing to report
			return failed
		}
	} else if err != nil {
		return usage(err)
	}
	if p.settings != nil {
		p.report.Settings = p.settings(fl.draw)
	}
	var bounds []exam.Bound
	if fl.bounds {
		if !fl.exam.quiet {
			bar = newProgress(io.err, "item scales", len(items))
		}
		bounds = exam.Bounds(items, s, bar.update)
		bar.clear()
	}
	rep, err := report.New(report.Input{Version: versionString(), Protocol: p.report, Seed: fl.draw.seed, Tests: fl.draw.tests,
		Settings: s, Agents: agents, Items: items, Outcomes: outcomes, Bounds: bounds})
	if err != nil {
		return err
	}
	if err := writeTestReport(io, rep, fl.exam); err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	return nil
}
