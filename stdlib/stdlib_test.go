package stdlib_test

import (
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/stdlib"
	"github.com/anynt/anynt/vm"
)

// The library loads, and its blocks do what their comments say when a
// file uses them.
func TestLibrary(t *testing.T) {
	if err := stdlib.Err(); err != nil {
		t.Fatal(err)
	}
	if stdlib.Lookup("erase-separators") == nil || stdlib.Lookup("no-such-block") != nil {
		t.Fatal("lookup")
	}
	f, err := lang.Parse("t.anynt", []byte("use erase-separators\n"))
	if err != nil {
		t.Fatal(err)
	}
	input := []string{"π", ":", "⊙", ":", ":"}
	prog, err := compiler.Compile(f, compiler.Options{Extra: input})
	if err != nil {
		t.Fatal(err)
	}
	codes, _ := prog.Encode(input)
	out, _ := vm.New(prog).Run(codes, vm.DefaultOptions())
	if got := prog.Text(out); got != "π⊙" {
		t.Errorf("erase-separators left %q", got)
	}
}
