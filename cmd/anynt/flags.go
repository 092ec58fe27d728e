package main

import (
	"fmt"
	"strings"
	"time"

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

// flagDefs defines flags on a command's flag set, as pflag.FlagSet does,
// and records each in the groups it is being defined in (in). Recording
// is a lookup and an append, so that making a command, which every run
// does, costs no more than its flags.
type flagDefs struct {
	set    *pflag.FlagSet
	groups []*flagGroup
}

// defsOf defines flags on f, in no group yet.
func defsOf(f *pflag.FlagSet) flagDefs { return flagDefs{set: f} }

// in defines with define the flags of g, which are also those of the
// groups d is defining.
func (d flagDefs) in(g *flagGroup, define func(flagDefs)) {
	define(flagDefs{d.set, append(d.groups[:len(d.groups):len(d.groups)], g)})
}

func (d flagDefs) record(name string) {
	fl := d.set.Lookup(name)
	for _, g := range d.groups {
		g.flags = append(g.flags, fl)
	}
}

func (d flagDefs) IntVar(p *int, name string, value int, usage string) {
	d.set.IntVar(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) Uint64Var(p *uint64, name string, value uint64, usage string) {
	d.set.Uint64Var(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) Float64Var(p *float64, name string, value float64, usage string) {
	d.set.Float64Var(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) BoolVar(p *bool, name string, value bool, usage string) {
	d.set.BoolVar(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) StringVar(p *string, name string, value string, usage string) {
	d.set.StringVar(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) StringArrayVar(p *[]string, name string, value []string, usage string) {
	d.set.StringArrayVar(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) DurationVar(p *time.Duration, name string, value time.Duration, usage string) {
	d.set.DurationVar(p, name, value, usage)
	d.record(name)
}

func (d flagDefs) Var(value pflag.Value, name string, usage string) {
	d.set.Var(value, name, usage)
	d.record(name)
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

func (r *runSize) register(f flagDefs) {
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

func (q *qlearningFlags) register(f flagDefs) {
	q.settings = agent.DefaultSettings
	f.in(&q.group, func(f flagDefs) {
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

// specListVar defines a flag of agent specs with its default on f, a
// pflag.FlagSet or flagDefs.
func specListVar(f interface {
	Var(pflag.Value, string, string)
}, p *[]string, name string, value []string, usage string) {
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
