package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/vm"
)

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
