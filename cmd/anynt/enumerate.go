package main

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/anynt/anynt/generate"
	"github.com/spf13/cobra"
)

func newEnumerateCmd(io *stdio) *cobra.Command {
	s := generate.StreamSettings{MaxBits: 60, Shard: 1, Shards: 1, Filters: generate.DefaultFilters}
	var shard string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "enumerate [--max-bits B] [--limit N] [--out DIR] [--shard K/N] [--json]",
		Short: "Enumerate environments in order of description length",
		Long: `enumerate streams environments in increasing description length, up to
--max-bits: environments of 2 to 4 actions with an explicit space and Good and
Evil following a cyclic pattern (docs/generation.md). Duplicates are skipped:
spaces equal up to renumbering cells and actions, patterns that repeat a
shorter one or act identically on the space. Each candidate goes through the
filters (it loads: syntax, bounds, a valid space; balance: the random agent's
95% interval contains 0; discrimination: the oracle's interval and random's do
not overlap); accepted ones are printed, or written to --out as
BITS-INDEX.anynt. --limit stops after N accepted environments. --shard K/N
takes every N-th candidate from the K-th: the shards are disjoint and together
give the whole stream. With --out, an interrupted run started again with the
same settings resumes where it stopped. A summary of the rejections by reason
ends the run on standard error.`,
		Example: `  anynt enumerate --limit 5
  anynt enumerate --max-bits 55 --out envs --shard 1/2 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := fmt.Sscanf(shard, "%d/%d", &s.Shard, &s.Shards); err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("--shard is K/N, such as 1/4")}
			}
			start := time.Now()
			rate := func(n int) float64 { return float64(n) / max(time.Since(start).Seconds(), 1e-9) }
			var progress func(generate.Tally)
			if isTerminal(io.err) {
				progress = func(t generate.Tally) {
					fmt.Fprintf(io.err, "\rexamined %d (%.0f/s), accepted %d, rejected %s ", t.Examined, rate(t.Examined), t.Accepted, reasons(t.Rejected))
				}
			}
			tally, err := generate.Stream(s, func(e generate.Emitted) {
				if asJSON {
					json.NewEncoder(io.out).Encode(e)
					return
				}
				if e.File != "" {
					fmt.Fprintf(io.out, "%s\t%.4f bits\trandom %+.3f\toracle %+.3f\n", e.File, e.Bits, e.Verdict.Random.Mean, e.Verdict.Good.Mean)
					return
				}
				fmt.Fprintf(io.out, "%s\n", e.Source)
			}, progress)
			if progress != nil {
				fmt.Fprintln(io.err)
			}
			fmt.Fprintf(io.err, "examined %d (%.0f/s), accepted %d (%.0f/s), rejected %s\n",
				tally.Examined, rate(tally.Examined), tally.Accepted, rate(tally.Accepted), reasons(tally.Rejected))
			if err != nil {
				return &exitError{code: exitUsage, err: err}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.Float64Var(&s.MaxBits, "max-bits", s.MaxBits, "the largest description length enumerated")
	f.IntVar(&s.Limit, "limit", 0, "stop after this many accepted environments (0: no limit)")
	f.StringVar(&s.Out, "out", "", "write the environments and the resume state to this folder")
	f.StringVar(&shard, "shard", "1/1", "take the K-th of N disjoint shards of the stream")
	f.BoolVar(&asJSON, "json", false, "print one JSON object a line for each accepted environment")
	f.IntVar(&s.Filters.Episodes, "episodes", s.Filters.Episodes, "episodes of each agent in the filters")
	f.IntVar(&s.Filters.Steps, "steps", s.Filters.Steps, "interactions an episode in the filters")
	return cmd
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
