package main

import (
	"fmt"
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
