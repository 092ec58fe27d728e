package stdlib_test

import (
	"strings"
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

// Source gives the text a library block was parsed from, at the block's
// position, and nothing for a file that is not the library's.
func TestSource(t *testing.T) {
	b := stdlib.Lookup("erase-separators")
	if b == nil {
		t.Fatal("no block erase-separators")
	}
	src, ok := stdlib.Source(b.At.File)
	if !ok {
		t.Fatalf("no source for %s", b.At.File)
	}
	line := strings.Split(string(src), "\n")[b.At.Line-1]
	if !strings.HasPrefix(line, "block erase-separators {") {
		t.Errorf("line %d of %s is %q, want the block", b.At.Line, b.At.File, line)
	}
	for _, name := range []string{"strings.anynt", "stdlib/nothing.anynt", "corpus/thesis/omega1.anynt"} {
		if _, ok := stdlib.Source(name); ok {
			t.Errorf("Source(%q) found a file", name)
		}
	}
}
