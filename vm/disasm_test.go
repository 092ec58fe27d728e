package vm

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// disasmProgram uses every instruction and every rule flag.
func disasmProgram(t *testing.T) *Program {
	a := newAsm(t, "A1 A2 π ⊙", ": L")
	thesisFixture(a)
	a.plain("A1 :", "π ∇ L", terminating, storeWhole)
	a.sugared( // χ1^Δ χ1 : L -> L
		code(save(0), a.any(""), save(1), backref(0), a.lit(": L"), match()),
		code(a.emit("L"), done()),
		store(0))
	a.plain("", ":")
	return a.build()
}

func TestDisasm(t *testing.T) {
	got := disasmProgram(t).Disasm()
	golden := filepath.Join("testdata", "disasm.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("Disasm differs from %s (go test -update rewrites it):\n%s", golden, got)
	}
}

func TestDisasmNamesEveryOp(t *testing.T) {
	listing := disasmProgram(t).Disasm()
	for op := OpSym; op <= OpDone; op++ {
		name := op.String()
		if strings.HasPrefix(name, "Op(") {
			t.Errorf("op %d has no name", op)
		}
		if !strings.Contains(listing, " "+name) {
			t.Errorf("the test program does not use %s", name)
		}
	}
	if got := (OpDone + 1).String(); got != "Op(13)" {
		t.Errorf("unknown op prints as %q", got)
	}
}

func TestDisasmQuotesAwkwardSymbols(t *testing.T) {
	p := &Program{Symbols: []string{"A1", "π", " ", `"`, "'", "", "{", `\`, "\t"}}
	want := []string{"A1", "π", "' '", `'\"'`, `'\''`, "''", "'{'", `'\\'`, `'\t'`}
	for c, w := range want {
		if got := p.symbolName(c); got != w {
			t.Errorf("symbol %q prints as %s, want %s", p.Symbols[c], got, w)
		}
	}
	if got := p.symbolName(len(want)); got != "?9" {
		t.Errorf("an unknown code prints as %s, want ?9", got)
	}
}
