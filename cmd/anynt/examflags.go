package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// examFlags decide how the agents take the items and how the report is
// written, which anynt test and anynt results share.
type examFlags struct {
	agents            []string
	episodes          int
	pace, score, html string
	tau, lambda       float64
	json, csv, quiet  bool
	q                 qlearningFlags
	// report are the flags the report reads, all but the forms --json and
	// --csv: an export of results refuses them. protocolOnly are those
	// only a protocol's test reads (the episodes and time of an item, and
	// --quiet): the adaptive test plays each environment once in its own
	// time, and prints its trajectory.
	report, protocolOnly flagGroup
}

// register adds the flags, the agents by default agents.
func (x *examFlags) register(f flagDefs, agents []string) {
	d := exam.DefaultSettings
	f.in(&x.report, func(f flagDefs) {
		specListVar(f, &x.agents, "agent", agents, "the agents, a list (comma-separated or repeated), each a name with, for qlambda, sarsalambda, hlq and freq, optional settings name:key=value,...; the first is the paired differences' baseline")
		f.in(&x.protocolOnly, func(f flagDefs) {
			f.IntVar(&x.episodes, "episodes", d.Episodes, fmt.Sprintf("episodes of each item (1 to %d)", exam.MaxEpisodes))
		})
		f.StringVar(&x.pace, "pace", d.Pace.String(), "the delay before each action: constant:D, uniform:A:B or exponential:MEAN seconds")
		f.in(&x.protocolOnly, func(f flagDefs) {
			f.Float64Var(&x.tau, "tau", d.Tau, "the test time of an item in seconds; 0: its interactions × the pace's mean delay")
		})
		f.Float64Var(&x.lambda, "lambda", d.Lambda, "the discount of V|γ|τ, in (0, 1)")
		f.StringVar(&x.score, "score", string(d.Score), "the payoff that scores an item: "+exam.ScoreNames())
		x.q.register(f)
		f.StringVar(&x.html, "html", "", "write a self-contained HTML report with plots to FILE")
		f.in(&x.protocolOnly, func(f flagDefs) {
			f.BoolVar(&x.quiet, "quiet", false, "print no table and no progress line")
		})
	})
	f.BoolVar(&x.json, "json", false, "print JSON lines: one for each agent and item, one summary for each agent")
	f.BoolVar(&x.csv, "csv", false, "print CSV: a row for each agent and item")
}

// checkQLearning refuses Q-learning's settings when no agent is
// Q-learning.
func (x *examFlags) checkQLearning() error {
	return x.q.check(slices.Contains(x.agents, "qlearning"), "the agents "+strings.Join(x.agents, ", ")+" have")
}

// settings checks the flags that do not depend on the protocol (tests
// being the test's --tests) and turns them into the exam's settings and
// examinees.
func (x *examFlags) settings(tests int, outside *outsideFlags) (exam.Settings, []exam.Examinee, []report.Agent, error) {
	s := exam.DefaultSettings
	s.Episodes, s.Tau, s.Lambda, s.Score = x.episodes, x.tau, x.lambda, exam.Score(x.score)
	var err error
	if s.Pace, err = exam.ParsePace(x.pace); err != nil {
		return s, nil, nil, usage(fmt.Errorf("--pace: %w", err))
	}
	if err := s.Validate(); err != nil {
		return s, nil, nil, usage(err)
	}
	if err := checkBound("--tests", tests, 1, maxTests); err != nil {
		return s, nil, nil, err
	}
	if len(x.agents) == 0 && len(outside.commands) == 0 {
		return s, nil, nil, usage(fmt.Errorf("--agent: no agent given"))
	}
	s.ContinueAfterFault = outside.onFault == "continue"
	var as []report.Agent
	for i, name := range x.agents {
		if slices.Contains(x.agents[:i], name) {
			return s, nil, nil, usage(fmt.Errorf("--agent: %s is named twice", name))
		}
		as = append(as, report.AgentOf(name, x.q.settings))
	}
	xs, err := exam.Examinees(x.agents, x.q.settings)
	if err != nil {
		return s, nil, nil, usage(fmt.Errorf("--agent: %w", err))
	}
	return s, xs, as, nil
}

// checkTestSize bounds the scores kept and the interactions played.
func checkTestSize(items []exam.Item, agents int, s exam.Settings) error {
	scores := len(items) * agents * s.Episodes
	if scores > maxTestScores {
		return usage(fmt.Errorf("items × agents × episodes is %d; at most %d", scores, maxTestScores))
	}
	var steps int
	for _, it := range items {
		steps += it.Steps
	}
	if steps*agents*s.Episodes > maxTestInteract {
		return usage(fmt.Errorf("the test would play %d interactions; at most %d", steps*agents*s.Episodes, maxTestInteract))
	}
	return nil
}

// writeTestReport writes the report in the forms the flags ask for; a file
// or stream that cannot be written exits with exitIO.
func writeTestReport(io *stdio, rep *report.Report, x examFlags) error {
	if x.html != "" {
		var b bytes.Buffer
		if err := rep.WriteHTML(&b); err != nil {
			return err
		}
		if err := writeSource(x.html, b.Bytes()); err != nil {
			return err
		}
	}
	var err error
	switch {
	case x.json:
		err = rep.WriteJSON(io.out)
	case x.csv:
		err = rep.WriteCSV(io.out)
	case !x.quiet:
		err = rep.WriteText(io.out)
	}
	if err != nil {
		return ioFailure(err)
	}
	return nil
}
