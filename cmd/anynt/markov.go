package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/spf13/cobra"
)

type markovFlags struct {
	classic, leftmost, trace, json bool
	maxSteps, maxLen, maxWork      int
	object                         string
}

// The ceilings of markov's limits. Zero is a limit like any other (no
// step, only the empty string, no matcher work); above a ceiling a limit
// no longer protects the machine, so it is refused: a string of maxLen
// symbols takes up to three times as many bytes, and maxWork units take
// minutes.
const (
	maxStepsCeiling = 1_000_000_000
	maxLenCeiling   = 10_000_000
	maxWorkCeiling  = 100 * vm.DefaultMaxWork
)

// checkLimits refuses a negative limit or one above its ceiling.
func checkLimits(fl markovFlags) error {
	for _, l := range []struct {
		flag       string
		value, top int
	}{{"--max-steps", fl.maxSteps, maxStepsCeiling}, {"--max-len", fl.maxLen, maxLenCeiling}, {"--max-work", fl.maxWork, maxWorkCeiling}} {
		if l.value < 0 || l.value > l.top {
			return fmt.Errorf("%s is %d; it must lie in 0..%d", l.flag, l.value, l.top)
		}
	}
	return nil
}

func newMarkovCmd(io *stdio) *cobra.Command {
	var fl markovFlags
	cmd := &cobra.Command{
		Use:   "markov [flags] FILE [INPUT]",
		Short: "Run a Markov algorithm on a string",
		Long: `markov runs the rule file FILE on INPUT (standard input when INPUT is absent,
one trailing newline dropped) and prints the final string.

Matching is rightmost, the convention of the ANYNT papers, unless --leftmost.
--classic reads the classic format (pattern -> replacement, -> .replacement for
a terminating rule, # comments, every character a symbol) and matches leftmost.

Every run is bounded: --max-steps rewrites, strings of --max-len symbols,
--max-work units of matcher work (a start position tried or a choice point
passed by a rule with optionals, alternatives or χ that the matcher does not
find through its expansion; plain rules, and sugared rules with a small
expansion, cost no work, so even --max-work 0 lets them rewrite). Each limit
means what it says, 0 included, up to a ceiling (1e9 steps, 1e7 symbols,
1e10 units). An input longer than --max-len is not run.

Exit status: 0 the algorithm halted (a terminating rule fired or no rule
applies); 3 a limit stopped it (the string so far is printed) or the input
was longer than --max-len; 1 errors in FILE; 2 usage errors; 4 FILE or
standard input could not be read, or standard output written.`,
		Example: `  anynt markov corpus/classic/binary-to-unary.markov --classic 101
  anynt markov --trace corpus/thesis/expansion.anynt "A2A1π"
  echo "_1111*11111_" | anynt markov --classic corpus/classic/ruleset4.markov`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			input, err := readInput(io.in, args)
			if err != nil {
				return err
			}
			return runMarkov(io, args[0], input, fl)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&fl.classic, "classic", false, "read the classic rule format and match leftmost")
	f.BoolVar(&fl.leftmost, "leftmost", false, "replace the leftmost occurrence (default: rightmost)")
	f.IntVar(&fl.maxSteps, "max-steps", vm.DefaultMaxSteps, "most rewrite steps")
	f.IntVar(&fl.maxLen, "max-len", vm.DefaultMaxLen, "longest string, in symbols")
	f.IntVar(&fl.maxWork, "max-work", vm.DefaultMaxWork, "most matcher work of the run (plain rules cost none)")
	f.BoolVar(&fl.trace, "trace", false, "print every step (step, rule, its position, the string) on standard error")
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	f.StringVar(&fl.object, "object", "", objectUsage)
	return cmd
}

func readInput(in io.Reader, args []string) (string, error) {
	if len(args) == 2 {
		return args[1], nil
	}
	b, err := io.ReadAll(io.LimitReader(in, lang.MaxSourceSize+1))
	if err != nil {
		return "", ioFailure(fmt.Errorf("reading the input: %w", err))
	}
	if len(b) > lang.MaxSourceSize {
		return "", limitReached(fmt.Errorf("the input on standard input is larger than %d MiB", lang.MaxSourceSize>>20))
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// markovOutcome is the --json output.
type markovOutcome struct {
	Version  string      `json:"version"`
	Leftmost bool        `json:"leftmost"`
	MaxSteps int         `json:"max_steps"`
	MaxLen   int         `json:"max_len"`
	MaxWork  int         `json:"max_work"`
	Output   string      `json:"output"`
	Halt     string      `json:"halt"`
	Steps    int         `json:"steps"`
	Rule     *int        `json:"rule"` // 1-based, null when no rule fired
	Trace    []traceStep `json:"trace,omitempty"`
}

type traceStep struct {
	Step   int    `json:"step"`
	Rule   int    `json:"rule"` // 1-based
	Pos    string `json:"pos"`
	String string `json:"string"`
}

func runMarkov(io *stdio, file, input string, fl markovFlags) error {
	if err := checkLimits(fl); err != nil {
		return usage(err)
	}
	symbols, err := inputSymbols(input, fl.classic)
	if err != nil {
		return usage(fmt.Errorf("input: %v", err))
	}
	prog, err := markovProgram(file, &fl, symbols)
	if err != nil {
		return err
	}
	codes, err := prog.Encode(symbols)
	if err != nil {
		return usage(fmt.Errorf("input: %v", err))
	}
	var steps []traceStep
	opts := vm.Options{Leftmost: fl.classic || fl.leftmost, MaxSteps: fl.maxSteps, MaxLen: fl.maxLen, MaxWork: fl.maxWork}
	if fl.trace {
		opts.Trace = func(step, rule int, s []byte) {
			t := traceStep{Step: step, Rule: rule + 1, Pos: prog.Rules[rule].Pos.String(), String: prog.Text(s)}
			if fl.json {
				steps = append(steps, t)
				return
			}
			fmt.Fprintf(io.err, "%d\trule %d (%s)\t%s\n", t.Step, t.Rule, t.Pos, t.String)
		}
	}
	out, res := vm.New(prog).Run(codes, opts)
	text := prog.Text(out)
	if fl.json {
		o := markovOutcome{Version: version.String(), Leftmost: opts.Leftmost, MaxSteps: fl.maxSteps, MaxLen: fl.maxLen,
			MaxWork: fl.maxWork, Output: text, Halt: res.Halt.String(), Steps: res.Steps, Trace: steps}
		if res.Rule >= 0 {
			r := res.Rule + 1
			o.Rule = &r
		}
		enc := json.NewEncoder(io.out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(o); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(io.out, text)
	}
	switch res.Halt {
	case vm.StepLimit:
		return limitReached(fmt.Errorf("stopped at the step limit: %d steps done and a rule still applies (raise --max-steps)", res.Steps))
	case vm.LengthLimit:
		return limitReached(fmt.Errorf("stopped at the length limit: the next rewrite would make the string longer than %d symbols (raise --max-len)", fl.maxLen))
	case vm.InputTooLong:
		return limitReached(fmt.Errorf("the input is longer than --max-len %d symbols (it has %d): nothing was run (raise --max-len)", fl.maxLen, len(codes)))
	case vm.WorkLimit:
		return limitReached(fmt.Errorf("stopped at the work limit: the matcher spent %d units before step %d was found (raise --max-work, or simplify the rules whose optionals and choices it tries)", fl.maxWork, res.Steps+1))
	}
	return nil
}

// inputSymbols splits an input string: in the classic format every
// character is a symbol; in the notation symbols are read as in rule files.
func inputSymbols(input string, classic bool) ([]string, error) {
	if classic {
		return lang.SymbolsOfClassicInput(input), nil
	}
	return lang.Symbols(input)
}
