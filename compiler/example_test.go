package compiler_test

import (
	"fmt"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// Compile checks a parsed file and lowers its main algorithm to a program
// for the VM: the alphabet first (here in order of first appearance), then
// one compiled rule for each rule of the source, sugar and all.
func ExampleCompile() {
	src := "π [⊙] ω1 -> ∇ Φ\nRΦ ->. l\nLΦ ->. r\n->. s\n"
	f, err := lang.Parse("flee.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	prog, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("alphabet:", prog.Symbols[:prog.AlphabetSize])
	fmt.Println("rules:", len(prog.Rules))
	// Output:
	// alphabet: [π ⊙ ω1 Φ R l L r s]
	// rules: 4
}

// A mistake of meaning is positioned like a syntax error.
func ExampleCompile_error() {
	f, _ := lang.Parse("copy.anynt", []byte("a χ -> χ a\n"))
	_, err := compiler.Compile(f, compiler.Options{})
	fmt.Println(err)
	// Output:
	// copy.anynt:1:8: χ on the right-hand side must carry a subscript bound on the left-hand side
}

// CheckPartial reports a file's syntax errors and the errors of meaning of
// the statements that parsed, together: here a rule with an unclosed group
// and a use of a block that does not exist.
func ExampleCheckPartial() {
	f, err := lang.Parse("two.anynt", []byte("a -> (b\nuse nowhere\n"))
	fmt.Println(compiler.CheckPartial(f, err, compiler.Options{}))
	// Output:
	// two.anynt:1:6: ( is not closed
	// two.anynt:2:1: no block named nowhere in this file or the standard library
}
