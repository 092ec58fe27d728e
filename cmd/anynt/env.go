package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

// loadEnv reads an environment file; every error is positioned. A rule
// file (one without environment statements) is refused with a message
// that says what it is and how to run it.
func loadEnv(name string) (*env.Env, error) {
	f, err := parseFile(name, false)
	if err != nil {
		return nil, err
	}
	if !env.IsEnvironment(f) {
		return nil, &kindError{file: name}
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, fileErrors(err)
	}
	return e, nil
}

// kindError says that a command that needs an environment was given a
// rule file.
type kindError struct{ file string }

func (e *kindError) Error() string {
	return fmt.Sprintf("%s is a rule file (no environment statements such as actions): run it with anynt markov %s INPUT", e.file, e.file)
}

// fileKind names the kind check took a file for.
func fileKind(isEnv bool) string {
	if isEnv {
		return "environment"
	}
	return "rule file"
}

func newCheckCmd(io *stdio) *cobra.Command {
	filters := generate.DefaultFilters
	var runFilters, verbose, strict, classic bool
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
warning, positioned (file:line:col: warning: …). A rule file is parsed and
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
			if runFilters && classic {
				return usage(fmt.Errorf("--filters runs environments; --classic files are rule files"))
			}
			if runFilters {
				if err := filters.Validate(); err != nil {
					return usage(err)
				}
			}
			var all lang.ErrorList
			rejected, warned := 0, 0
			var src sources // each file's warnings come together
			for _, name := range args {
				isEnv, warns, err := checkFile(name, classic)
				if err != nil {
					if collectFileErrors(err, &all) {
						continue
					}
					return err
				}
				if verbose {
					fmt.Fprintf(io.out, "%s: %s\n", name, fileKind(isEnv))
				}
				for _, w := range warns {
					src.printPositioned(io.err, &lang.Error{Pos: w.Pos, Msg: "warning: " + w.Msg})
				}
				warned += len(warns)
				if !runFilters {
					continue
				}
				if !isEnv {
					return usage(fmt.Errorf("--filters: %w", &kindError{file: name}))
				}
				src, err := readSource(name)
				if err != nil {
					return err
				}
				v, err := generate.Check(name, string(src), filters)
				if err != nil {
					return usage(err)
				}
				fmt.Fprintf(io.out, "%s: %s (random %+.4f [%+.4f, %+.4f], %s %+.4f)\n", name, v, v.Random.Mean, v.Random.CI95[0], v.Random.CI95[1], v.Best.Agent, v.Best.Mean)
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
			if strict && warned > 0 {
				return fileErrors(fmt.Errorf("%d warning(s), and --strict", warned))
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "print the kind each file was taken for")
	cmd.Flags().BoolVar(&strict, "strict", false, "exit 1 on warnings too")
	cmd.Flags().BoolVar(&classic, "classic", false, "read every FILE as a rule file in the classic format")
	cmd.Flags().BoolVar(&runFilters, "filters", false, "also run the balance and discrimination filters")
	cmd.Flags().IntVar(&filters.Episodes, "episodes", filters.Episodes, fmt.Sprintf("episodes of each agent in the filters (2 to %d)", generate.MaxFilterRuns))
	cmd.Flags().IntVar(&filters.Steps, "steps", filters.Steps, fmt.Sprintf("interactions an episode in the filters (1 to %d)", generate.MaxFilterRuns))
	cmd.Flags().Uint64Var(&filters.Seed, "seed", filters.Seed, "the seed of the filter runs")
	specListVar(cmd.Flags(), &filters.References, "references", filters.References, "the reference agents of discrimination (the best of them must score above random)")
	cmd.Flags().BoolVar(&filters.Sequential, "sequential", filters.Sequential, "decide by the sequential test, stopping when a look knows (--sequential=false: every episode of every agent)")
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
	if err != nil {
		// The statements that parsed still decide the kind, so that a
		// rule file's syntax error is reported with its meaning errors.
		// The file is not read again: a pipe would be empty by then.
		if f == nil || env.IsEnvironment(f) {
			return f != nil, nil, err
		}
		_, err = withMeaningErrors(f, err, compiler.Options{})
		return false, nil, err
	}
	if !env.IsEnvironment(f) {
		// Check runs every check of Compile; the code is not needed.
		if err := compiler.Check(f, compiler.Options{}); err != nil {
			return false, nil, fileErrors(err)
		}
		return false, nil, nil
	}
	e, err := env.Load(f)
	if err != nil {
		return true, nil, fileErrors(err)
	}
	return true, env.Lint(f, e), nil
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
				return usage(fmt.Errorf("--actions: %w", err))
			}
			code, err := lang.Symbols(args[0])
			if err != nil {
				return usage(fmt.Errorf("code: %w", err))
			}
			s, err := env.DecodeCode(dialect, code, names, true)
			if err != nil {
				return fileErrors(err)
			}
			fmt.Fprint(io.out, s.Table(names))
			if errs := s.Check(); len(errs) > 0 {
				msgs := make([]string, len(errs))
				for i, e := range errs {
					msgs[i] = "invalid space: " + e.Error()
				}
				return fileErrors(fmt.Errorf("%s", strings.Join(msgs, "\n")))
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
	outside         outsideFlags
}

// runOutcome is the --json output of run (docs/output.md).
type runOutcome struct {
	Version  string `json:"version"`
	File     string `json:"file"`
	Agent    string `json:"agent"`
	Episodes int    `json:"episodes"`
	Steps    int    `json:"steps"`
	Seed     uint64 `json:"seed"`
	// QLearning holds the agent's settings when it is Q-learning.
	QLearning *qSettings `json:"qlearning,omitempty"`
	// AgentSettings are a learner's settings, defaults included.
	AgentSettings map[string]float64 `json:"agent_settings,omitempty"`
	Mean          float64            `json:"mean"`
	// CI95 is null for one episode, which says nothing of the spread.
	CI95     *[2]float64 `json:"ci95"`
	MaxSteps int         `json:"max_vm_steps"`
	Scores   []float64   `json:"scores"`
	Bounds   []boundHit  `json:"bounds"`
	// HorizonEpisodes counts the episodes optimal planned within a
	// horizon, Horizon the fewest interactions it looked ahead in them.
	HorizonEpisodes int `json:"horizon_episodes,omitempty"`
	Horizon         int `json:"horizon,omitempty"`
	// Command, Times and Faults are an agent outside anynt's (--agent-cmd).
	Command string     `json:"agent_cmd,omitempty"`
	Times   *jsonTimes `json:"response_times,omitempty"`
	Faults  []string   `json:"faults,omitempty"`
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

type qSettings struct {
	Alpha float64 `json:"alpha"`
	Gamma float64 `json:"gamma"`
	Q0    float64 `json:"q0"`
}

// scoreMeaning says what run's figures mean, under them.
const scoreMeaning = "score: an episode's average reward, from -1 to 1; a random agent scores 0 in expectation in a balanced environment"

func newRunCmd(io *stdio) *cobra.Command {
	fl := runFlags{settings: agent.DefaultSettings}
	cmd := &cobra.Command{
		Use:   "run FILE [--agent NAME] [--steps N] [--episodes E] [--seed S] [--trace] [--json]",
		Short: "Run an agent in an environment and score it",
		Long: `run plays E episodes of N scored interactions of the environment FILE with
the agent NAME and prints the mean score with its 95% confidence interval
(Student's t; "n/a" for one episode, which says nothing of the spread). Each
episode's score is its average reward, in [-1, 1]; in a balanced environment
(every environment of the class) a random agent scores 0 in expectation. The
seed decides every random choice: the same file, agent and seed give the
same output, bit for bit.

Agents: ` + strings.Join(agent.Names(), ", ") + `. Q-learning's settings must lie in
alpha (0, 1], gamma [0, 1) and q0 finite. The learners take theirs in the
agent's name, NAME:key=value,... (--agent 'qlambda:alpha=0.1,lambda=0.9'),
each optional, with its default and range (docs/environments.md, Agents):
` + agent.Params() + `--episodes is at most ` + fmt.Sprint(maxEpisodes) + `,
--steps at most ` + fmt.Sprint(maxSteps) + `, and their product at most ` + fmt.Sprint(maxRunInteractions) + `.

--trace prints each interaction of the first episode on standard error, under
a header naming the columns: the interaction, π's observation, its action,
its reward, and every object's cell after the moves (π, ⊕, ⊖, ω1…). On a
terminal, a progress line on standard error shows the episodes done, the rate
and the time left. --json prints one JSON object (docs/output.md).

--agent-cmd "CMD" runs a program outside anynt instead of --agent, spoken
to by the protocol of docs/protocol.md, its episodes one after another on
one process; the output adds its response times. A fault is quoted with its
episode and step; the faulted episode scores the rewards it got over all
its interactions; --on-fault stop (the default) ends the run there,
continue restarts the agent for the next episode; either way anynt exits
with status 5 after the output.`,
		Example: `  anynt run corpus/thesis/omega1-blocker.anynt --agent random --episodes 1000
  anynt run corpus/lambda-one/fixture-b.anynt --agent qlearning --steps 10000 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// Q-learning's flags given to another agent would be ignored
			// silently: a mistake the user should hear of.
			for _, name := range []string{"alpha", "gamma", "q0"} {
				if cmd.Flags().Changed(name) && fl.agent != "qlearning" {
					return usage(fmt.Errorf("--%s is a setting of qlearning; agent %s has none", name, fl.agent))
				}
			}
			if err := fl.outside.check(cmd.Flags().Changed, false); err != nil {
				return err
			}
			if len(fl.outside.commands) > 1 {
				return usage(fmt.Errorf("--agent-cmd: run takes one agent; test compares several"))
			}
			if len(fl.outside.commands) == 1 {
				return runOutside(io, args[0], fl)
			}
			return runEnv(io, args[0], fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.agent, "agent", "random", "the evaluated agent: "+strings.Join(agent.Names(), ", "))
	f.IntVar(&fl.steps, "steps", 1000, fmt.Sprintf("scored interactions an episode (1 to %d)", maxSteps))
	f.IntVar(&fl.episodes, "episodes", 100, fmt.Sprintf("episodes (1 to %d)", maxEpisodes))
	f.Uint64Var(&fl.seed, "seed", 1, "the seed of every random choice")
	f.BoolVar(&fl.trace, "trace", false, "print the first episode's interactions on standard error")
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	f.Float64Var(&fl.settings.Alpha, "alpha", agent.DefaultSettings.Alpha, "Q-learning's learning rate, in (0, 1]")
	f.Float64Var(&fl.settings.Gamma, "gamma", agent.DefaultSettings.Gamma, "Q-learning's discount, in [0, 1)")
	f.Float64Var(&fl.settings.Q0, "q0", agent.DefaultSettings.Q0, "Q-learning's initial Q value, finite")
	fl.outside.register(f)
	return cmd
}

// checkRunSize bounds the flags that size a run of E episodes of N
// interactions.
func checkRunSize(episodes, steps int) error {
	if err := checkBound("--episodes", episodes, 1, maxEpisodes); err != nil {
		return err
	}
	if err := checkBound("--steps", steps, 1, maxSteps); err != nil {
		return err
	}
	if episodes*steps > maxRunInteractions {
		return usage(fmt.Errorf("--episodes × --steps is %d interactions; at most %d", episodes*steps, maxRunInteractions))
	}
	return nil
}

func runEnv(io *stdio, file string, fl runFlags) error {
	if err := checkRunSize(fl.episodes, fl.steps); err != nil {
		return err
	}
	newAgent, err := agent.Lookup(fl.agent, fl.settings)
	if err != nil {
		return usage(fmt.Errorf("--agent %s: %w", fl.agent, err))
	}
	e, err := loadEnv(file)
	if err != nil {
		return err
	}
	if fl.trace {
		writeTrace(io.err, e, newAgent(), fl)
	}
	var bar *progress
	if fl.episodes*fl.steps >= 1_000_000 {
		bar = newProgress(io.err, "episodes", fl.episodes)
	}
	ev := env.Evaluate(e, newAgent, fl.episodes, fl.steps, fl.seed, bar.update)
	bar.clear()
	if fl.json {
		bounds := []boundHit{}
		for _, c := range ev.Bounds {
			bounds = append(bounds, boundHit{c.Behaviour, c.Runs, c.StepLimit, c.LengthLimit, c.WorkLimit})
		}
		o := runOutcome{Version: versionString(), File: file, Agent: fl.agent, Episodes: fl.episodes, Steps: fl.steps, Seed: fl.seed,
			Mean: ev.Mean, CI95: ci(ev.CI95[0], ev.CI95[1], fl.episodes), MaxSteps: ev.MaxSteps, Scores: ev.Scores, Bounds: bounds,
			HorizonEpisodes: ev.Horizoned, Horizon: ev.Horizon}
		if fl.agent == "qlearning" {
			o.QLearning = &qSettings{fl.settings.Alpha, fl.settings.Gamma, fl.settings.Q0}
		}
		for _, s := range agent.SpecSettings(fl.agent) {
			if o.AgentSettings == nil {
				o.AgentSettings = map[string]float64{}
			}
			o.AgentSettings[s.Key] = s.Value
		}
		if err := writeJSON(io.out, o); err != nil {
			return err
		}
		return agentFailed(fl.agent, ev)
	}
	fmt.Fprintf(io.out, "%s: agent %s, %s of %s, seed %d\nmean %+.4f, 95%% CI %s\n%s\n",
		file, fl.agent, count(fl.episodes, "episode"), count(fl.steps, "interaction"), fl.seed, ev.Mean, ciText(ev.CI95[0], ev.CI95[1], fl.episodes), scoreMeaning)
	for _, l := range boundLines(ev.Bounds) {
		fmt.Fprintln(io.out, l)
	}
	if ev.Horizoned > 0 {
		fmt.Fprintf(io.out, "%s planned %s of %d within a horizon (%s ahead or more), too large to plan exactly: "+
			"there its score is a lower bound on the optimum, not the optimum\n", fl.agent, count(ev.Horizoned, "episode"), fl.episodes, count(ev.Horizon, "interaction"))
	}
	return agentFailed(fl.agent, ev)
}

// agentFailed is the error of a run in which a built-in agent failed to
// play as it should (optimal that could not plan), exiting with
// exitAgent once the scores are written.
func agentFailed(name string, ev env.Evaluation) error {
	if ev.Failed == 0 {
		return nil
	}
	return agentFault(fmt.Errorf("--agent %s failed in %d of %d episodes, whose scores are not what it claims; the first: %w",
		name, ev.Failed, len(ev.Scores), ev.Failure))
}

// writeTrace plays the first episode (its seed is the evaluation's first)
// and prints each interaction under a header naming the columns.
func writeTrace(w io.Writer, e *env.Env, a env.Agent, fl runFlags) {
	names := []string{"π", "⊕", "⊖"}
	for _, o := range e.Objects {
		names = append(names, o.Name)
	}
	fmt.Fprintf(w, "interaction\tobservation\taction\treward\tcells after the moves (%s)\n", strings.Join(names, " "))
	ep := env.NewEpisode(e, a, env.EpisodeSeed(fl.seed, 0))
	ep.Run(fl.steps, func(s env.Step) {
		cells := make([]string, len(s.Positions))
		for i, c := range s.Positions {
			cells[i] = fmt.Sprint(c)
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%+.4g\t%s\n", s.Interaction, s.Observation, s.Action, s.Reward, strings.Join(cells, " "))
	})
}
