package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/version"
	"github.com/spf13/cobra"
)

// enumerateLong is enumerate's --help.
const enumerateLong = `enumerate streams environments in increasing description length, up to
--max-bits: environments of 2 to 4 actions with an explicit space and Good and
Evil following a cyclic pattern (docs/generation.md). Duplicates are skipped:
spaces equal up to renumbering cells and actions, patterns that repeat a
shorter one or act identically on the space. Each candidate goes through the
filters (it loads: syntax, bounds, a valid space; balance: the random agent's
95% interval contains 0; discrimination: the interval of the best reference
agent, by default the better of the oracle and the follower, lies above
random's); accepted ones are printed, or written to --out as BITS-INDEX.anynt,
or kept in one pack file with --pack (Zstandard frames with their index:
docs/pack.md), each then named FILE#INDEX, which check, run and test read.
With --pack the records are not printed (the pack holds them, and a cluster
task's log would copy it): standard error gets a line at each tenth of the
shard and the summary; --json prints them as well.
--limit stops after N accepted environments. --shard K/N takes the K-th of N
runs of consecutive candidates, of nearly equal length: the shards are
disjoint, and their outputs one after another are the whole stream. A shard
starts at its own part without walking the candidates before it.

--estimate enumerates nothing: it prints how many candidates the bound holds,
bit by bit (counted, not made), and the CPU time the filters will take on
them at the rate it measures on a sample of 1,000 candidates spread over the
stream (about a tenth of a second), with its 95% interval from the spread of
the sample's runs, and each shard's part when --shard K/N is given: what
sizing an array job needs (docs/cluster.md).

With --out, every file is written atomically, the folder is locked against a
second run, and an interrupted run started again with the same settings
resumes where it stopped: it checks every file already written against its
checksum, writes a missing or torn one again (saying so on standard error),
and prints no line twice. With --pack the same holds of the pack: a frame is
synced before its environments are printed, a torn end is cut off (said on
standard error) and done again, and the pack a resumed run ends with is the
uninterrupted run's, bit for bit. anynt merge joins the packs of the N
shards into the unsharded run's. A summary of this run's work, with its rate, and of
the rejections by reason ends the run on standard error.`

func newEnumerateCmd(io *stdio) *cobra.Command {
	s := generate.StreamSettings{MaxBits: 60, Shard: 1, Shards: 1, Filters: generate.DefaultFilters}
	var shard string
	var estimate bool
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "enumerate [--max-bits B] [--limit N] [--out DIR | --pack FILE] [--shard K/N] [--estimate] [--json]",
		Short: "Enumerate environments in order of description length",
		Long:  enumerateLong,
		Example: `  anynt enumerate --limit 5
  anynt enumerate --max-bits 55 --out envs --shard 1/2 --json
  anynt enumerate --max-bits 75 --estimate --shard 1/1000`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkEnumerate(&s, shard); err != nil {
				return err
			}
			if estimate {
				if s.Out != "" || s.Pack != "" || s.Limit != 0 {
					return usage(fmt.Errorf("--estimate enumerates nothing: it takes no --out, --pack or --limit"))
				}
				return runEstimate(io, s, asJSON)
			}
			return runEnumerate(io, s, asJSON)
		},
	}
	f := cmd.Flags()
	f.Float64Var(&s.MaxBits, "max-bits", s.MaxBits, "the largest description length enumerated")
	f.IntVar(&s.Limit, "limit", 0, "stop after this many accepted environments (0: no limit)")
	f.StringVar(&s.Out, "out", "", "write the environments and the resume state to this folder")
	f.StringVar(&s.Pack, "pack", "", "keep the environments in this pack file (resumable; docs/pack.md)")
	f.StringVar(&shard, "shard", "1/1", "take the K-th of N disjoint shards of the stream")
	f.BoolVar(&asJSON, "json", false, "print one JSON object a line for each accepted environment")
	f.BoolVar(&estimate, "estimate", false, "print the candidates within the bound, bit by bit, and the CPU time they will take; enumerate nothing")
	f.IntVar(&s.Filters.Episodes, "episodes", s.Filters.Episodes, "episodes of each agent in the filters")
	f.IntVar(&s.Filters.Steps, "steps", s.Filters.Steps, "interactions an episode in the filters")
	specListVar(f, &s.Filters.References, "references", s.Filters.References, "the reference agents of discrimination (the best of them must score above random)")
	f.BoolVar(&s.Filters.Sequential, "sequential", s.Filters.Sequential, "decide by the sequential test, stopping when a look knows (--sequential=false: every episode of every agent)")
	return cmd
}

// maxEnumerateBits bounds --max-bits: the stream past 75 bits already
// takes hours, and a length past this is no bound at all.
const maxEnumerateBits = 1000

// enumerateLine is a --json line: the environment with the build and the
// settings that decided it.
type enumerateLine struct {
	Version string `json:"version"`
	generate.Emitted
	Settings generate.StreamSettings `json:"settings"`
}

// parseShard reads K/N strictly: two decimal integers, 1 ≤ K ≤ N, and
// nothing else.
func parseShard(s string) (k, n int, err error) {
	ks, ns, ok := strings.Cut(s, "/")
	if ok {
		k, err = strconv.Atoi(ks)
		if err == nil {
			n, err = strconv.Atoi(ns)
		}
	}
	if !ok || err != nil || strings.ContainsAny(s, "+- ") {
		return 0, 0, fmt.Errorf("%q is not K/N, such as 1/4", s)
	}
	if n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("%q: K runs from 1 to N", s)
	}
	return k, n, nil
}

// reasons prints rejection counts, in a fixed order.
func reasons(r map[string]int) string {
	if len(r) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, r[k])
	}
	return strings.Join(parts, ", ")
}

// checkEnumerate reads --shard into s and refuses settings out of range.
func checkEnumerate(s *generate.StreamSettings, shard string) error {
	var err error
	if s.Shard, s.Shards, err = parseShard(shard); err != nil {
		return usage(fmt.Errorf("--shard: %w", err))
	}
	// NaN would compare false with every length and enumerate
	// nothing, silently.
	if !(s.MaxBits >= 0 && s.MaxBits <= maxEnumerateBits) {
		return usage(fmt.Errorf("--max-bits is %v; it must be a number from 0 to %d", s.MaxBits, maxEnumerateBits))
	}
	if s.Out != "" && s.Pack != "" {
		return usage(fmt.Errorf("--out and --pack are two ways to keep the environments; give one"))
	}
	if s.Limit < 0 {
		return usage(fmt.Errorf("--limit is a count of environments, 0 for no limit; not %d", s.Limit))
	}
	if err := s.Filters.Validate(); err != nil {
		return usage(err)
	}
	return nil
}

// runEnumerate streams the environments, a line each, with the tallies
// on standard error: a progress line on a terminal, a summary at the end.
func runEnumerate(io *stdio, s generate.StreamSettings, asJSON bool) error {
	start := time.Now()
	rate := func(n int) float64 { return float64(n) / max(time.Since(start).Seconds(), 1e-9) }
	terminal := isTerminal(io.err)
	clearProgress := func() {}
	if terminal {
		clearProgress = func() { fmt.Fprint(io.err, "\r\033[K") }
	}
	var last generate.Progress // the tallies of the last candidate
	// With a pack and no --json the pack holds the records, and a log
	// gets a line at each tenth of the shard, not a copy of them.
	quiet, tenths := s.Pack != "" && !asJSON, 0
	progress := func(p generate.Progress) {
		last = p
		switch {
		case terminal:
			fmt.Fprintf(io.err, "\r\033[Kexamined %d (%.0f/s), accepted %d, rejected %s",
				p.Run.Examined, rate(p.Run.Examined), p.Run.Accepted, reasons(p.Run.Rejected))
		case quiet && p.Part > 0 && p.Total.Examined*10/p.Part > tenths:
			tenths = p.Total.Examined * 10 / p.Part
			fmt.Fprintf(io.err, "anynt: %d%% of shard %d/%d: examined %d of %d (%.0f/s), accepted %d\n",
				tenths*10, s.Shard, s.Shards, p.Total.Examined, p.Part, rate(p.Run.Examined), p.Total.Accepted)
		}
	}
	notice := func(msg string) {
		clearProgress()
		fmt.Fprintf(io.err, "anynt: %s\n", msg)
	}
	var writeErr error
	print := emittedPrinter(io, s, asJSON)
	total, err := generate.Stream(s, func(e generate.Emitted) {
		clearProgress()
		if writeErr == nil && !quiet {
			writeErr = print(e)
		}
	}, progress, notice)
	clearProgress()
	fmt.Fprintf(io.err, "this run: examined %d (%.0f/s), accepted %d (%.0f/s), rejected %s\n",
		last.Run.Examined, rate(last.Run.Examined), last.Run.Accepted, rate(last.Run.Accepted), reasons(last.Run.Rejected))
	if total.Examined != last.Run.Examined {
		fmt.Fprintf(io.err, "in all (resumed): examined %d, accepted %d, rejected %s\n",
			total.Examined, total.Accepted, reasons(total.Rejected))
	}
	// The settings were checked above, so what fails now is the
	// enumerator's limit or else the output folder or standard output:
	// an I/O failure.
	if errors.Is(err, generate.ErrTooManySpaces) {
		return limitReached(err)
	}
	if err != nil {
		return ioFailure(err)
	}
	if writeErr != nil {
		return ioFailure(fmt.Errorf("writing the output: %w", writeErr))
	}
	return nil
}

// emittedPrinter prints an accepted environment as enumerate does: a
// --json line with the build and the settings s, a file's line (its name,
// bits and the filters' means), or its source.
func emittedPrinter(io *stdio, s generate.StreamSettings, asJSON bool) func(generate.Emitted) error {
	enc := json.NewEncoder(io.out)
	return func(e generate.Emitted) error {
		var err error
		switch {
		case asJSON:
			err = enc.Encode(enumerateLine{Version: version.String(), Emitted: e, Settings: s})
		case e.File != "":
			_, err = fmt.Fprintf(io.out, "%s\t%.4f bits\trandom %+.3f\t%s %+.3f\n",
				e.File, e.Bits, e.Verdict.Random.Mean, e.Verdict.Best.Agent, e.Verdict.Best.Mean)
		default:
			_, err = fmt.Fprintf(io.out, "%s\n", e.Source)
		}
		return err
	}
}
