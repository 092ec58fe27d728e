package reference

import (
	"fmt"
	"slices"

	"github.com/anynt/anynt/lang"
)

// Options bound a run and choose the matching convention. The limits are
// taken literally, as the VM takes them: MaxSteps 0 allows no rewrite,
// MaxLen 0 only the empty string, and a negative limit counts as zero.
type Options struct {
	Leftmost bool // replace the leftmost occurrence (classic); default rightmost
	MaxSteps int  // most rewrites a run may do
	MaxLen   int  // longest string, in symbols, a run may hold
}

// Halt says why a run ended.
type Halt int

const (
	Terminated   Halt = iota // a terminating rule fired
	NoRule                   // no rule applies to the string
	StepLimit                // MaxSteps rewrites were done and a rule still applies
	LengthLimit              // the next rewrite would make the string longer than MaxLen
	InputTooLong             // the input is longer than MaxLen: nothing was run
)

func (h Halt) String() string {
	switch h {
	case Terminated:
		return "terminated"
	case NoRule:
		return "no rule applies"
	case StepLimit:
		return "step limit"
	case LengthLimit:
		return "length limit"
	case InputTooLong:
		return "input too long"
	}
	return fmt.Sprintf("Halt(%d)", int(h))
}

// Result is the outcome of a run.
type Result struct {
	Output []string
	Halt   Halt
	Steps  int // rewrites done
}

// Interpreter runs one algorithm. Its memory register outlives a run.
type Interpreter struct {
	Rules   []lang.PlainRule
	Options Options
	// Trace, when not nil, is called after each rewrite with the index of
	// the rule that fired (0-based) and the new string, which it may keep.
	Trace func(rule int, s []string)

	memory []string
}

// New returns an interpreter with an empty memory.
func New(rules []lang.PlainRule, opts Options) *Interpreter {
	return &Interpreter{Rules: rules, Options: opts}
}

// Reset empties the memory register.
func (in *Interpreter) Reset() { in.memory = nil }

// Memory returns a copy of the memory register.
func (in *Interpreter) Memory() []string { return slices.Clone(in.memory) }

// Run rewrites input until the algorithm halts or a limit is reached. The
// input is not modified.
func (in *Interpreter) Run(input []string) Result {
	s := slices.Clone(input)
	if len(s) > max(in.Options.MaxLen, 0) {
		return Result{Output: s, Halt: InputTooLong}
	}
	for steps := 0; ; steps++ {
		ruleIndex, at := in.firstMatch(s)
		if ruleIndex < 0 {
			return Result{Output: s, Halt: NoRule, Steps: steps}
		}
		if steps >= in.Options.MaxSteps {
			return Result{Output: s, Halt: StepLimit, Steps: steps}
		}
		rule := in.Rules[ruleIndex]

		var rhs []string
		for _, item := range rule.RHS {
			if item.Recall {
				rhs = append(rhs, in.memory...)
			} else {
				rhs = append(rhs, item.Sym)
			}
		}
		next := make([]string, 0, len(s)-len(rule.LHS)+len(rhs))
		next = append(next, s[:at]...)
		next = append(next, rhs...)
		next = append(next, s[at+len(rule.LHS):]...)
		if len(next) > in.Options.MaxLen {
			return Result{Output: s, Halt: LengthLimit, Steps: steps}
		}
		s = next

		if rule.MarkFrom >= 0 {
			in.memory = slices.Clone(rule.LHS[rule.MarkFrom:rule.MarkTo])
		}
		if rule.StoreWhole {
			in.memory = slices.Clone(s)
		}
		if in.Trace != nil {
			in.Trace(ruleIndex, slices.Clone(s))
		}
		if rule.Terminating {
			return Result{Output: s, Halt: Terminated, Steps: steps + 1}
		}
	}
}

// firstMatch returns the first rule whose LHS occurs in s and the index of
// the occurrence to replace, or -1, -1.
func (in *Interpreter) firstMatch(s []string) (rule, at int) {
	for i, r := range in.Rules {
		if at := in.find(s, r.LHS); at >= 0 {
			return i, at
		}
	}
	return -1, -1
}

// find returns the index of the preferred occurrence of lhs in s, or -1.
func (in *Interpreter) find(s, lhs []string) int {
	last := len(s) - len(lhs)
	if in.Options.Leftmost {
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
