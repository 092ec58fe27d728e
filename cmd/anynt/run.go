package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/spf13/cobra"
)

// runFlags are anynt run's flags, its groups registered and checked by
// their own code.
type runFlags struct {
	agent       string
	seed        uint64
	trace, json bool
	runSize
	q       qlearningFlags
	outside outsideFlags
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

// scoreMeaning says what run's figures mean, under them.
const scoreMeaning = "score: an episode's average reward, from -1 to 1; a random agent scores 0 in expectation in a balanced environment"

func newRunCmd(io *stdio) *cobra.Command {
	var fl runFlags
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
			if err := fl.q.check(fl.agent == "qlearning", "agent "+fl.agent+" has"); err != nil {
				return err
			}
			if err := fl.outside.check(false); err != nil {
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
	defs := defsOf(f)
	f.StringVar(&fl.agent, "agent", "random", "the evaluated agent: "+strings.Join(agent.Names(), ", "))
	fl.runSize.register(defs)
	f.Uint64Var(&fl.seed, "seed", 1, "the seed of every random choice")
	f.BoolVar(&fl.trace, "trace", false, "print the first episode's interactions on standard error")
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	fl.q.register(defs)
	fl.outside.register(defs)
	return cmd
}

func runEnv(io *stdio, file string, fl runFlags) error {
	if err := fl.runSize.check(); err != nil {
		return err
	}
	newAgent, err := agent.Lookup(fl.agent, fl.q.settings)
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
			o.QLearning = fl.q.json()
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
