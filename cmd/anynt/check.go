package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

// fileKind names the kind check took a file for.
func fileKind(isEnv bool) string {
	if isEnv {
		return "environment"
	}
	return "rule file"
}

// checkFlags are anynt check's flags.
type checkFlags struct {
	filters                              generate.FilterSettings
	runFilters, verbose, strict, classic bool
}

func newCheckCmd(io *stdio) *cobra.Command {
	fl := checkFlags{filters: generate.DefaultFilters}
	cmd := &cobra.Command{
		Use:   "check [-v] [--strict] [--filters] FILE...",
		Short: "Check environment and rule files",
		Long: `check checks each FILE as its kind, which its content decides: a file with an
environment statement (actions, space, object, goodevil, reward, place, set)
is an environment, one without is a rule file (docs/environments.md).

An environment is loaded: parsed, its behaviours compiled, its space built
and checked (at least two actions, the stay arrow in every cell, two arrows
of every cell reaching different cells, strong connectivity), its settings
checked. It is then linted: a behaviour that never writes an action (Good/Evil
writing the marker R where the action r was meant), or that stops at its
step or length bound on every observation of a short random run, gets a
warning, positioned (file:line:col: warning: …), and so does a rule that can
never match any string its behaviour can see (π L where a ⊙ always stands
between π and the marker), with the reason (docs/environments.md, Warnings). A rule file is parsed and
compiled; --classic reads every FILE as a rule file in the classic format
(pattern -> replacement, one a line), as markov --classic does.

check prints every error, positioned, and exits 1 if there is any; otherwise
it exits 0. Warnings are printed on standard error and do not fail check
unless --strict, which makes them exit 1 too. -v prints the kind check took
each file for.

--filters also runs the generator's filters on each valid environment and
prints the verdict: balance (the random agent's 95% interval contains 0) and
discrimination (the interval of the best reference agent, the oracle or the
follower, lies above random's); a file that fails them exits 1 too. --episodes
is from 2 (the filters compare intervals, which one episode does not give)
to ` + fmt.Sprint(generate.MaxFilterRuns) + `, --steps from 1 to ` + fmt.Sprint(generate.MaxFilterRuns) + `, and their product at most
` + fmt.Sprint(generate.MaxFilterInteractions) + `, as in enumerate and evolve.`,
		Example: `  anynt check corpus/thesis/omega1-blocker.anynt corpus/paper/*.anynt
  anynt check -v --strict corpus/*/*.anynt
  anynt check --classic corpus/classic/*.markov
  anynt check --filters corpus/paper/example5.anynt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(io, args, fl)
		},
	}
	cmd.Flags().BoolVarP(&fl.verbose, "verbose", "v", false, "print the kind each file was taken for")
	cmd.Flags().BoolVar(&fl.strict, "strict", false, "exit 1 on warnings too")
	cmd.Flags().BoolVar(&fl.classic, "classic", false, "read every FILE as a rule file in the classic format")
	cmd.Flags().BoolVar(&fl.runFilters, "filters", false, "also run the balance and discrimination filters")
	cmd.Flags().IntVar(&fl.filters.Episodes, "episodes", fl.filters.Episodes, fmt.Sprintf("episodes of each agent in the filters (2 to %d)", generate.MaxFilterRuns))
	cmd.Flags().IntVar(&fl.filters.Steps, "steps", fl.filters.Steps, fmt.Sprintf("interactions an episode in the filters (1 to %d)", generate.MaxFilterRuns))
	cmd.Flags().Uint64Var(&fl.filters.Seed, "seed", fl.filters.Seed, "the seed of the filter runs")
	specListVar(cmd.Flags(), &fl.filters.References, "references", fl.filters.References, "the reference agents of discrimination (the best of them must score above random)")
	cmd.Flags().BoolVar(&fl.filters.Sequential, "sequential", fl.filters.Sequential, "decide by the sequential test, stopping when a look knows (--sequential=false: every episode of every agent)")
	return cmd
}

// checkFile checks one file as its kind: an environment is loaded and
// linted, a rule file compiled. It reports the kind and the warnings.
func checkFile(name string, classic bool) (isEnv bool, warns lang.ErrorList, err error) {
	if classic {
		f, err := loadFile(name, true, compiler.Options{})
		if err != nil {
			return false, nil, err
		}
		if err := compiler.Check(f, compiler.Options{}); err != nil {
			return false, nil, fileErrors(err)
		}
		return false, nil, nil
	}
	f, err := parseFile(name, false)
	if f == nil {
		return false, nil, err
	}
	// The statements that parsed still decide the kind, so that a rule
	// file's syntax error is reported with its meaning errors. The file is
	// not read again: a pipe would be empty by then.
	isEnv, warns, err = env.Check(f, err)
	if err != nil {
		return isEnv, nil, fileErrors(err)
	}
	return isEnv, warns, nil
}

// runCheck checks each file, printing every error and warning, and the
// filters' verdicts with --filters.
func runCheck(io *stdio, args []string, fl checkFlags) error {
	if fl.runFilters && fl.classic {
		return usage(fmt.Errorf("--filters runs environments; --classic files are rule files"))
	}
	if fl.runFilters {
		if err := fl.filters.Validate(); err != nil {
			return usage(err)
		}
	}
	var all lang.ErrorList
	rejected, warned := 0, 0
	var src sources // each file's warnings come together
	for _, name := range args {
		isEnv, warns, err := checkFile(name, fl.classic)
		if err != nil {
			if collectFileErrors(err, &all) {
				continue
			}
			return err
		}
		if fl.verbose {
			fmt.Fprintf(io.out, "%s: %s\n", name, fileKind(isEnv))
		}
		for _, w := range warns {
			src.printPositioned(io.err, &lang.Error{Pos: w.Pos, Msg: "warning: " + w.Msg})
		}
		warned += len(warns)
		if !fl.runFilters {
			continue
		}
		if !isEnv {
			return usage(fmt.Errorf("--filters: %w", &kindError{file: name}))
		}
		src, err := readSource(name)
		if err != nil {
			return err
		}
		v, err := generate.Check(name, string(src), fl.filters)
		if err != nil {
			return usage(err)
		}
		fmt.Fprintf(io.out, "%s: %s (%s)\n", name, v, verdictScores(v, fl.filters.References))
		if !v.Accepted {
			rejected++
		}
	}
	if len(all) > 0 {
		return fileErrors(all)
	}
	if rejected > 0 {
		return fileErrors(fmt.Errorf("%d file(s) failed the filters", rejected))
	}
	if fl.strict && warned > 0 {
		return fileErrors(fmt.Errorf("%d warning(s), and --strict", warned))
	}
	return nil
}

// verdictScores is the parenthesis of check --filters' line: random's
// mean and interval, and the best reference agent's mean, by name. A file
// that failed balance was rejected before any reference agent played, so
// the line names them as not run rather than print an empty score.
func verdictScores(v generate.Verdict, references []string) string {
	random := fmt.Sprintf("random %+.4f [%+.4f, %+.4f]", v.Random.Mean, v.Random.CI95[0], v.Random.CI95[1])
	if len(v.References) == 0 {
		return fmt.Sprintf("%s; %s not run: balance failed first", random, strings.Join(references, ", "))
	}
	return fmt.Sprintf("%s, %s %+.4f", random, v.Best.Agent, v.Best.Mean)
}
