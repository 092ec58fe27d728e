package compiler_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/internal/reference"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// The programs of TestProgramsRunTheOrderedExpansion: alternatives of
// every shape (written in other than alphabetical order, of different
// lengths, empty, bound and written back), χ with and without exclusions,
// and optionals around them, each alone and beside plain rules. The VM
// searches for the literals of a small expansion and runs the matcher of a
// large one (vm's maxExpansion, 32 literals): the last three rules are
// large, so that both ways are held to the order.
var orderedCases = []string{
	"(a|b) ->. x\n",
	"(b|a) ->. x\n",
	"(a b|b|a) c -> x\n",
	"(c|a b|) b -> x\n",
	"(a|b)1 (b|a)2 -> (b|a)2 (a|b)1\n",
	"χ1 (a|c) ->. x χ1\n",
	"(χ1 ∉ {a}) (a|b)2 -> (a|b)2 χ1\n",
	"[(χ1 ∉ {a, x})] a (b|c)2 -> (b|c)2 [χ1]\n",
	"[a|b] c (x|b) ->. a\nc ->. b\n",
	"x χ1 -> χ1\n(c|b) a -> a c\nb ->. x\n",
	"χ1 χ2 χ3 ->. χ3 x\n",
	"(a|b|c)1 (b|a|x)2 (c|a) χ3 -> χ3 (b|a|x)2\n",
	"[χ1] (b|a)2 [(χ3 ∉ {b})] c -> (b|a)2 x\nc ->. b\n",
}

// TestProgramsRunTheOrderedExpansion runs each program on the VM and its
// ordered expansion (compiler.Expand, the language's definition of the
// sugar) on the reference interpreter, on every string of up to four
// symbols of the alphabet a b c x, rightmost and leftmost: every step
// must rewrite to the same string by the same source rule, and the runs
// end alike. A program that tries a group's alternatives, or χ's
// symbols, in another order than the expansion lists them fires another
// plain rule first, and the strings part.
func TestProgramsRunTheOrderedExpansion(t *testing.T) {
	alphabet := []string{"a", "b", "c", "x"}
	inputs := [][]string{{}}
	for n := 0; n < len(inputs) && len(inputs[n]) < 4; n++ {
		for _, s := range alphabet {
			inputs = append(inputs, append(slices.Clone(inputs[n]), s))
		}
	}
	for _, src := range orderedCases {
		f, err := lang.Parse("case.anynt", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		opts := compiler.Options{Alphabet: alphabet}
		prog, err := compiler.Compile(f, opts)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		plain, err := compiler.Expand(f, opts)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, leftmost := range []bool{false, true} {
			for _, in := range inputs {
				if diff := compareRuns(prog, plain, in, leftmost); diff != "" {
					t.Fatalf("%q on %q (leftmost %v): %s", src, strings.Join(in, " "), leftmost, diff)
				}
			}
		}
	}
}

// Alternatives in written order (docs/language.md, "the ordered
// expansion"): (a|b) ->. x stands for a ->. x, then b ->. x, so
// on a c d b c d the rule for a fires, at the only a, although a b lies
// further right.
func TestAlternativesAreTriedInWrittenOrder(t *testing.T) {
	f, err := lang.Parse("alt.anynt", []byte("(a|b) ->. x\n"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := compiler.Compile(f, compiler.Options{Alphabet: strings.Fields("a b c d x")})
	if err != nil {
		t.Fatal(err)
	}
	codes, err := prog.Encode(strings.Fields("a c d b c d"))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := vm.New(prog).Run(codes, vm.DefaultOptions())
	if got := prog.Text(out); got != "xcdbcd" {
		t.Errorf("(a|b) ->. x on a c d b c d gives %s, want xcdbcd (a ->. x comes first)", got)
	}
}

// compareRuns runs in on the VM and on the reference, step by step, and
// says how they differ ("" when they do not).
func compareRuns(prog *vm.Program, plain []lang.PlainRule, in []string, leftmost bool) string {
	type step struct {
		pos lang.Pos
		s   string
	}
	const maxSteps, maxLen = 30, 20
	var got, want []step
	codes, err := prog.Encode(in)
	if err != nil {
		return err.Error()
	}
	_, res := vm.New(prog).Run(codes, vm.Options{Leftmost: leftmost, MaxSteps: maxSteps, MaxLen: maxLen, MaxWork: vm.DefaultMaxWork,
		Trace: func(_, rule int, s []byte) {
			p := prog.Rules[rule].Pos
			got = append(got, step{lang.Pos{File: p.File, Line: p.Line, Col: p.Col}, prog.Text(s)})
		}})
	ref := reference.New(plain, reference.Options{Leftmost: leftmost, MaxSteps: maxSteps, MaxLen: maxLen})
	ref.Trace = func(rule int, s []string) { want = append(want, step{plain[rule].Pos, strings.Join(s, "")}) }
	refRes := ref.Run(in)
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("step %d: the VM fires the rule at %v giving %s; the expansion, the rule at %v giving %s",
				i+1, got[i].pos, got[i].s, want[i].pos, want[i].s)
		}
	}
	if len(got) != len(want) || res.Halt.String() != refRes.Halt.String() {
		return fmt.Sprintf("the VM halts after %d steps (%v), the expansion after %d (%v)", len(got), res.Halt, len(want), refRes.Halt)
	}
	return ""
}
