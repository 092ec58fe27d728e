package generate

import (
	"fmt"
	"slices"

	"github.com/anynt/anynt/env"
)

// candidateChecker is Check for Enumerate's candidates, most of them
// without their text: the family has no settings, so the candidates of one
// space load to environments that differ only in their Good/Evil pattern
// (the defaults fill in the rest alike), and each candidate's bits are
// those package complexity computes for its file (TestEnumerate checks
// it). So the first candidate of a space is checked as Check checks it,
// from its text; when every filter agent plays lean episodes, the others
// take that candidate's lean form with their own pattern and bits, and skip
// writing, parsing, loading and costing their text (TestCandidateChecker
// compares the verdicts with Check's).
type candidateChecker struct {
	s      FilterSettings
	agents map[string]filterAgent
	lean   bool                     // every filter agent plays lean episodes
	spaces map[*env.Space]*env.Lean // the lean form of a space's first candidate
}

func newCandidateChecker(s FilterSettings) (*candidateChecker, error) {
	agents, err := s.agents()
	if err != nil {
		return nil, err
	}
	lean := true
	for _, a := range agents {
		lean = lean && a.rule != env.NoRule
	}
	return &candidateChecker{s: s, agents: agents, lean: lean, spaces: map[*env.Space]*env.Lean{}}, nil
}

// check is Check(c's file name, c.Source(), the settings).
func (cc *candidateChecker) check(c Candidate) Verdict {
	if first, ok := cc.spaces[c.Space]; ok {
		// A pattern of other actions than the space's (which Enumerate
		// does not make) is checked from its text.
		if lean, err := first.WithPattern(c.Pattern); err == nil {
			return filters(Verdict{Bits: c.Bits}, nil, lean, cc.agents, cc.s)
		}
	}
	v, e := load(fmt.Sprintf("candidate-%d.anynt", c.Index), c.Source())
	if e == nil {
		return v
	}
	lean, ok := e.Lean()
	if ok && cc.lean && slices.Equal(e.GoodEvil.Pattern, c.Pattern) {
		cc.spaces[c.Space] = lean
	}
	if !ok {
		lean = nil
	}
	return filters(v, e, lean, cc.agents, cc.s)
}
