package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

// loadEnv reads an environment file; every error is positioned.
func loadEnv(name string) (*env.Env, error) {
	f, err := parseFile(name, false)
	if err != nil {
		return nil, err
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, fileErrors(err)
	}
	return e, nil
}

func newCheckCmd(io *stdio) *cobra.Command {
	filters := generate.DefaultFilters
	var runFilters bool
	cmd := &cobra.Command{
		Use:   "check FILE...",
		Short: "Check environment files",
		Long: `check loads each environment FILE: it parses it, compiles its behaviours,
builds and checks its space (at least two actions, the stay arrow in every cell,
two arrows of every cell reaching different cells, strong connectivity), and
checks its settings. It prints nothing and exits 0 when every file is valid, or
prints every error, positioned, and exits 1.

--filters also runs the generator's filters on each valid file and prints the
verdict: balance (the random agent's 95% interval contains 0) and
discrimination (the oracle's interval and random's do not overlap); a file
that fails them exits 1 too.`,
		Example: `  anynt check corpus/thesis/omega1-blocker.anynt corpus/paper/*.anynt
  anynt check --filters corpus/paper/example5.anynt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var all lang.ErrorList
			rejected := 0
			for _, name := range args {
				if runFilters {
					src, err := readSource(name)
					if err != nil {
						return err
					}
					if v := generate.Check(name, string(src), filters); v.Reason != generate.ReasonSyntax && v.Reason != generate.ReasonSpace {
						fmt.Fprintf(io.out, "%s: %s (random %+.4f [%+.4f, %+.4f], %s %+.4f)\n", name, v, v.Random.Mean, v.Random.CI95[0], v.Random.CI95[1], filters.Good, v.Good.Mean)
						if !v.Accepted {
							rejected++
						}
						continue
					}
				}
				if _, err := loadEnv(name); err != nil {
					if collectFileErrors(err, &all) {
						continue
					}
					return err
				}
			}
			if len(all) > 0 {
				return fileErrors(all)
			}
			if rejected > 0 {
				return &exitError{code: exitFile, err: fmt.Errorf("%d file(s) failed the filters", rejected)}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&runFilters, "filters", false, "also run the balance and discrimination filters")
	cmd.Flags().IntVar(&filters.Episodes, "episodes", filters.Episodes, "episodes of each agent in the filters")
	cmd.Flags().IntVar(&filters.Steps, "steps", filters.Steps, "interactions an episode in the filters")
	cmd.Flags().Uint64Var(&filters.Seed, "seed", filters.Seed, "the seed of the filter runs")
	return cmd
}

func newSpaceCmd(io *stdio) *cobra.Command {
	var dialect, actions string
	cmd := &cobra.Command{
		Use:   "space [--dialect thesis|paper] [--actions NAMES] CODE",
		Short: "Decode a space code and print its arrow table",
		Long: `space decodes a space code, prints its arrow table (a cell a line, the
destination of each action) and checks it. An invalid space exits 1 with the
broken rule and the cell it breaks it in.

--actions names the actions, the stay action first (default: s l r); in a
code an action is written by its name or by its index as one digit.`,
		Example: `  anynt space "lr+:l-r+:l-r+:l-r+:l-r+:l-r"
  anynt space --dialect paper --actions "l r" "+r+r+r+r+r+r"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := lang.Symbols(actions)
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("--actions: %v", err)}
			}
			code, err := lang.Symbols(args[0])
			if err != nil {
				return &exitError{code: exitUsage, err: fmt.Errorf("code: %v", err)}
			}
			s, err := env.DecodeCode(dialect, code, names, true)
			if err != nil {
				return &exitError{code: exitFile, err: err}
			}
			fmt.Fprint(io.out, s.Table(names))
			if errs := s.Check(); len(errs) > 0 {
				msgs := make([]string, len(errs))
				for i, e := range errs {
					msgs[i] = "invalid space: " + e.Error()
				}
				return &exitError{code: exitFile, err: fmt.Errorf("%s", strings.Join(msgs, "\n"))}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "thesis", "the code's dialect: thesis (lr+:l-r) or paper (+r-l)")
	cmd.Flags().StringVar(&actions, "actions", "s l r", "the action names, the stay action first")
	return cmd
}

func newDotCmd(io *stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "dot FILE",
		Short: "Write an environment's space in Graphviz DOT",
		Long: `dot writes the space of environment FILE as a Graphviz digraph: a node a
cell, an edge an arrow labelled with its actions (stay loops left out).`,
		Example: `  anynt dot corpus/thesis/omega1-blocker.anynt | dot -Tpng > space.png`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := loadEnv(args[0])
			if err != nil {
				return err
			}
			fmt.Fprint(io.out, e.Space.DOT(args[0], e.Actions))
			return nil
		},
	}
}

type runFlags struct {
	agent           string
	steps, episodes int
	seed            uint64
	trace, json     bool
	settings        agent.Settings
}

// runOutcome is the --json output of run.
type runOutcome struct {
	Mean     float64    `json:"mean"`
	CI95     [2]float64 `json:"ci95"`
	Episodes int        `json:"episodes"`
	Steps    int        `json:"steps"`
	Agent    string     `json:"agent"`
	Seed     uint64     `json:"seed"`
	File     string     `json:"file"`
	MaxSteps int        `json:"max_vm_steps"`
	Scores   []float64  `json:"scores"`
	Bounds   []boundHit `json:"bounds"`
}

// boundHit is a behaviour's runs and those a bound stopped, in --json.
type boundHit struct {
	Behaviour   string `json:"behaviour"`
	Runs        int    `json:"runs"`
	StepLimit   int    `json:"step_limit"`
	LengthLimit int    `json:"length_limit"`
	WorkLimit   int    `json:"work_limit"`
}

// boundLines says which behaviours ran into their bounds (set max-steps,
// max-len, max-work): their output is then the string so far, which is
// legal but seldom what the author meant.
func boundLines(counts []env.BoundCount) []string {
	var lines []string
	for _, c := range counts {
		var hits []string
		for _, h := range []struct {
			n    int
			name string
		}{{c.StepLimit, "step"}, {c.LengthLimit, "length"}, {c.WorkLimit, "work"}} {
			if h.n > 0 {
				hits = append(hits, fmt.Sprintf("its %s bound in %d", h.name, h.n))
			}
		}
		if len(hits) > 0 {
			lines = append(lines, fmt.Sprintf("bounds: %s hit %s of %d runs", c.Behaviour, strings.Join(hits, " and "), c.Runs))
		}
	}
	return lines
}

func newRunCmd(io *stdio) *cobra.Command {
	fl := runFlags{settings: agent.DefaultSettings}
	cmd := &cobra.Command{
		Use:   "run FILE [--agent NAME] [--steps N] [--episodes E] [--seed S] [--trace] [--json]",
		Short: "Run an agent in an environment and score it",
		Long: `run plays E episodes of N scored interactions of the environment FILE with
the agent NAME and prints the mean score with its 95% confidence interval
(Student's t). Each episode's score is its average reward, in [-1, 1]. The
seed decides every random choice: the same file, agent and seed give the
same output, bit for bit.

Agents: ` + strings.Join(agent.Names(), ", ") + `. --trace prints each interaction of the
first episode on standard error: π's observation, its action, its reward,
and every object's cell after the moves.`,
		Example: `  anynt run corpus/thesis/omega1-blocker.anynt --agent random --episodes 1000
  anynt run corpus/lambda-one/fixture-b.anynt --agent qlearning --steps 10000 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEnv(io, args[0], fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.agent, "agent", "random", "the evaluated agent: "+strings.Join(agent.Names(), ", "))
	f.IntVar(&fl.steps, "steps", 1000, "scored interactions an episode")
	f.IntVar(&fl.episodes, "episodes", 100, "episodes")
	f.Uint64Var(&fl.seed, "seed", 1, "the seed of every random choice")
	f.BoolVar(&fl.trace, "trace", false, "print the first episode's interactions on standard error")
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	f.Float64Var(&fl.settings.Alpha, "alpha", agent.DefaultSettings.Alpha, "Q-learning's learning rate")
	f.Float64Var(&fl.settings.Gamma, "gamma", agent.DefaultSettings.Gamma, "Q-learning's discount")
	f.Float64Var(&fl.settings.Q0, "q0", agent.DefaultSettings.Q0, "Q-learning's initial Q value")
	return cmd
}

func runEnv(io *stdio, file string, fl runFlags) error {
	if fl.steps < 1 || fl.episodes < 1 {
		return &exitError{code: exitUsage, err: fmt.Errorf("--steps and --episodes must be at least 1")}
	}
	if _, err := agent.New(fl.agent, fl.settings); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	e, err := loadEnv(file)
	if err != nil {
		return err
	}
	newAgent := func() env.Agent {
		a, _ := agent.New(fl.agent, fl.settings)
		return a
	}
	if fl.trace {
		ep := env.NewEpisode(e, newAgent(), env.EpisodeSeed(fl.seed, 0))
		ep.Run(fl.steps, func(s env.Step) {
			fmt.Fprintf(io.err, "%d\t%s\t%s\t%+.4g\t%v\n", s.Interaction, s.Observation, s.Action, s.Reward, s.Positions)
		})
	}
	var progress func(int)
	if isTerminal(io.err) && fl.episodes*fl.steps >= 1_000_000 {
		progress = func(done int) { fmt.Fprintf(io.err, "\r%d/%d episodes", done, fl.episodes) }
	}
	ev := env.Evaluate(e, newAgent, fl.episodes, fl.steps, fl.seed, progress)
	if progress != nil {
		fmt.Fprintln(io.err)
	}
	if fl.json {
		bounds := []boundHit{}
		for _, c := range ev.Bounds {
			bounds = append(bounds, boundHit{c.Behaviour, c.Runs, c.StepLimit, c.LengthLimit, c.WorkLimit})
		}
		enc := json.NewEncoder(io.out)
		return enc.Encode(runOutcome{Mean: ev.Mean, CI95: ev.CI95, Episodes: fl.episodes, Steps: fl.steps,
			Agent: fl.agent, Seed: fl.seed, File: file, MaxSteps: ev.MaxSteps, Scores: ev.Scores, Bounds: bounds})
	}
	fmt.Fprintf(io.out, "%s: agent %s, %d episodes of %d interactions, seed %d\nmean %.4f, 95%% CI [%.4f, %.4f]\n",
		file, fl.agent, fl.episodes, fl.steps, fl.seed, ev.Mean, ev.CI95[0], ev.CI95[1])
	for _, l := range boundLines(ev.Bounds) {
		fmt.Fprintln(io.out, l)
	}
	return nil
}

// isTerminal reports whether w is a terminal, where progress is shown.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
