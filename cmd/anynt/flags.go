package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/spf13/pflag"
)

// flagGroup is a group of flags as registered, in order: a group that
// registers through it can say which of its flags were given, so that a
// check that refuses the group's flags where they mean nothing names them
// without a list kept by hand beside the registration. A flag may be in
// several groups (a battery's flags are also the flags that describe a
// study).
type flagGroup struct {
	flags []*pflag.Flag
}

// register defines the group's flags with define and adds them to f.
func (g *flagGroup) register(f *pflag.FlagSet, define func(*pflag.FlagSet)) {
	own := pflag.NewFlagSet("", pflag.ContinueOnError)
	own.SortFlags = false // VisitAll in the order registered
	define(own)
	own.VisitAll(func(fl *pflag.Flag) { g.flags = append(g.flags, fl) })
	f.AddFlagSet(own)
}

// given is the first of the group's flags given on the command line, in
// the order registered, or "" when none was.
func (g *flagGroup) given() string {
	for _, fl := range g.flags {
		if fl.Changed {
			return fl.Name
		}
	}
	return ""
}

// changed reports whether the group's flag name was given.
func (g *flagGroup) changed(name string) bool {
	for _, fl := range g.flags {
		if fl.Name == name {
			return fl.Changed
		}
	}
	return false
}

// firstGiven is the first flag given of the groups, taken in order, or "".
func firstGiven(groups ...*flagGroup) string {
	for _, g := range groups {
		if name := g.given(); name != "" {
			return name
		}
	}
	return ""
}

// checkBound refuses a flag value outside [lo, hi] as a usage error.
func checkBound(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usage(fmt.Errorf("%s is %d; it must be from %d to %d", flag, v, lo, hi))
	}
	return nil
}

// Ceilings of the flags that size a run (docs/output.md): beyond them a
// run would take days or exhaust memory (a score is kept per episode), so
// they are usage errors, not crashes.
const (
	maxEpisodes        = 1_000_000
	maxSteps           = 10_000_000     // scored interactions an episode
	maxRunInteractions = 10_000_000_000 // episodes × steps of one run
	maxInteractions    = 10_000_000     // of the complexity command's Kt^max run
)

// runSize is the size of anynt run: E episodes of N scored interactions.
type runSize struct {
	episodes, steps int
}

func (r *runSize) register(f *pflag.FlagSet) {
	f.IntVar(&r.steps, "steps", 1000, fmt.Sprintf("scored interactions an episode (1 to %d)", maxSteps))
	f.IntVar(&r.episodes, "episodes", 100, fmt.Sprintf("episodes (1 to %d)", maxEpisodes))
}

// check bounds each flag and their product.
func (r runSize) check() error {
	if err := checkBound("--episodes", r.episodes, 1, maxEpisodes); err != nil {
		return err
	}
	if err := checkBound("--steps", r.steps, 1, maxSteps); err != nil {
		return err
	}
	if r.episodes*r.steps > maxRunInteractions {
		return usage(fmt.Errorf("--episodes × --steps is %d interactions; at most %d", r.episodes*r.steps, maxRunInteractions))
	}
	return nil
}

// qlearningFlags are Q-learning's settings, --alpha, --gamma and --q0,
// which run, test and results take.
type qlearningFlags struct {
	settings agent.Settings
	group    flagGroup
}

func (q *qlearningFlags) register(f *pflag.FlagSet) {
	q.settings = agent.DefaultSettings
	q.group.register(f, func(f *pflag.FlagSet) {
		f.Float64Var(&q.settings.Alpha, "alpha", agent.DefaultSettings.Alpha, "Q-learning's learning rate, in (0, 1]")
		f.Float64Var(&q.settings.Gamma, "gamma", agent.DefaultSettings.Gamma, "Q-learning's discount, in [0, 1)")
		f.Float64Var(&q.settings.Q0, "q0", agent.DefaultSettings.Q0, "Q-learning's initial Q value, finite")
	})
}

// check refuses Q-learning's settings when no agent is Q-learning: they
// would act on nothing, silently. agents names the agents for the
// message, "agent random has" or "the agents random, oracle have".
func (q *qlearningFlags) check(used bool, agents string) error {
	if name := q.group.given(); name != "" && !used {
		return usage(fmt.Errorf("--%s is a setting of qlearning; %s none", name, agents))
	}
	return nil
}

// qSettings are Q-learning's settings as the JSON outputs write them.
type qSettings struct {
	Alpha float64 `json:"alpha"`
	Gamma float64 `json:"gamma"`
	Q0    float64 `json:"q0"`
}

// json is the settings for a JSON output.
func (q *qlearningFlags) json() *qSettings {
	return &qSettings{q.settings.Alpha, q.settings.Gamma, q.settings.Q0}
}

// specList is a flag of agent specs (agent.Lookup), comma-separated or
// repeated, as pflag's string slice, except that a piece key=value after
// a spec with a colon is that spec's setting, not an agent:
// --agent 'qlambda:alpha=0.1,lambda=0.9,random' names two agents.
type specList struct {
	p   *[]string
	set bool // a first Set replaces the default, later ones append
}

// specListVar defines a flag of agent specs with its default.
func specListVar(f *pflag.FlagSet, p *[]string, name string, value []string, usage string) {
	*p = value
	f.Var(&specList{p: p}, name, usage)
}

func (s *specList) Set(v string) error {
	if !s.set {
		*s.p = nil
	}
	s.set = true
	*s.p = append(*s.p, splitSpecs(v)...)
	return nil
}

func (s *specList) String() string { return "[" + strings.Join(*s.p, ",") + "]" }
func (s *specList) Type() string   { return "strings" }

// splitSpecs cuts a comma-separated list of agent specs: a piece with an
// "=" and no ":" continues the spec before it when that one has settings.
func splitSpecs(v string) []string {
	var specs []string
	for piece := range strings.SplitSeq(v, ",") {
		if n := len(specs); n > 0 && strings.Contains(piece, "=") && !strings.Contains(piece, ":") && strings.Contains(specs[n-1], ":") {
			specs[n-1] += "," + piece
			continue
		}
		specs = append(specs, piece)
	}
	return specs
}
