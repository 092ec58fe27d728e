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
// costs little, and still large enough for strings to grow and shrink past
// 64 symbols, where the VM stops using its one-pass scanner.
const (
	diffMaxSteps = 200
	diffMaxLen   = 160
)

// diffMaxExpansion bounds the expansions the reference interpreter runs:
// it tries every plain rule at every position, every step.
const diffMaxExpansion = 300

// errNotChecked reports a file that the compiler rejects, or whose
// expansion is too large for the reference interpreter: not a discrepancy.
var errNotChecked = errors.New("not checked")

// diffCase is one differential check: a rule file, its compile options,
// the limits, and consecutive runs of one machine, which keeps its memory.
type diffCase struct {
	src              string
	opts             compiler.Options
	runs             []diffRun
	modes            []bool // Leftmost values to check; both when nil
	maxSteps, maxLen int    // diffMaxSteps and diffMaxLen when 0
	maxExpansion     int    // diffMaxExpansion when 0
}

// diffRun is one run: on input, or on the previous run's output (feed),
// passed back as the machine's own buffer; reset empties the memory first.
type diffRun struct {
	input       []string
	feed, reset bool
}

func (c diffCase) limits() (maxSteps, maxLen int) {
	maxSteps, maxLen = c.maxSteps, c.maxLen
	if maxSteps == 0 {
		maxSteps = diffMaxSteps
	}
	if maxLen == 0 {
		maxLen = diffMaxLen
	}
	return maxSteps, maxLen
}

func (c diffCase) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "source:\n%s", c.src)
	if !strings.HasSuffix(c.src, "\n") {
		b.WriteByte('\n')
	}
	maxSteps, maxLen := c.limits()
	fmt.Fprintf(&b, "options: Alphabet %q, Extra %q; MaxSteps %d, MaxLen %d\n",
		c.opts.Alphabet, c.opts.Extra, maxSteps, maxLen)
	for i, r := range c.runs {
		fmt.Fprintf(&b, "run %d: ", i+1)
		if r.reset {
			b.WriteString("memory reset, ")
		}
		if r.feed {
			fmt.Fprintf(&b, "the output of run %d\n", i)
		} else {
			fmt.Fprintf(&b, "input %q\n", strings.Join(r.input, " "))
		}
	}
	return b.String()
}

// check parses and compiles the file and runs it on the VM and on the
// reference interpreter of its expansion. It returns errNotChecked (wrapped)
// when the compiler rejects the file or its expansion is too large, and a
// description of the first difference otherwise.
func (c diffCase) check() error {
	f, err := lang.Parse("case.anynt", []byte(c.src))
	if err != nil {
		return fmt.Errorf("the source does not parse: %v", err)
	}
	return c.checkFile(f)
}

// checkFile is check on a parsed file.
func (c diffCase) checkFile(f *lang.File) error {
	prog, err := compiler.Compile(f, c.opts)
	if err != nil {
		return fmt.Errorf("%w: the compiler rejects the file: %v", errNotChecked, err)
	}
	if err := prog.Validate(); err != nil {
		return fmt.Errorf("the compiler made an invalid program: %v", err)
	}
	opts := c.opts
	opts.MaxExpansion = c.maxExpansion
	if opts.MaxExpansion == 0 {
		opts.MaxExpansion = diffMaxExpansion
	}
	plain, err := compiler.Expand(f, opts)
	// Expand fails on a file that compiles only when the expansion is too
	// large; the VM must still run it.
	if tooLarge := (*compiler.ExpansionLimitError)(nil); errors.As(err, &tooLarge) {
		maxSteps, maxLen := c.limits()
		for _, leftmost := range []bool{false, true} {
			if codes, err := prog.Encode(c.runs[0].input); err == nil {
				vm.New(prog).Run(codes, vm.Options{Leftmost: leftmost, MaxSteps: maxSteps, MaxLen: maxLen, MaxWork: vm.DefaultMaxWork})
			}
		}
		return fmt.Errorf("%w: %v", errNotChecked, err)
	}
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
func (c diffCase) compare(prog *vm.Program, plain []lang.PlainRule, leftmost bool) error {
	var vmTrace, refTrace []traceStep
	maxSteps, maxLen := c.limits()
	m := vm.New(prog)
	vmOpts := vm.Options{
		Leftmost: leftmost, MaxSteps: maxSteps, MaxLen: maxLen, MaxWork: vm.DefaultMaxWork,
		Trace: func(step, rule int, s []byte) {
			vmTrace = append(vmTrace, traceStep{prog.Rules[rule].Pos, prog.Decode(s)})
		},
	}
	// A machine without a trace takes the shortcuts a trace turns off
	// (erasing a run of one symbol in one splice): it must end as the
	// traced one does.
	quiet, quietOpts := vm.New(prog), vmOpts
	quietOpts.Trace = nil
	// A machine given its inputs in pieces (runs of one symbol between
	// texts, as the environment machine gives observations) counts their
	// symbols from the pieces: it must run as the one given the string.
	pieced := vm.New(prog)
	ref := reference.New(plain, reference.Options{Leftmost: leftmost, MaxSteps: maxSteps, MaxLen: maxLen})
	ref.Trace = func(rule int, s []string) {
		refTrace = append(refTrace, traceStep{vm.Pos{File: plain[rule].Pos.File, Line: plain[rule].Pos.Line, Col: plain[rule].Pos.Col}, s})
	}
	var prevOut []byte
	var prevSyms []string
	for i, run := range c.runs {
		if run.reset {
			m.Reset()
			quiet.Reset()
			pieced.Reset()
			ref.Reset()
		}
		input, codes := run.input, []byte(nil)
		if run.feed {
			input, codes = prevSyms, prevOut
		} else {
			var err error
			if codes, err = prog.Encode(input); err != nil {
				return fmt.Errorf("run %d: input %q: %v", i+1, strings.Join(input, " "), err)
			}
		}
		memBefore := ref.Memory()
		vmTrace, refTrace = nil, nil
		quietOut, quietRes := quiet.Run(codes, quietOpts)
		quietOut = slices.Clone(quietOut)
		piecedOut, piecedRes := pieced.RunPieces(inPieces(codes), quietOpts)
		piecedOut = slices.Clone(piecedOut)
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
		if !slices.Equal(quietOut, out) || quietRes != res || !slices.Equal(quiet.Memory(), m.Memory()) {
			diffs = append(diffs, fmt.Sprintf("vm without a trace: output %q, %+v, memory %q; with one %q, %+v",
				strings.Join(prog.Decode(quietOut), " "), quietRes, strings.Join(prog.Decode(quiet.Memory()), " "), strings.Join(got, " "), res))
		}
		if !slices.Equal(piecedOut, out) || piecedRes != res || !slices.Equal(pieced.Memory(), m.Memory()) {
			diffs = append(diffs, fmt.Sprintf("vm given the input in pieces: output %q, %+v, memory %q; given the string %q, %+v",
				strings.Join(prog.Decode(piecedOut), " "), piecedRes, strings.Join(prog.Decode(pieced.Memory()), " "), strings.Join(got, " "), res))
		}
		if d := firstDifference(vmTrace, refTrace); d != "" {
			diffs = append(diffs, d)
		}
		if len(vmTrace) != res.Steps {
			diffs = append(diffs, fmt.Sprintf("vm: %d steps reported, %d traced", res.Steps, len(vmTrace)))
		}
		switch {
		case res.Steps == 0 && res.Rule != -1:
			diffs = append(diffs, fmt.Sprintf("vm: no step done, yet the last rule is %d", res.Rule))
		case res.Steps > 0 && len(vmTrace) > 0 && (res.Rule < 0 || res.Rule >= len(prog.Rules) ||
			prog.Rules[res.Rule].Pos != vmTrace[len(vmTrace)-1].rule):
			diffs = append(diffs, fmt.Sprintf("vm: the last rule is %d, not the last step's", res.Rule))
		}
		if len(diffs) > 0 {
			return fmt.Errorf("run %d on %q with memory %q:\n\t%s",
				i+1, strings.Join(input, " "), strings.Join(memBefore, " "), strings.Join(diffs, "\n\t"))
		}
		prevOut, prevSyms = out, got
	}
	return nil
}

// traceStep is one rewrite: where the rule that fired was written, and the
// string it gave.
type traceStep struct {
	rule vm.Pos
	s    []string
}

func (t traceStep) String() string {
	return fmt.Sprintf("rule at %s gives %q", t.rule, strings.Join(t.s, " "))
}

// firstDifference describes where two traces part, or returns "".
func firstDifference(vmTrace, refTrace []traceStep) string {
	for i := range max(len(vmTrace), len(refTrace)) {
		if i < len(vmTrace) && i < len(refTrace) &&
			vmTrace[i].rule == refTrace[i].rule && slices.Equal(vmTrace[i].s, refTrace[i].s) {
			continue
		}
		v, r := "(none)", "(none)"
		if i < len(vmTrace) {
			v = vmTrace[i].String()
		}
		if i < len(refTrace) {
			r = refTrace[i].String()
		}
		return fmt.Sprintf("trace parts at step %d:\n\t\tvm        %s\n\t\treference %s", i+1, v, r)
	}
	return ""
}

// inPieces cuts codes into pieces as an observation is cut: every run of
// two or more of one symbol a Repeat, the symbols between a Text.
func inPieces(codes []byte) []vm.Piece {
	var pieces []vm.Piece
	text := 0 // where the text not yet in a piece starts
	for i := 0; i < len(codes); {
		j := i + 1
		for j < len(codes) && codes[j] == codes[i] {
			j++
		}
		if j-i >= 2 {
			if text < i {
				pieces = append(pieces, vm.Piece{Text: codes[text:i]})
			}
			pieces = append(pieces, vm.Piece{Symbol: codes[i], Repeat: j - i})
			text = j
		}
		i = j
	}
	if text < len(codes) {
		pieces = append(pieces, vm.Piece{Text: codes[text:]})
	}
	return pieces
}
