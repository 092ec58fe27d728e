package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/version"
	"github.com/spf13/cobra"
)

func newEvolveCmd(io *stdio) *cobra.Command {
	s := generate.DefaultEvolve
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "evolve [--seed S] [--generations G] [--population P] [--episodes E] [--steps N] [--out DIR] [--json]",
		Short: "Evolve environments that discriminate well for their size",
		Long: `evolve improves a population of P environments over G generations by
mutation (of the space table, the number of cells and actions, rule symbols,
sugar, rules, terminating arrows, objects), crossover (a child takes the
other parent's space, Good/Evil program, objects or one of its rules) and rule
exchange between the objects and Good/Evil. A candidate enters the population
only if it passes the filters of generation: it loads, the random agent's
mean score is indistinguishable from 0 (balance), and the best reference agent
(by default the better of the oracle and the follower) scores clearly above
random (discrimination), over E episodes of N interactions. The next
population is the best P of the old one and the accepted children, so the
best fitness never decreases. The first population is hand-made seeds (the
paper's Example 5 and small rings) and their mutants.

Fitness is the discrimination per bit of description:

  fitness = (mean score of the best reference agent - mean random score) / log2(bits)

where bits is the description length of docs/complexity.md.

Each generation prints a line: its number, the best and the mean fitness of
the population, the best environment's bits, the candidates accepted (of all
candidates) and the rejected ones by reason (syntax, space, unbalanced,
insensitive, duplicate: the same as an earlier candidate). Generation 0 is
the first population. --json prints one JSON object a generation instead.
Then the best environment is printed (not with --json).

--out DIR keeps the run in DIR: after every generation, its state
(.evolve.json) and the population, best first (best-01.anynt, …), each in
canonical form with a header comment giving the command's settings, its rank,
the generation that made it, its fitness, its scores and its bits. Every file
is written atomically and the folder is locked against a second run. A run
killed and started again with the same settings resumes after the last
generation written (only the new generations are printed) and ends with the
same result as an uninterrupted one; a folder of other settings, or holding
environments without a state, is refused.

The seed decides everything, the filters' runs included: the same flags give
the same output, bit for bit, whatever the number of cores.`,
		Example: `  anynt evolve --seed 7 --out evolved/
  anynt evolve --generations 30 --population 32 --episodes 100 --steps 100 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if s.Population < 2 || s.Population > generate.MaxPopulation || s.Generations < 0 || s.Generations > generate.MaxGenerations {
				return usage(fmt.Errorf("--population runs from 2 to %d, --generations from 0 to %d",
					generate.MaxPopulation, generate.MaxGenerations))
			}
			s.Filters.Seed = s.Seed // as Evolve does: the JSON lines show it
			if err := s.Filters.Validate(); err != nil {
				return usage(err)
			}
			return evolve(cmd, io, s, asJSON)
		},
	}
	f := cmd.Flags()
	f.Uint64Var(&s.Seed, "seed", s.Seed, "the seed of every random choice, the filters' included")
	f.IntVar(&s.Generations, "generations", s.Generations, "generations after the first population")
	f.IntVar(&s.Population, "population", s.Population, "environments in a population, and candidates a generation")
	f.IntVar(&s.Filters.Episodes, "episodes", s.Filters.Episodes, "episodes of each agent in the filters")
	f.IntVar(&s.Filters.Steps, "steps", s.Filters.Steps, "scored interactions an episode in the filters")
	f.StringVar(&s.Out, "out", "", "keep the run in this folder: its state and the population, best first")
	specListVar(f, &s.Filters.References, "references", s.Filters.References, "the reference agents of discrimination (the best of them must score above random)")
	f.BoolVar(&asJSON, "json", false, "print one JSON object a generation")
	return cmd
}

func evolve(cmd *cobra.Command, io *stdio, s generate.EvolveSettings, asJSON bool) error {
	// Progress counts candidates over the generations this run makes (a
	// resumed run starts at its first new generation), with rate and time
	// left, on a terminal only. A generation makes Population candidates,
	// except the first, which may try more to fill its population: its
	// count is clamped, so the estimate of time left is approximate there.
	var bar *progress
	var first int // candidates of the generations resumed, not this run's
	var onCandidate func(g, done int)
	if isTerminal(io.err) {
		onCandidate = func(g, done int) {
			if bar == nil {
				first = g * s.Population
				bar = newProgress(io.err, "candidates", (s.Generations+1)*s.Population-first)
			}
			bar.update(g*s.Population + min(done, s.Population) - first)
		}
	}
	clearProgress := func() { bar.clear() }
	var writeErr error
	made := 0 // generations made by this run, not resumed
	enc := json.NewEncoder(io.out)
	onGeneration := func(g generate.Generation) {
		clearProgress()
		if made == 0 {
			if g.Number > 0 {
				fmt.Fprintf(io.err, "anynt: resumed %s after generation %d\n", s.Out, g.Number-1)
			}
			// The header waits for the first generation, so that a run
			// refused before it starts prints nothing on standard output.
			if !asJSON {
				writeErr = evolveHeader(io.out, s)
			}
		}
		made++
		switch {
		case writeErr != nil:
		case asJSON:
			writeErr = enc.Encode(generationLine{Version: version.String(), Generation: g, Settings: s})
		default:
			_, writeErr = fmt.Fprintf(io.out, "%3d  %8.4f  %8.4f  %7.1f  %9s  %s\n", g.Number, g.Best, g.Mean, g.BestBits,
				fmt.Sprintf("%d/%d", g.Accepted, g.Candidates), rejections(g.Rejected))
		}
	}
	ev, err := generate.Evolve(cmd.Context(), s, onGeneration, onCandidate)
	clearProgress()
	switch {
	case errors.Is(err, generate.ErrNoSeed):
		// The first population is searched for a bounded number of
		// tries: a run that stopped at a limit, which exitCode says.
		return err
	case err != nil:
		// The settings were checked before, so what fails now is the
		// output folder or standard output: an I/O failure.
		return ioFailure(err)
	}
	if made == 0 {
		fmt.Fprintf(io.err, "anynt: %s holds the finished run; nothing to do\n", s.Out)
	}
	if writeErr != nil {
		return ioFailure(fmt.Errorf("writing the output: %w", writeErr))
	}
	if asJSON {
		return nil
	}
	best := ev.Population[0]
	fmt.Fprintf(io.out, "\nbest: fitness %.4f, %.1f bits, %s %.4f, random %.4f, born in generation %d\n\n%s",
		best.Verdict.Fitness, best.Verdict.Bits, best.Verdict.Best.Agent, best.Verdict.Best.Mean, best.Verdict.Random.Mean, best.Born, best.Source)
	switch {
	case s.Out != "" && made > 0:
		fmt.Fprintf(io.out, "\nwrote %s to %s, best first\n", count(len(ev.Population), "environment"), s.Out)
	case s.Out != "":
		fmt.Fprintf(io.out, "\nthe population is in %s, best first\n", s.Out)
	}
	return nil
}

// evolveHeader prints the settings and the columns of the generation lines.
func evolveHeader(w io.Writer, s generate.EvolveSettings) error {
	_, err := fmt.Fprintf(w, "seed %d: %s of %d; filters: %s of %s\nfitness = (mean of the best of %s - mean random) / log2(bits)\n\n%3s  %8s  %8s  %7s  %9s  %s\n",
		s.Seed, count(s.Generations, "generation"), s.Population, count(s.Filters.Episodes, "episode"), count(s.Filters.Steps, "interaction"),
		strings.Join(s.Filters.References, ", "), "gen", "best", "mean", "bits", "accepted", "rejected")
	return err
}

// generationLine is a --json line: a generation's record with the build and
// the settings that decided it.
type generationLine struct {
	Version string `json:"version"`
	generate.Generation
	Settings generate.EvolveSettings `json:"settings"`
}

// rejections lists the rejected candidates by reason, in the order the
// filters run (any other reason after them, alphabetically).
func rejections(by map[string]int) string {
	order := []string{generate.ReasonSyntax, generate.ReasonSpace, generate.ReasonUnbalanced,
		generate.ReasonInsensitive, generate.ReasonDuplicate}
	for _, reason := range slices.Sorted(maps.Keys(by)) {
		if !slices.Contains(order, reason) {
			order = append(order, reason)
		}
	}
	var parts []string
	for _, reason := range order {
		if n := by[reason]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", reason, n))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}
