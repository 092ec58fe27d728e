package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/spf13/cobra"
)

type markovFlags struct {
	classic, leftmost, trace, json bool
	maxSteps, maxLen               int
	object                         string
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

Exit status: 0 the algorithm halted (a terminating rule fired or no rule
applies); 3 a limit stopped it (the string so far is printed); 1 errors in
FILE; 2 usage errors.`,
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
	f.BoolVar(&fl.trace, "trace", false, "print every step (step, rule, its position, the string) on standard error")
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	f.StringVar(&fl.object, "object", "", objectUsage)
	return cmd
}

func readInput(in io.Reader, args []string) (string, error) {
	if len(args) == 2 {
		return args[1], nil
	}
	b, err := io.ReadAll(in)
	if err != nil {
		return "", &exitError{code: exitIO, err: fmt.Errorf("reading the input: %w", err)}
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// markovOutcome is the --json output.
type markovOutcome struct {
	Output string      `json:"output"`
	Halt   string      `json:"halt"`
	Steps  int         `json:"steps"`
	Rule   *int        `json:"rule"` // 1-based, null when no rule fired
	Trace  []traceStep `json:"trace,omitempty"`
}

type traceStep struct {
	Step   int    `json:"step"`
	Rule   int    `json:"rule"` // 1-based
	Pos    string `json:"pos"`
	String string `json:"string"`
}

func runMarkov(io *stdio, file, input string, fl markovFlags) error {
	if fl.maxSteps < 0 || fl.maxLen < 1 {
		return &exitError{code: exitUsage, err: fmt.Errorf("--max-steps must be at least 0 and --max-len at least 1")}
	}
	symbols, err := inputSymbols(input, fl.classic)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("input: %v", err)}
	}
	prog, err := markovProgram(file, &fl, symbols)
	if err != nil {
		return err
	}
	codes, err := prog.Encode(symbols)
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("input: %v", err)}
	}
	var steps []traceStep
	opts := vm.Options{Leftmost: fl.classic || fl.leftmost, MaxSteps: fl.maxSteps, MaxLen: fl.maxLen}
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
		o := markovOutcome{Output: text, Halt: res.Halt.String(), Steps: res.Steps, Trace: steps}
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
		return &exitError{code: exitLimit, err: fmt.Errorf("stopped at the step limit: %d steps done and a rule still applies (raise --max-steps)", res.Steps)}
	case vm.LengthLimit:
		return &exitError{code: exitLimit, err: fmt.Errorf("stopped at the length limit: the next rewrite would make the string longer than %d symbols (raise --max-len)", fl.maxLen)}
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
