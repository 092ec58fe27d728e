package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Ceilings of test's flags (docs/reports.md): beyond them a test would
// take days, or its outcomes (a score an episode) would fill memory.
const (
	maxTests        = 1000
	maxTestScores   = 10_000_000     // items × agents × episodes
	maxTestInteract = 10_000_000_000 // interactions of the whole test
)

// testFlags are the flags of anynt test; a protocol reads those it needs.
type testFlags struct {
	protocol, pace, score, html string
	agents                      []string
	tests, episodes             int
	seed                        uint64
	tau, lambda                 float64
	json, csv, quiet, adaptive  bool
	bounds                      bool
	settings                    agent.Settings
	files                       []string // a battery's files and folders
	outside                     outsideFlags
	battery                     batteryFlags
	adaptiveTest                adaptiveFlags
}

// protocol is a kind of test: how its items are drawn, and what the
// report calls their complexity and how it groups them. flags are the
// flags only it reads.
type protocol struct {
	about  string
	items  func(fl testFlags) ([]exam.Item, error)
	report report.Protocol
	flags  []string
	// settings names the protocol's own settings for the report; nil
	// when it has none beyond the seed and the tests.
	settings func(fl testFlags) string
}

// protocols are the tests anynt test gives, by --protocol.
var protocols = map[string]protocol{
	"lambda-one": {
		about: "the Λ_one of Insa-Cabrera et al. 2011: --tests tests of 7 exercises (3…9 cells), test k drawn from seed+k−1",
		items: func(fl testFlags) ([]exam.Item, error) {
			return exam.LambdaOneItems(fl.seed, fl.tests, versionString())
		},
		report: report.Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: report.ByCells},
		flags:  []string{"tests"},
	},
	"battery": {
		about: "environments from FILEs and folders or the generator, drawn by complexity (below)",
		items: func(fl testFlags) ([]exam.Item, error) {
			return batteryItems(fl.files, fl.battery, fl.seed)
		},
		report: report.Protocol{Name: "battery", Complexity: "bits", Strata: report.ByComplexity},
		settings: func(fl testFlags) string {
			return fl.battery.describe(fl.files)
		},
		flags: []string{"weighting", "sample", "steps", "stratum-width", "generate", "pool", "filters"},
	},
}

// adaptiveOnly are the flags only --adaptive reads, and adaptiveRefuses
// those it has no use for: it draws its own environments and times them,
// and prints its own trajectory.
var (
	adaptiveOnly    = []string{"test-time", "first-time", "time-step", "max-time", "ladder", "up", "down"}
	adaptiveRefuses = []string{"protocol", "tests", "episodes", "tau", "quiet", "weighting", "sample", "steps", "stratum-width", "bounds"}
)

func protocolNames() []string {
	var names []string
	for n := range protocols {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func newTestCmd(io *stdio) *cobra.Command {
	fl := testFlags{settings: agent.DefaultSettings}
	cmd := &cobra.Command{
		Use:   "test [--protocol P | --adaptive] [--agent A,B] [--tests N] [--seed S] [--json | --csv] [--html FILE] [FILE|DIR...]",
		Short: "Give a test to agents and report their scores",
		Long: `test draws the items of a test from one seed, gives every item to every agent
(--agent, a list: the same items and episode seeds for each, a paired design),
in simulated physical time (--pace: the delay before each action, constant:D,
uniform:A:B or exponential:MEAN seconds), and prints a report: the version,
the test and every setting, and what the score, K_approx and bits are; a
table of the items (test, exercise, name, cells, K_approx, bits,
interactions, each agent's score and, from two episodes, its 95% CI); a
summary per agent (mean, sd, 95% CI, Pearson's r of score against
complexity with its two- and one-tailed p); the same per stratum (as Table 2
of Insa-Cabrera et al. 2011, "Comparing humans and AI agents"); the five
payoffs at τ of Hernández-Orallo 2010a, "On Evaluating Agent Performance in
a Fixed Period of Time"; every agent's paired difference from the first;
each item's scale, its optimum (the clairvoyant best of its episodes) and
random's expected score, with each agent's normalised score, (score −
random) / (optimum − random) (--bounds=false skips it); and the ranking of
the agents, each with its paired difference from the next.
For Q-learning with the thesis's settings on lambda-one, the figures of
Insa-Cabrera et al. 2011 are printed beside ours. The same seed gives the
same output, bit for bit (docs/reports.md).

Protocols:
` + protocolHelp() + `
` + batteryHelp + `

--adaptive gives the adaptive anytime test instead (docs/tests.md): a
staircase over Λ_one's ladder of 3…9 cells (--ladder k-approx: by the
pattern's K_approx; or, given FILEs and folders or --generate, over a pool
of environments cut into up to 7 levels of description length),
environment k given --first-time + k × --time-step seconds up to
--max-time, the level raised after a payoff of at least --up and lowered
below --down, until --test-time seconds are used; it prints each agent's
trajectory and its score (the mean of level/levels × payoff) with its
standard error and its 95% interval, both from a model of the staircase
(--json, --csv: every step; --html FILE: a page with the plots of its
score and its level over the test time).

Agents: ` + strings.Join(agent.Names(), ", ") + `. The learners take their
settings in the agent's name, NAME:key=value,... (--agent
'qlambda:alpha=0.1,lambda=0.9'), each optional, with its default and range;
the report names the agent as given and every setting (docs/environments.md, Agents):
` + agent.Params() + `
--agent-cmd "CMD" examines a program outside anynt, in any language, that
speaks the protocol of docs/protocol.md on its standard input and output:
it takes the items one after another on one process, and its measured
response time replaces the pace. --agent-batch K lets it take up to K items
at once: one message carries their observations and one answer their
actions, each item timed with the round's time and scored as alone; the
agent must accept batches in its hello. Alone unless --agent names built-in agents
too; repeat --agent-cmd to compare several (each takes the test in turn). A fault (no answer within --agent-timeout, the test past
--agent-test-timeout, a crash, a malformed line, an illegal action, an
error message, a line when no answer is expected, another protocol version)
is quoted with its exercise and step; what was measured is kept and
reported; --on-fault stop ends the test at that item for every agent,
continue restarts the agent for the next item; either way anynt then exits
with status 5. The agent runs in a process group of its own, ended with
it. SIGINT, SIGTERM or SIGHUP end the agents at once, stop the test where
it was, write the report and exit with 128 + the signal's number.

An item is played --episodes times (its score is their mean) for --tau
seconds (0: its interactions × the pace's mean delay) and scored by --score:
` + exam.ScoreNames() + `. --lambda is V|γ|τ's discount.
Q-learning's --alpha, --gamma, --q0 are refused when no agent is qlearning.
--tests is 1 to ` + fmt.Sprint(maxTests) + `; items × agents × episodes at most ` + fmt.Sprint(maxTestScores) + `.

--json prints one object a line: one for each agent and item, then one
summary for each agent (docs/reports.md). --csv prints a row for each agent
and item, the settings in every row. --html FILE writes a self-contained page
with the tables and the plots. --quiet prints no table and no progress line.
On a terminal a progress line on standard error shows the rate and time left.`,
		Example: `  anynt test --protocol lambda-one --agent qlearning --tests 20 --seed 1
  anynt test --agent random,qlearning,oracle --tests 20 --html report.html
  anynt test --agent random --agent qlambda --agent 'sarsalambda:lambda=0.9,epsilon=0.1' --agent hlq --agent freq
  anynt test --agent qlearning --pace uniform:0.5:1.5 --score per-cycle --csv > items.csv
  anynt test --protocol battery --agent random,oracle --steps 1000 corpus/paper
  anynt test --protocol battery --generate 60 --pool 200 --weighting universal --sample 50
  anynt test --adaptive --agent random,follower,oracle --test-time 5000
  anynt test --agent random,qlearning --agent-cmd "python3 my_agent.py" --tests 20`,
		RunE: func(cmd *cobra.Command, args []string) error {
			changed := cmd.Flags().Changed
			if err := checkAgentSettings(fl, changed); err != nil {
				return err
			}
			if err := checkProtocolFlags(fl, changed, len(args)); err != nil {
				return err
			}
			if err := fl.outside.check(changed, fl.adaptive); err != nil {
				return err
			}
			if len(fl.outside.commands) > 0 && !changed("agent") {
				fl.agents = nil // the agent outside anynt alone, unless built-in ones are named
			}
			fl.files = args
			if fl.adaptive {
				return runAdaptiveTest(io, fl)
			}
			return runTest(io, fl)
		},
	}
	f := cmd.Flags()
	fl.registerProtocol(f)
	fl.registerExam(f, []string{"random", "qlearning"})
	fl.outside.register(f)
	fl.outside.registerBatch(f)
	f.BoolVar(&fl.bounds, "bounds", true, "compute each item's optimum and random's expectation, and the normalised scores (--bounds=false skips it)")
	f.BoolVar(&fl.adaptive, "adaptive", false, "give the adaptive anytime test instead of a protocol")
	fl.adaptiveTest = newAdaptiveFlags()
	fl.adaptiveTest.register(f)
	return cmd
}

// registerProtocol adds the flags that draw a test's items: the protocol,
// its tests and seed, and a battery's flags.
func (fl *testFlags) registerProtocol(f *pflag.FlagSet) {
	f.StringVar(&fl.protocol, "protocol", "lambda-one", "the test: "+protocolList())
	f.IntVar(&fl.tests, "tests", 20, fmt.Sprintf("the tests drawn (1 to %d)", maxTests))
	f.Uint64Var(&fl.seed, "seed", 1, "the seed of every random choice")
	fl.battery.register(f)
}

// registerExam adds the flags that decide how the agents (by default
// agents) take the items and how the report is written.
func (fl *testFlags) registerExam(f *pflag.FlagSet, agents []string) {
	d := exam.DefaultSettings
	specListVar(f, &fl.agents, "agent", agents, "the agents, a list (comma-separated or repeated), each a name with, for qlambda, sarsalambda, hlq and freq, optional settings name:key=value,...; the first is the paired differences' baseline")
	f.IntVar(&fl.episodes, "episodes", d.Episodes, fmt.Sprintf("episodes of each item (1 to %d)", exam.MaxEpisodes))
	f.StringVar(&fl.pace, "pace", d.Pace.String(), "the delay before each action: constant:D, uniform:A:B or exponential:MEAN seconds")
	f.Float64Var(&fl.tau, "tau", d.Tau, "the test time of an item in seconds; 0: its interactions × the pace's mean delay")
	f.Float64Var(&fl.lambda, "lambda", d.Lambda, "the discount of V|γ|τ, in (0, 1)")
	f.StringVar(&fl.score, "score", string(d.Score), "the payoff that scores an item: "+exam.ScoreNames())
	f.BoolVar(&fl.json, "json", false, "print JSON lines: one for each agent and item, one summary for each agent")
	f.BoolVar(&fl.csv, "csv", false, "print CSV: a row for each agent and item")
	f.StringVar(&fl.html, "html", "", "write a self-contained HTML report with plots to FILE")
	f.BoolVar(&fl.quiet, "quiet", false, "print no table and no progress line")
	f.Float64Var(&fl.settings.Alpha, "alpha", agent.DefaultSettings.Alpha, "Q-learning's learning rate, in (0, 1]")
	f.Float64Var(&fl.settings.Gamma, "gamma", agent.DefaultSettings.Gamma, "Q-learning's discount, in [0, 1)")
	f.Float64Var(&fl.settings.Q0, "q0", agent.DefaultSettings.Q0, "Q-learning's initial Q value, finite")
}

// checkAgentSettings refuses Q-learning's settings when no agent is
// Q-learning: they would act on nothing.
func checkAgentSettings(fl testFlags, changed func(string) bool) error {
	for _, name := range []string{"alpha", "gamma", "q0"} {
		if changed(name) && !slices.Contains(fl.agents, "qlearning") {
			return usage(fmt.Errorf("--%s is a setting of qlearning; the agents %s have none", name, strings.Join(fl.agents, ", ")))
		}
	}
	return nil
}

// checkProtocolFlags refuses a flag or a file that the test asked for does
// not read: a flag silently ignored would make the user believe it acted.
func checkProtocolFlags(fl testFlags, changed func(string) bool, files int) error {
	refuse := func(flag, test string) error {
		return usage(fmt.Errorf("--%s means nothing to %s", flag, test))
	}
	if fl.adaptive {
		for _, name := range adaptiveRefuses {
			if changed(name) {
				return refuse(name, "the adaptive test")
			}
		}
		return nil
	}
	for _, name := range adaptiveOnly {
		if changed(name) {
			return refuse(name, "a protocol; it is a setting of --adaptive")
		}
	}
	p, ok := protocols[fl.protocol]
	if !ok {
		return usage(fmt.Errorf("--protocol: no protocol %q (the protocols: %s)", fl.protocol, protocolList()))
	}
	for _, n := range protocolNames() { // in order: the same command names the same flag
		for _, name := range protocols[n].flags {
			if n != fl.protocol && changed(name) && !slices.Contains(p.flags, name) {
				return refuse(name, "--protocol "+fl.protocol)
			}
		}
	}
	if files > 0 && fl.protocol != "battery" {
		return usage(fmt.Errorf("--protocol %s draws its own environments; files are for --protocol battery", fl.protocol))
	}
	return nil
}

// runAdaptiveTest gives the adaptive test with the command's shared
// settings: the agents, the pace, the payoff and λ.
func runAdaptiveTest(io *stdio, fl testFlags) error {
	pace, err := exam.ParsePace(fl.pace)
	if err != nil {
		return usage(fmt.Errorf("--pace: %w", err))
	}
	a := fl.adaptiveTest
	a.settings.Pace, a.settings.Score, a.settings.Lambda = pace, exam.Score(fl.score), fl.lambda
	_, examinees, agents, err := testSettings(fl)
	if err != nil {
		return err
	}
	a.html, a.agents = fl.html, agents
	if slices.Contains(fl.agents, "qlearning") {
		a.qlearning = &qSettings{fl.settings.Alpha, fl.settings.Gamma, fl.settings.Q0}
	}
	if len(fl.files) > 0 || fl.battery.changed("generate") {
		pool, err := poolOf(fl.files, fl.battery)
		if err != nil {
			return err
		}
		ladder, err := exam.NewPoolLadder(pool)
		if err != nil {
			return usage(err)
		}
		a.settings.Ladder = ladder
	} else {
		for _, name := range []string{"pool", "filters"} {
			if fl.battery.changed(name) {
				return usage(fmt.Errorf("--%s is for --generate", name))
			}
		}
	}
	form := adaptiveText
	switch {
	case fl.json && fl.csv:
		return usage(fmt.Errorf("--json and --csv both print the trajectories; choose one"))
	case fl.json:
		form = adaptiveJSONLines
	case fl.csv:
		form = adaptiveCSV
	}
	return runAdaptive(io, examinees, a, fl.seed, form)
}

func protocolList() string { return strings.Join(protocolNames(), ", ") }

// protocolHelp lists the protocols with what each gives, a line each.
func protocolHelp() string {
	var b strings.Builder
	for _, n := range protocolNames() {
		fmt.Fprintf(&b, "  %s: %s\n", n, protocols[n].about)
	}
	return b.String()
}

// testSettings checks the flags that do not depend on the protocol and
// turns them into the exam's settings and examinees.
func testSettings(fl testFlags) (exam.Settings, []exam.Examinee, []report.Agent, error) {
	s := exam.DefaultSettings
	s.Episodes, s.Tau, s.Lambda, s.Score = fl.episodes, fl.tau, fl.lambda, exam.Score(fl.score)
	var err error
	if s.Pace, err = exam.ParsePace(fl.pace); err != nil {
		return s, nil, nil, usage(fmt.Errorf("--pace: %w", err))
	}
	if err := s.Validate(); err != nil {
		return s, nil, nil, usage(err)
	}
	if err := checkBound("--tests", fl.tests, 1, maxTests); err != nil {
		return s, nil, nil, err
	}
	if len(fl.agents) == 0 && len(fl.outside.commands) == 0 {
		return s, nil, nil, usage(fmt.Errorf("--agent: no agent given"))
	}
	s.ContinueAfterFault = fl.outside.onFault == "continue"
	var as []report.Agent
	for i, name := range fl.agents {
		if slices.Contains(fl.agents[:i], name) {
			return s, nil, nil, usage(fmt.Errorf("--agent: %s is named twice", name))
		}
		as = append(as, report.AgentOf(name, fl.settings))
	}
	xs, err := exam.Examinees(fl.agents, fl.settings)
	if err != nil {
		return s, nil, nil, usage(fmt.Errorf("--agent: %w", err))
	}
	return s, xs, as, nil
}

// checkTestSize bounds the scores kept and the interactions played.
func checkTestSize(items []exam.Item, agents int, s exam.Settings) error {
	scores := len(items) * agents * s.Episodes
	if scores > maxTestScores {
		return usage(fmt.Errorf("items × agents × episodes is %d; at most %d", scores, maxTestScores))
	}
	var steps int
	for _, it := range items {
		steps += it.Steps
	}
	if steps*agents*s.Episodes > maxTestInteract {
		return usage(fmt.Errorf("the test would play %d interactions; at most %d", steps*agents*s.Episodes, maxTestInteract))
	}
	return nil
}

func runTest(io *stdio, fl testFlags) (err error) {
	p := protocols[fl.protocol] // checkProtocolFlags found it
	if fl.json && fl.csv {
		return usage(fmt.Errorf("--json and --csv both print the items; choose one"))
	}
	s, examinees, agents, err := testSettings(fl)
	if err != nil {
		return err
	}
	items, err := p.items(fl)
	if err != nil {
		return err
	}
	if fl.protocol != "lambda-one" {
		fl.tests = 1
	}
	if err := checkTestSize(items, len(examinees)+len(fl.outside.commands), s); err != nil {
		return err
	}
	names := slices.Clone(fl.agents)
	if len(fl.outside.commands) > 0 {
		g := newGuard()
		defer func() { err = g.stop(err) }() // after the agents' Close
		s.Stop = g.stopped
		for _, command := range fl.outside.commands {
			x, a, err := fl.outside.start(io, g, command, names)
			if err != nil {
				return err
			}
			defer x.Process.Close()
			examinees, agents, names = append(examinees, x), append(agents, a), append(names, x.Name)
		}
	}
	var bar *progress
	if !fl.quiet {
		bar = newProgress(io.err, "items", len(items)*len(examinees))
	}
	outcomes, err := exam.Take(items, examinees, s, func(done, total int) {
		if bar != nil {
			bar.total = total // smaller when an agent's fault stops the test
		}
		bar.update(done)
	})
	bar.clear()
	var failed *exam.AgentError
	if errors.As(err, &failed) {
		items = items[:failed.Items] // what every examinee took
		if len(items) == 0 {         // stopped before any item: nothing to report
			return failed
		}
	} else if err != nil {
		return usage(err)
	}
	if p.settings != nil {
		p.report.Settings = p.settings(fl)
	}
	var bounds []exam.Bound
	if fl.bounds {
		if !fl.quiet {
			bar = newProgress(io.err, "item scales", len(items))
		}
		bounds = exam.Bounds(items, s, bar.update)
		bar.clear()
	}
	rep, err := report.New(report.Input{Version: versionString(), Protocol: p.report, Seed: fl.seed, Tests: fl.tests,
		Settings: s, Agents: agents, Items: items, Outcomes: outcomes, Bounds: bounds})
	if err != nil {
		return err
	}
	if err := writeTestReport(io, rep, fl); err != nil {
		return err
	}
	if failed != nil {
		return failed
	}
	return nil
}

// writeTestReport writes the report in the forms the flags ask for; a file
// or stream that cannot be written exits with exitIO.
func writeTestReport(io *stdio, rep *report.Report, fl testFlags) error {
	if fl.html != "" {
		var b bytes.Buffer
		if err := rep.WriteHTML(&b); err != nil {
			return err
		}
		if err := writeSource(fl.html, b.Bytes()); err != nil {
			return err
		}
	}
	var err error
	switch {
	case fl.json:
		err = rep.WriteJSON(io.out)
	case fl.csv:
		err = rep.WriteCSV(io.out)
	case !fl.quiet:
		err = rep.WriteText(io.out)
	}
	if err != nil {
		return ioFailure(err)
	}
	return nil
}
