package main

import (
	"fmt"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/spf13/cobra"
)

// ktRun fixes the run Kt^max is measured over.
type ktRun struct {
	interactions int
	agent        string
	seed         uint64
}

// complexityOutcome is one line of complexity --json.
type complexityOutcome struct {
	Version string `json:"version"`
	*complexity.Report
}

func newComplexityCmd(io *stdio) *cobra.Command {
	kt := ktRun{interactions: 1000, agent: "random", seed: 1}
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
Λ_one experiments used. --json prints one JSON object a file, a line each
(docs/output.md).`,
		Example: `  anynt complexity corpus/thesis/omega1-blocker.anynt
  anynt complexity --json corpus/*/*.anynt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkBound("--interactions", kt.interactions, 1, maxInteractions); err != nil {
				return err
			}
			newAgent, err := agent.Lookup(kt.agent, agent.DefaultSettings)
			if err != nil {
				return usage(fmt.Errorf("--agent: %w", err))
			}
			var all lang.ErrorList
			for _, name := range args {
				r, err := complexityOf(name, kt, newAgent)
				if err != nil {
					if collectFileErrors(err, &all) {
						continue
					}
					return err
				}
				if asJSON {
					if err := writeJSON(io.out, complexityOutcome{Version: versionString(), Report: r}); err != nil {
						return err
					}
					continue
				}
				fmt.Fprintf(io.out, "%s (%s)\n%s", r.File, r.Code, complexity.String(r.Parts))
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
	f.IntVar(&kt.interactions, "interactions", kt.interactions, fmt.Sprintf("interactions over which Kt^max takes the most steps (at most %d)", maxInteractions))
	f.StringVar(&kt.agent, "agent", kt.agent, "the agent of the Kt^max run")
	f.Uint64Var(&kt.seed, "seed", kt.seed, "the seed of the Kt^max run")
	return cmd
}

// complexityOf reports on an environment file, or on a rule file. It runs
// what Kt^max needs (the package complexity defines it and runs nothing):
// an environment for kt's interactions, a rule file once from the empty
// string under the VM's default bounds.
func complexityOf(name string, kt ktRun, newAgent agent.Factory) (*complexity.Report, error) {
	f, err := parseFile(name, false)
	if err != nil {
		return nil, err
	}
	if !env.IsEnvironment(f) {
		prog, err := compiler.Compile(f, compiler.Options{})
		if err != nil {
			return nil, fileErrors(err)
		}
		_, res := vm.New(prog).Run(nil, vm.DefaultOptions())
		return complexity.OfRuleFile(f, prog.Symbols[:prog.AlphabetSize], complexity.Run{MaxSteps: res.Steps, Interactions: 1}), nil
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, fileErrors(err)
	}
	ep := env.NewEpisode(e, newAgent(), kt.seed)
	ep.Run(kt.interactions, nil)
	run := complexity.Run{MaxSteps: ep.MaxSteps, Interactions: kt.interactions, Agent: kt.agent, Seed: kt.seed}
	return complexity.OfEnvironment(f, e, run), nil
}
