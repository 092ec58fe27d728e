package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/report"
)

// shardFlags are test's --shard K/N and --out DIR: give one part of the
// test, its K-th run of item–agent pairs, and keep the part in DIR for
// anynt merge.
type shardFlags struct {
	spec  string
	out   string
	k, n  int
	group flagGroup
}

func (sh *shardFlags) register(f flagDefs) {
	f.in(&sh.group, func(f flagDefs) {
		f.StringVar(&sh.spec, "shard", "1/1", "give the K-th of N parts of the test (runs of item–agent pairs), with --out")
		f.StringVar(&sh.out, "out", "", "keep this part's results in this folder, for anynt merge, instead of printing a report")
	})
}

// check reads --shard, which needs --out, and refuses the report's forms
// with --out: a part's report is merge's.
func (sh *shardFlags) check(x examFlags) error {
	var err error
	if sh.k, sh.n, err = parseShard(sh.spec); err != nil {
		return usage(fmt.Errorf("--shard: %w", err))
	}
	if sh.out == "" {
		if sh.group.changed("shard") {
			return usage(errors.New("--shard gives a part of the test, which --out DIR keeps for anynt merge"))
		}
		return nil
	}
	if x.json || x.csv || x.html != "" {
		return usage(errors.New("a part of a test (--out) prints no report: anynt merge prints the whole test's, with --json, --csv or --html"))
	}
	return nil
}

// takeShard gives the test's K-th run of item–agent pairs and keeps what
// it measured in --out: the outcomes, the scales of the items whose first
// pair is in it, and the items it touched. A part already kept whole for
// the same test is not given again.
func takeShard(io *stdio, fl testFlags, p protocol, s exam.Settings, items []exam.Item, examinees []exam.Examinee, agents []report.Agent) error {
	if p.settings != nil {
		p.report.Settings = p.settings(fl.draw)
	}
	in := report.Input{Version: versionString(), Protocol: p.report, Seed: fl.draw.seed, Tests: fl.draw.tests, Settings: s, Agents: agents, Items: items}
	k, n := fl.shard.k, fl.shard.n
	pairs := len(items) * len(examinees)
	from, to := generate.ShardRange(pairs, k, n)
	if done, err := report.PartDone(fl.shard.out, in, fl.bounds, k, n); err != nil {
		return ioFailure(err)
	} else if done {
		fmt.Fprintf(io.err, "anynt: shard %d/%d of the test is kept whole in %s already\n", k, n, fl.shard.out)
		return nil
	}
	if err := os.MkdirAll(fl.shard.out, 0o755); err != nil {
		return ioFailure(err)
	}
	var bar *progress
	if !fl.exam.quiet {
		bar = newProgress(io.err, "pairs", to-from)
	}
	outcomes, err := exam.TakeRange(items, examinees, s, from, to, func(done, _ int) { bar.update(done) })
	bar.clear()
	var failed *exam.AgentError
	var faults []error
	if errors.As(err, &failed) {
		faults = failed.Faults
	} else if err != nil {
		return usage(err)
	}
	in.Outcomes = outcomes
	if fl.bounds {
		lo, hi := exam.FirstPairs(len(examinees), from, to)
		in.Bounds = exam.Bounds(items[lo:hi], s, nil)
		// A signal during the scales leaves items without theirs: the
		// part is not whole then, and the shard is given again.
		select {
		case <-s.Stop:
			if failed == nil {
				faults = append(faults, exam.ErrStopped)
			}
		default:
		}
	}
	path, err := report.WritePart(fl.shard.out, in, fl.bounds, k, n, from, to, faults)
	if err != nil {
		return ioFailure(fmt.Errorf("writing the part: %w", err))
	}
	fmt.Fprintf(io.err, "anynt: shard %d/%d: pairs %d to %d of %d (items × agents) kept in %s\n", k, n, from, to-1, pairs, filepath.Clean(path))
	if failed != nil {
		return failed
	}
	return nil
}
