package vm

import (
	"testing"

	"github.com/anynt/anynt/internal/reference"
	"github.com/anynt/anynt/lang"
)

// plainRules reads the plain rules of p back as the expansion they are, for
// the reference interpreter.
func plainRules(t testing.TB, p *Program) []lang.PlainRule {
	names := func(run []byte) []string {
		s := make([]string, len(run))
		for i, c := range run {
			s[i] = p.Symbols[c]
		}
		return s
	}
	var rules []lang.PlainRule
	for i, r := range p.Rules {
		if !r.Plain || r.Store >= 0 {
			t.Fatalf("rule %d is not plain", i)
		}
		pr := lang.PlainRule{LHS: names(r.Literal), Terminating: r.Terminating, MarkFrom: -1, StoreWhole: r.StoreWhole}
		for pc := r.Write; p.Code[pc].Op != OpDone; pc++ {
			switch in := p.Code[pc]; in.Op {
			case OpEmit:
				for _, sym := range names(p.Literals[in.A : in.A+in.B]) {
					pr.RHS = append(pr.RHS, lang.PlainItem{Sym: sym})
				}
			case OpEmitMemory:
				pr.RHS = append(pr.RHS, lang.PlainItem{Recall: true})
			default:
				t.Fatalf("rule %d writes with %s", i, in.Op)
			}
		}
		rules = append(rules, pr)
	}
	return rules
}

// referenceRun runs rules on the reference interpreter, with a fresh
// memory, and gives its result in the machine's terms.
func referenceRun(rules []lang.PlainRule, input []string, opt Options) ([]string, Result) {
	in := reference.New(rules, reference.Options{Leftmost: opt.Leftmost, MaxSteps: opt.MaxSteps, MaxLen: opt.MaxLen})
	res := Result{Rule: -1}
	in.Trace = func(rule int, _ []string) { res.Rule = rule }
	out := in.Run(input)
	res.Steps, res.Halt = out.Steps, haltOf(out.Halt)
	return out.Output, res
}

// haltOf translates the reference's halting reasons.
func haltOf(h reference.Halt) HaltReason {
	switch h {
	case reference.Terminated:
		return Terminated
	case reference.NoRule:
		return NoRule
	case reference.StepLimit:
		return StepLimit
	case reference.LengthLimit:
		return LengthLimit
	}
	panic("vm: the reference halted for an unknown reason: " + h.String())
}
