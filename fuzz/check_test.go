package fuzz

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/internal/reference"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// The limits of differential runs: small, so that a run that does not halt
// costs little, and still large enough for strings to grow and shrink.
const (
	diffMaxSteps = 200
	diffMaxLen   = 64
)

// errRejected reports a file that the compiler refuses: not a discrepancy.
var errRejected = errors.New("the compiler rejects the file")

// diffCase is one differential check: a rule file, its compile options and
// the inputs of consecutive runs of one machine. A nil input after the first
// feeds the previous run's output back, as the machine's own buffer.
type diffCase struct {
	src    string
	opts   compiler.Options
	inputs [][]string
	modes  []bool // Leftmost values to check; both when nil
}

func (c diffCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "source:\n%s", c.src)
	if !strings.HasSuffix(c.src, "\n") {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "options: Alphabet %q, Extra %q\n", c.opts.Alphabet, c.opts.Extra)
	for i, in := range c.inputs {
		if i > 0 && in == nil {
			fmt.Fprintf(&b, "run %d: the output of run %d\n", i+1, i)
		} else {
			fmt.Fprintf(&b, "run %d: input %q\n", i+1, strings.Join(in, " "))
		}
	}
	return b.String()
}

// check parses and compiles the file and runs it on the VM and on the
// reference interpreter of its expansion. It returns errRejected (wrapped)
// when the compiler refuses the file, and a description of the first
// difference otherwise.
func (c diffCase) check() error {
	f, err := lang.Parse("case.anynt", []byte(c.src))
	if err != nil {
		return fmt.Errorf("the source does not parse: %v", err)
	}
	prog, err := compiler.Compile(f, c.opts)
	if err != nil {
		return fmt.Errorf("%w: %v", errRejected, err)
	}
	if err := prog.Validate(); err != nil {
		return fmt.Errorf("the compiler made an invalid program: %v", err)
	}
	plain, err := compiler.Expand(f, c.opts)
	if err != nil {
		return fmt.Errorf("the file compiles but does not expand: %v", err)
	}
	modes := c.modes
	if modes == nil {
		modes = []bool{false, true}
	}
	for _, leftmost := range modes {
		if err := c.compare(prog, plain, leftmost); err != nil {
			mode := "rightmost"
			if leftmost {
				mode = "leftmost"
			}
			return fmt.Errorf("%s mode: %v", mode, err)
		}
	}
	return nil
}

// compare runs one machine and one reference interpreter side by side.
func (c diffCase) compare(prog *vm.Program, plain []compiler.PlainRule, leftmost bool) error {
	var vmTrace, refTrace []string
	m := vm.New(prog)
	vmOpts := vm.Options{
		Leftmost: leftmost, MaxSteps: diffMaxSteps, MaxLen: diffMaxLen,
		Trace: func(step, rule int, s []byte) {
			vmTrace = append(vmTrace, fmt.Sprintf("step %d: rule at %s gives %q",
				step, prog.Rules[rule].Pos, strings.Join(prog.Decode(s), " ")))
		},
	}
	ref := reference.New(plain, reference.Options{Leftmost: leftmost, MaxSteps: diffMaxSteps, MaxLen: diffMaxLen})
	ref.Trace = func(rule int, s []string) {
		refTrace = append(refTrace, fmt.Sprintf("step %d: rule at %s gives %q",
			len(refTrace)+1, plain[rule].Pos, strings.Join(s, " ")))
	}
	var prevOut []byte
	var prevSyms []string
	for i, in := range c.inputs {
		input, codes := in, []byte(nil)
		if i > 0 && in == nil {
			input, codes = prevSyms, prevOut
		} else {
			var err error
			if codes, err = prog.Encode(input); err != nil {
				return fmt.Errorf("run %d: input %q: %v", i+1, strings.Join(input, " "), err)
			}
		}
		memBefore := ref.Memory()
		vmTrace, refTrace = nil, nil
		out, res := m.Run(codes, vmOpts)
		got := prog.Decode(out)
		want := ref.Run(input)
		gotMem, wantMem := prog.Decode(m.Memory()), ref.Memory()

		var diffs []string
		if !slices.Equal(got, want.Output) {
			diffs = append(diffs, fmt.Sprintf("output: vm %q, reference %q",
				strings.Join(got, " "), strings.Join(want.Output, " ")))
		}
		if res.Halt.String() != want.Halt.String() {
			diffs = append(diffs, fmt.Sprintf("halt: vm %s, reference %s", res.Halt, want.Halt))
		}
		if res.Steps != want.Steps {
			diffs = append(diffs, fmt.Sprintf("steps: vm %d, reference %d", res.Steps, want.Steps))
		}
		if !slices.Equal(gotMem, wantMem) {
			diffs = append(diffs, fmt.Sprintf("memory: vm %q, reference %q",
				strings.Join(gotMem, " "), strings.Join(wantMem, " ")))
		}
		if d := firstDifference(vmTrace, refTrace); d != "" {
			diffs = append(diffs, d)
		}
		if len(vmTrace) != res.Steps {
			diffs = append(diffs, fmt.Sprintf("vm: %d steps reported, %d traced", res.Steps, len(vmTrace)))
		}
		if wantRule := -1; res.Steps == 0 && res.Rule != wantRule {
			diffs = append(diffs, fmt.Sprintf("vm: no step done, yet the last rule is %d", res.Rule))
		} else if res.Steps > 0 && (res.Rule < 0 || res.Rule >= len(prog.Rules) ||
			!strings.Contains(vmTrace[len(vmTrace)-1], " at "+prog.Rules[res.Rule].Pos.String()+" ")) {
			diffs = append(diffs, fmt.Sprintf("vm: the last rule is %d, the last step's rule is not", res.Rule))
		}
		if len(diffs) > 0 {
			return fmt.Errorf("run %d on %q with memory %q:\n\t%s",
				i+1, strings.Join(input, " "), strings.Join(memBefore, " "), strings.Join(diffs, "\n\t"))
		}
		prevOut, prevSyms = out, got
	}
	return nil
}

// firstDifference describes where two traces part, or returns "".
func firstDifference(vmTrace, refTrace []string) string {
	for i := range max(len(vmTrace), len(refTrace)) {
		v, r := "(none)", "(none)"
		if i < len(vmTrace) {
			v = vmTrace[i]
		}
		if i < len(refTrace) {
			r = refTrace[i]
		}
		if v != r {
			return fmt.Sprintf("trace parts at step %d:\n\t\tvm        %s\n\t\treference %s", i+1, v, r)
		}
	}
	return ""
}
