package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// adaptiveFlags are the settings of `anynt test --adaptive`
// (docs/tests.md, "The adaptive anytime test"). register adds the flags
// only this test has; the pace, the payoff and λ, which every test shares,
// are the command's own flags, copied into settings.Pace, settings.Score and
// settings.Lambda before runAdaptive.
type adaptiveFlags struct {
	settings exam.AdaptiveSettings
	// qlearning holds Q-learning's settings when an examinee is
	// Q-learning, for the output to name them; the command sets it.
	qlearning *qSettings
	// html names the file of the HTML page, if any, and agents the
	// examinees with their settings for it; the command sets them.
	html   string
	agents []report.Agent
	// ladder names Λ_one's ladder (adaptiveLadders) when no pool is given.
	ladder string
	// group is the flags only the adaptive test reads.
	group flagGroup
}

// adaptiveLadders are the Λ_one ladders --ladder names.
var adaptiveLadders = map[string]exam.Ladder{"cells": exam.LambdaOneLadder{}, "k-approx": exam.KApproxLadder{}}

// newAdaptiveFlags gives the defaults of exam.DefaultAdaptive.
func newAdaptiveFlags() adaptiveFlags {
	return adaptiveFlags{settings: exam.DefaultAdaptive, ladder: "cells"}
}

func (fl *adaptiveFlags) register(f flagDefs) {
	s := &fl.settings
	f.in(&fl.group, func(f flagDefs) {
		f.Float64Var(&s.Tau, "test-time", s.Tau, "--adaptive: the whole test's time, in simulated seconds")
		f.Float64Var(&s.First, "first-time", s.First, "--adaptive: the first environment's time, in seconds")
		f.Float64Var(&s.Growth, "time-step", s.Growth, "--adaptive: the seconds each environment gets more than the one before")
		f.Float64Var(&s.Longest, "max-time", s.Longest, "--adaptive: the longest an environment is given, in seconds (inf: no cap)")
		f.StringVar(&fl.ladder, "ladder", fl.ladder, "--adaptive: Λ_one's ladder, by cells or by k-approx (FILEs and --generate cut their own)")
		f.Float64Var(&s.Up, "up", s.Up, "--adaptive: the level goes up after a score of at least this")
		f.Float64Var(&s.Down, "down", s.Down, "--adaptive: the level goes down after a score below this")
	})
}

// runAdaptiveTest gives the adaptive test with the command's shared
// settings: the agents, the pace, the payoff and λ. A signal stops it as
// it stops a protocol's test: the examinees take no further environment,
// the test is reported as it stood, and anynt exits with 128 + n.
func runAdaptiveTest(io *stdio, fl testFlags) (err error) {
	x := fl.exam
	pace, err := exam.ParsePace(x.pace)
	if err != nil {
		return usage(fmt.Errorf("--pace: %w", err))
	}
	a := fl.adaptiveTest
	a.settings.Pace, a.settings.Score, a.settings.Lambda = pace, exam.Score(x.score), x.lambda
	_, examinees, agents, err := x.settings(fl.draw.tests, &fl.outside)
	if err != nil {
		return err
	}
	a.html, a.agents = x.html, agents
	if slices.Contains(x.agents, "qlearning") {
		a.qlearning = x.q.json()
	}
	if err := a.poolLadder(fl.draw); err != nil {
		return err
	}
	g := newGuard()
	defer func() { err = g.stop(err) }()
	a.settings.Stop = g.stopped
	form := adaptiveText
	switch {
	case x.json && x.csv:
		return usage(fmt.Errorf("--json and --csv both print the trajectories; choose one"))
	case x.json:
		form = adaptiveJSONLines
	case x.csv:
		form = adaptiveCSV
	}
	return runAdaptive(io, examinees, a, fl.draw.seed, form)
}

// poolLadder sets the ladder cut from a pool, given FILEs and folders or
// --generate; without them the test climbs one of Λ_one's ladders.
func (fl *adaptiveFlags) poolLadder(d drawFlags) error {
	if len(d.files) == 0 && !d.battery.changed("generate") {
		return d.battery.checkNotGenerated("")
	}
	pool, err := poolOf(d.files, d.battery)
	if err != nil {
		return err
	}
	ladder, err := exam.NewPoolLadder(pool)
	if err != nil {
		return usage(err)
	}
	fl.settings.Ladder = ladder
	return nil
}

// adaptiveForm is how runAdaptive prints.
type adaptiveForm int

const (
	adaptiveText adaptiveForm = iota
	adaptiveJSONLines
	adaptiveCSV
)

// runAdaptive gives the adaptive test of seed to the examinees and prints
// each one's trajectory and final score, as a table, JSON lines or CSV.
func runAdaptive(io *stdio, examinees []exam.Examinee, fl adaptiveFlags, seed uint64, form adaptiveForm) error {
	s := fl.settings
	if err := s.Validate(); err != nil {
		return usage(fmt.Errorf("--adaptive: %w", err))
	}
	switch named, ok := adaptiveLadders[fl.ladder]; {
	case !ok:
		return usage(fmt.Errorf("--ladder: no ladder %q (the ladders: cells, k-approx)", fl.ladder))
	case s.Ladder != nil && fl.ladder != "cells":
		return usage(fmt.Errorf("--ladder %s is one of Λ_one's ladders; FILEs and --generate cut a ladder from their pool", fl.ladder))
	case s.Ladder == nil:
		s.Ladder = named
	}
	bar := newProgress(io.err, "environments", s.Environments()*len(examinees)) // on a terminal only
	if bar != nil {
		s.Progress = bar.update
	}
	results, err := exam.TakeAdaptive(examinees, s, seed)
	bar.clear()
	var failed *exam.AgentError
	switch {
	case errors.Is(err, exam.ErrNoItems):
		return usage(errors.New("--adaptive: no agent to test"))
	case errors.Is(err, exam.ErrStopped) && len(results[0].Steps) == 0:
		return err // stopped before any environment: nothing to report
	case errors.As(err, &failed):
		// The results are written, then the exit status says an agent
		// failed (optimal that could not plan) or a signal stopped the
		// test.
		err = failed
	case err != nil:
		return err
	}
	if err := writeAdaptiveReport(io, fl, s, seed, form, results); err != nil {
		return err
	}
	return err
}
