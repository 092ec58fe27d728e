package main

import (
	"encoding/json"
	"fmt"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

func newComplexityCmd(io *stdio) *cobra.Command {
	kt := complexity.DefaultKt
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "complexity FILE... [--json]",
		Short: "Report the description length, Kt^max and a compression estimate",
		Long: `complexity reports, for each environment or rule file, its description length
in bits under the prefix-free code of docs/complexity.md (version ` + complexity.Version + `),
part by part: actions, space, each object, Good/Evil, shared blocks (charged
once, each use a reference), rewards, placement, settings. It also reports
Kt^max (the length plus log2 of the most VM steps any interaction needed, over
--interactions interactions of --agent with --seed), the brotli-compressed size
of the canonical source, and, for Good/Evil patterns, the zlib length the
Λ_one experiments used. --json prints one JSON object a file, a line each.`,
		Example: `  anynt complexity corpus/thesis/omega1-blocker.anynt
  anynt complexity --json corpus/*/*.anynt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var all lang.ErrorList
			for _, name := range args {
				r, err := complexityOf(name, kt)
				if err != nil {
					if collectFileErrors(err, &all) {
						continue
					}
					return err
				}
				if asJSON {
					if err := json.NewEncoder(io.out).Encode(r); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(io.out, "%s (%s)\n%s", r.File, r.Version, complexity.String(r.Parts))
				if r.Agent == "" {
					fmt.Fprintf(io.out, "  %-20s %9.2f   (%d steps, one run from the empty string)\n", "Kt^max", r.KtBits, r.MaxSteps)
				} else {
					fmt.Fprintf(io.out, "  %-20s %9.2f   (%d steps at most, %d interactions, agent %s, seed %d)\n", "Kt^max", r.KtBits, r.MaxSteps, r.Interactions, r.Agent, r.Seed)
				}
				fmt.Fprintf(io.out, "  %-20s %9d\n", "brotli bits", r.BrotliBits)
				if r.PatternZlibBits > 0 {
					fmt.Fprintf(io.out, "  %-20s %9d\n", "pattern zlib bits", r.PatternZlibBits)
				}
			}
			if len(all) > 0 {
				return fileErrors(all)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print one JSON object a file")
	f.IntVar(&kt.Interactions, "interactions", kt.Interactions, "interactions over which Kt^max takes the most steps")
	f.StringVar(&kt.Agent, "agent", kt.Agent, "the agent of the Kt^max run")
	f.Uint64Var(&kt.Seed, "seed", kt.Seed, "the seed of the Kt^max run")
	return cmd
}

// complexityOf reports on an environment file, or on a rule file (one that
// declares no actions).
func complexityOf(name string, kt complexity.KtSettings) (*complexity.Report, error) {
	f, err := parseFile(name, false)
	if err != nil {
		return nil, err
	}
	if !env.IsEnvironment(f) {
		r, err := complexity.OfRuleFile(f)
		if err != nil {
			return nil, fileErrors(err)
		}
		return r, nil
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, fileErrors(err)
	}
	r, err := complexity.OfEnvironment(f, e, kt)
	if err != nil {
		return nil, &exitError{code: exitUsage, err: err}
	}
	return r, nil
}
