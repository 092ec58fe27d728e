package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/spf13/cobra"
)

// tryFlags are anynt try's flags.
type tryFlags struct {
	object, at, memory string
	seed               uint64
	json               bool
	group              flagGroup // to tell whether --seed was given
}

func newTryCmd(io *stdio) *cobra.Command {
	var fl tryFlags
	cmd := &cobra.Command{
		Use:   "try FILE --object NAME --at \"π=1 ⊕=2 ⊖=3 ω1=4\" [--memory SYMBOLS] [--seed S] [--json]",
		Short: "Run one behaviour on the observation the environment would show it",
		Long: `try puts everything of environment FILE in the cells --at gives, builds the
observation the object --object would see there, exactly as the environment
builds it (every object in its cell, Good and Evil both as ⊙ to anyone but π,
the markers of the actions that lead from the object's cell, ':' after each
cell), runs the object's behaviour on it as an episode runs it (rightmost,
under the file's bounds), and prints the observation, every step (its
number, the rule with its position and text, the string after it), the
output, and what the environment makes of it: an object's rightmost action
and the cell it leads to, or, when the output holds no action, that the
object stays; Good's or Evil's actions, followed one after another, and the
cell they lead to.

--object is an object (ω1, or \omega1), ⊕ or good, ⊖ or evil (Good and Evil
share their behaviour, each on its own observation; goodevil means ⊕), or π
(the observation alone: π has no behaviour here).

--at gives cells, from 1, as NAME=CELL separated by spaces or commas: π, ⊕,
⊖ and the objects, in the papers' symbols or their ASCII spellings (\pi=1
\oplus=2 \ominus=3 \omega1=4). What --at leaves out is taken from the file's
place lines; what is still unplaced is drawn as an episode of seed --seed
places it, when --seed is given, and is an error otherwise. Good and Evil
never share a cell.

--memory SYMBOLS is the memory the run starts with (what ∇ writes), as an
earlier run would have left it with Δ; empty by default, as at the start of
an episode. The memory after the run is printed when either is not empty.

Exit status: 0 the behaviour halted; 3 it stopped at its step, length or
work bound (what it wrote so far is printed and decided on, as the
environment does); 1 errors in FILE; 2 usage errors (a name or cell --at
cannot place, an object FILE does not have, a rule file); 4 FILE could not
be read or standard output written.`,
		Example: `  anynt try corpus/thesis/omega1-blocker.anynt --object ω1 --at "π=3 ⊕=1 ⊖=6 ω1=4"
  anynt try corpus/thesis/omega1-blocker.anynt --object good --at '\pi=3 \oplus=1 \ominus=6 \omega1=4'
  anynt try chaser.anynt --object ω1 --at "π=1 ω1=2" --seed 1`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTry(io, args[0], fl)
		},
	}
	f := defsOf(cmd.Flags())
	f.StringVar(&fl.object, "object", "", "the object whose behaviour runs: ω1…, ⊕ (good), ⊖ (evil), or π (its observation only)")
	f.StringVar(&fl.at, "at", "", `cells from 1, "π=1 ⊕=2 ⊖=3 ω1=4" (ASCII: \pi \oplus \ominus \omega1)`)
	f.StringVar(&fl.memory, "memory", "", "the memory the run starts with, as symbols")
	f.in(&fl.group, func(f flagDefs) {
		f.Uint64Var(&fl.seed, "seed", 1, "draw what --at and the file's place lines leave unplaced, as an episode of this seed does")
	})
	f.BoolVar(&fl.json, "json", false, "print the outcome as one JSON object")
	return cmd
}

// tryOutcome is try's result, and its --json output.
type tryOutcome struct {
	Version     string      `json:"version"`
	Object      string      `json:"object"`
	Cell        int         `json:"cell"`
	Cells       []tryCell   `json:"cells"`
	Observation string      `json:"observation"`
	MemoryIn    string      `json:"memory_in"`
	Trace       []traceStep `json:"trace"`
	Output      string      `json:"output"`
	Halt        string      `json:"halt"`
	Steps       int         `json:"steps"`
	Memory      string      `json:"memory"`
	Actions     []string    `json:"actions"`
	// Action is an object's move ("" for Good and Evil, who follow all).
	Action string `json:"action,omitempty"`
	// Dest is the cell the behaviour goes to, from 1.
	Dest int `json:"dest"`
	// Level is the reward level Good or Evil chose (ρk), "" when none.
	Level string `json:"level,omitempty"`
	res   vm.Result
	text  []string // the rule's source line, by step
}

// tryCell is where one object stands, for --json.
type tryCell struct {
	Object string `json:"object"`
	Cell   int    `json:"cell"`
}

func runTry(io *stdio, file string, fl tryFlags) error {
	if fl.object == "" {
		return usage(fmt.Errorf("--object names the object whose behaviour runs (ω1…, ⊕, ⊖, or π)"))
	}
	src, err := readSource(file)
	if err != nil {
		return err
	}
	f, err := lang.Parse(file, src)
	if err != nil {
		return fileErrors(err)
	}
	if !env.IsEnvironment(f) {
		return usage(&kindError{file: file})
	}
	e, err := env.Load(f)
	if err != nil {
		return fileErrors(err)
	}
	who, err := tryObserver(e, fl.object)
	if err != nil {
		return usage(err)
	}
	prog := e.Program(who)
	if prog == nil && who != env.Pi {
		return usage(fmt.Errorf("%s follows the pattern of goodevil pattern, not a behaviour: there is nothing to run (--object π shows π's observation)", e.ObjectName(who)))
	}
	pos, err := tryPlacement(e, fl)
	if err != nil {
		return usage(err)
	}
	obs, err := e.Observe(pos, who)
	if err != nil {
		return usage(fmt.Errorf("--at: %v", err))
	}
	o := &tryOutcome{Version: version.String(), Object: e.ObjectName(who), Cell: pos[who] + 1, MemoryIn: fl.memory}
	for i, c := range pos {
		o.Cells = append(o.Cells, tryCell{e.ObjectName(i), c + 1})
	}
	if prog == nil {
		// π has no behaviour to run, only its observation to show, in the
		// environment's own symbols (π's holds ⊕ and ⊖).
		o.Observation = observationText(e, obs)
		if fl.json {
			return writeJSON(io.out, o)
		}
		fmt.Fprintf(io.out, "π in cell %d sees %s\n", o.Cell, o.Observation)
		return nil
	}
	o.Observation = prog.Text(obs)
	if err := tryRun(e, prog, src, who, pos[who], obs, fl.memory, o); err != nil {
		return err
	}
	if fl.json {
		if err := writeJSON(io.out, o); err != nil {
			return err
		}
	} else {
		printTry(io, o, fl.memory != "")
	}
	return tryHalt(e, o.res)
}

// tryObserver is the index (env.Pi, env.Good, env.Evil, 3+i) of the
// object --object names.
func tryObserver(e *env.Env, name string) (int, error) {
	switch name {
	case "good", "goodevil":
		return env.Good, nil
	case "evil":
		return env.Evil, nil
	case "pi":
		return env.Pi, nil
	}
	sym, err := oneSymbol(name)
	if err == nil {
		for i := range 3 + len(e.Objects) {
			if e.ObjectName(i) == sym {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("--object %s: %s has no such object (%s)", name, e.Name, strings.Join(objectNames(e), ", "))
}

// objectNames are what --object and --at accept.
func objectNames(e *env.Env) []string {
	names := make([]string, 3+len(e.Objects))
	for i := range names {
		names[i] = e.ObjectName(i)
	}
	return names
}

// oneSymbol reads a name in the notation (π, \pi, ω1, \omega1) as one
// symbol.
func oneSymbol(name string) (string, error) {
	syms, err := lang.Symbols(name)
	if err != nil || len(syms) != 1 {
		return "", fmt.Errorf("%q is not one symbol", name)
	}
	return syms[0], nil
}

// tryPlacement reads --at over the file's place lines, and draws the rest
// from --seed when it was given.
func tryPlacement(e *env.Env, fl tryFlags) ([]int, error) {
	declared := append([]int(nil), e.Placement()...)
	n := e.Space.Cells()
	for _, item := range strings.FieldsFunc(fl.at, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		name, cell, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("--at: %q is not NAME=CELL (π=1)", item)
		}
		i := -1
		if sym, err := oneSymbol(name); err == nil {
			for j := range declared {
				if e.ObjectName(j) == sym {
					i = j
				}
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("--at: %s is not an object of %s (%s)", name, e.Name, strings.Join(objectNames(e), ", "))
		}
		c, err := strconv.Atoi(cell)
		if err != nil || c < 1 || c > n {
			return nil, fmt.Errorf("--at: %s=%s: the cell is a number from 1 to %d", name, cell, n)
		}
		declared[i] = c - 1
	}
	var missing []string
	for i, c := range declared {
		if c < 0 {
			missing = append(missing, e.ObjectName(i))
		}
	}
	if len(missing) > 0 && !fl.group.changed("seed") {
		return nil, fmt.Errorf("--at does not place %s, nor does a place line of the file: give each a cell, or --seed S to draw them as an episode would", strings.Join(missing, ", "))
	}
	if declared[env.Good] >= 0 && declared[env.Good] == declared[env.Evil] {
		return nil, fmt.Errorf("--at: ⊕ and ⊖ are both in cell %d; Good and Evil never share a cell", declared[env.Good]+1)
	}
	return e.PlaceRest(declared, fl.seed), nil
}

// observationText prints π's observation, which holds ⊕ and ⊖: symbols
// of every program, in the environment's own table.
func observationText(e *env.Env, obs []byte) string {
	names := e.BaseSymbols()
	var b strings.Builder
	for _, c := range obs {
		b.WriteString(names[c])
	}
	return b.String()
}

// tryRun runs the behaviour on the observation from memory and fills in
// the trace, the output and the decision.
func tryRun(e *env.Env, prog *vm.Program, src []byte, who, from int, obs []byte, memory string, o *tryOutcome) error {
	m := vm.New(prog)
	if memory != "" {
		syms, err := lang.Symbols(memory)
		if err != nil {
			return usage(fmt.Errorf("--memory: %v", err))
		}
		codes, err := prog.Encode(syms)
		if err != nil {
			return usage(fmt.Errorf("--memory: %v (a memory holds what the behaviour's strings hold)", err))
		}
		m.SetMemory(codes)
	}
	lines := strings.Split(string(src), "\n")
	opts := e.RunOptions()
	opts.Trace = func(step, rule int, s []byte) {
		p := prog.Rules[rule].Pos
		o.Trace = append(o.Trace, traceStep{Step: step, Rule: rule + 1, Pos: p.String(), String: prog.Text(s)})
		text := ""
		if p.File == e.Name && p.Line >= 1 && p.Line <= len(lines) {
			text, _, _ = strings.Cut(lines[p.Line-1], "#") // a comment ends a rule
			text = strings.TrimSpace(text)
		}
		o.text = append(o.text, text)
	}
	out, res := m.Run(obs, opts)
	o.res, o.Output, o.Halt, o.Steps = res, prog.Text(out), res.Halt.String(), res.Steps
	o.Memory = prog.Text(m.Memory())
	d := e.Decide(who, from, out)
	for _, a := range d.Actions {
		o.Actions = append(o.Actions, e.Actions[a])
	}
	if d.Action >= 0 {
		o.Action = e.Actions[d.Action]
	}
	o.Dest = d.Dest + 1
	if d.Level >= 0 {
		o.Level = fmt.Sprintf("ρ%d", d.Level+1)
	}
	return nil
}

// printTry prints the outcome for a reader: the observation, the steps,
// the output and what the environment does with it.
func printTry(io *stdio, o *tryOutcome, memory bool) {
	var at []string
	for _, c := range o.Cells {
		at = append(at, fmt.Sprintf("%s=%d", c.Object, c.Cell))
	}
	fmt.Fprintf(io.out, "cells: %s\n", strings.Join(at, " "))
	fmt.Fprintf(io.out, "%s in cell %d sees %s\n", o.Object, o.Cell, o.Observation)
	if memory {
		fmt.Fprintf(io.out, "memory: %s\n", o.MemoryIn)
	}
	for i, t := range o.Trace {
		fmt.Fprintf(io.out, "%d\trule %d (%s)\t%s\t%s\n", t.Step, t.Rule, t.Pos, o.text[i], t.String)
	}
	steps := "steps"
	if o.Steps == 1 {
		steps = "step"
	}
	fmt.Fprintf(io.out, "%s after %d %s; output %s\n", haltText(o.res), o.Steps, steps, quoteEmpty(o.Output))
	if memory || o.Memory != "" {
		fmt.Fprintf(io.out, "memory after: %s\n", quoteEmpty(o.Memory))
	}
	switch {
	case o.Action != "" && len(o.Actions) == 0:
		fmt.Fprintf(io.out, "the output holds no action, so %s stays in cell %d\n", o.Object, o.Cell)
	case o.Action != "" && o.Dest == o.Cell:
		fmt.Fprintf(io.out, "%s takes %s (the rightmost action of the output) and stays in cell %d\n", o.Object, o.Action, o.Dest)
	case o.Action != "":
		fmt.Fprintf(io.out, "%s takes %s (the rightmost action of the output) and goes to cell %d\n", o.Object, o.Action, o.Dest)
	case len(o.Actions) == 0:
		fmt.Fprintf(io.out, "the output holds no action, so %s stays in cell %d\n", o.Object, o.Cell)
	default:
		fmt.Fprintf(io.out, "%s follows %s and intends to go to cell %d (the environment keeps Good and Evil apart)\n", o.Object, strings.Join(o.Actions, " "), o.Dest)
	}
	if o.Level != "" {
		fmt.Fprintf(io.out, "%s chose the reward level %s\n", o.Object, o.Level)
	}
}

// haltText says why a run stopped.
func haltText(res vm.Result) string {
	switch res.Halt {
	case vm.Terminated:
		return fmt.Sprintf("halted: rule %d is terminating", res.Rule+1)
	case vm.NoRule:
		return "halted: no rule applies"
	case vm.StepLimit:
		return "stopped at its step bound (set max-steps)"
	case vm.LengthLimit, vm.InputTooLong:
		return "stopped at its length bound (set max-len)"
	case vm.WorkLimit:
		return "stopped at its work bound (set max-work)"
	}
	return res.Halt.String()
}

func quoteEmpty(s string) string {
	if s == "" {
		return "(empty)"
	}
	return s
}

// tryHalt is exit status 3 for a run a bound stopped; the environment
// takes its output as it stands, and try has printed it.
func tryHalt(e *env.Env, res vm.Result) error {
	switch res.Halt {
	case vm.StepLimit, vm.LengthLimit, vm.InputTooLong, vm.WorkLimit:
		return limitReached(fmt.Errorf("the behaviour stopped at a bound (max-steps %d, max-len %d, max-work %d): the environment takes its output as it stands",
			e.Settings.MaxSteps, e.Settings.MaxLen, e.Settings.MaxWork))
	}
	return nil
}
