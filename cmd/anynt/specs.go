package main

import (
	"strings"

	"github.com/spf13/pflag"
)

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
