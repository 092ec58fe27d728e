package vm_test

import (
	"fmt"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// A Machine runs a program on a string of codes under bounds. This is the
// thesis's binary-to-unary algorithm (corpus/classic/binary-to-unary.markov),
// which runs with the classic leftmost convention: 101 becomes five units.
func ExampleMachine_Run() {
	src := "|0 -> 0||\n1 -> 0|\n0 -> \n"
	f, err := lang.ParseClassic("b2u.markov", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	prog, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	input, err := prog.Encode([]string{"1", "0", "1"})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, res := vm.New(prog).Run(input, vm.Options{Leftmost: true, MaxSteps: 100, MaxLen: 100})
	fmt.Println(prog.Text(out), res.Steps, "steps,", res.Halt)
	// Output:
	// ||||| 8 steps, no rule applies
}

// A run that would go on for ever stops at its step bound, with the string
// so far.
func ExampleMachine_Run_bound() {
	f, _ := lang.Parse("grow.anynt", []byte("-> a\n"))
	prog, _ := compiler.Compile(f, compiler.Options{})
	out, res := vm.New(prog).Run(nil, vm.Options{MaxSteps: 5, MaxLen: 100})
	fmt.Println(prog.Text(out), res.Halt)
	// Output:
	// aaaaa step limit
}

// An input that is mostly runs of one symbol (an environment's observation
// is a ':' a cell, with a few objects between) can be given in pieces: the
// machine counts its symbols from them instead of reading the string.
// Here x walks right through six cells.
func ExampleMachine_RunPieces() {
	f, _ := lang.Parse("walk.anynt", []byte("x : -> : x\n"))
	prog, _ := compiler.Compile(f, compiler.Options{})
	x, _ := prog.Encode([]string{"x"})
	colon, _ := prog.Encode([]string{":"})
	pieces := []vm.Piece{{Text: x}, {Symbol: colon[0], Repeat: 6}}
	out, res := vm.New(prog).RunPieces(pieces, vm.Options{MaxSteps: 100, MaxLen: 100})
	fmt.Println(prog.Text(out), res.Steps, "steps,", res.Halt)
	// Output:
	// ::::::x 6 steps, no rule applies
}
