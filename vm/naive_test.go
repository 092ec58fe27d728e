package vm

import (
	"slices"
	"testing"
)

// naiveRule is a plain rule over symbol names, without memory.
type naiveRule struct {
	lhs, rhs    []string
	terminating bool
}

// naiveRules reads the plain, memoryless rules of p back as names.
func naiveRules(t testing.TB, p *Program) []naiveRule {
	names := func(run []byte) []string {
		s := make([]string, len(run))
		for i, c := range run {
			s[i] = p.Symbols[c]
		}
		return s
	}
	var rules []naiveRule
	for i, r := range p.Rules {
		if !r.Plain || r.Store >= 0 || r.StoreWhole {
			t.Fatalf("rule %d is not plain and memoryless", i)
		}
		nr := naiveRule{lhs: names(r.Literal), terminating: r.Terminating}
		for pc := r.Write; p.Code[pc].Op != OpDone; pc++ {
			in := p.Code[pc]
			if in.Op != OpEmit {
				t.Fatalf("rule %d writes with %s", i, in.Op)
			}
			nr.rhs = append(nr.rhs, names(p.Literals[in.A:in.A+in.B])...)
		}
		rules = append(rules, nr)
	}
	return rules
}

// naiveRun is the obvious interpreter of plain rules over slices of symbol
// names, written from the definition of a step. The tests compare the
// machine with it, and the benchmarks measure the machine against it. Its
// limits are taken literally (no defaults).
func naiveRun(rules []naiveRule, input []string, opt Options) ([]string, Result) {
	s := slices.Clone(input)
	res := Result{Rule: -1}
	if len(s) > opt.MaxLen {
		res.Halt = LengthLimit
		return s, res
	}
	for {
		rule, at := -1, -1
		for i, r := range rules {
			if at = naiveFind(s, r.lhs, opt.Leftmost); at >= 0 {
				rule = i
				break
			}
		}
		if rule < 0 {
			res.Halt = NoRule
			return s, res
		}
		if res.Steps == opt.MaxSteps {
			res.Halt = StepLimit
			return s, res
		}
		r := rules[rule]
		next := slices.Concat(s[:at], r.rhs, s[at+len(r.lhs):])
		if len(next) > opt.MaxLen {
			res.Halt = LengthLimit
			return s, res
		}
		s = next
		res.Steps++
		res.Rule = rule
		if r.terminating {
			res.Halt = Terminated
			return s, res
		}
	}
}

func naiveFind(s, lhs []string, leftmost bool) int {
	last := len(s) - len(lhs)
	if leftmost {
		for i := 0; i <= last; i++ {
			if slices.Equal(s[i:i+len(lhs)], lhs) {
				return i
			}
		}
		return -1
	}
	for i := last; i >= 0; i-- {
		if slices.Equal(s[i:i+len(lhs)], lhs) {
			return i
		}
	}
	return -1
}
