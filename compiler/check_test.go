package compiler_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// Rules that have no meaning are refused with a positioned error.
func TestCheckErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"a Δ -> b", "1:3: Δ alone belongs on the right-hand side"},
		{"a ∇ -> b", "1:3: ∇ belongs on the right-hand side"},
		{"a -> b^Δ", "1:6: ^Δ marks a left-hand side element"},
		{"a -> χ", "1:6: χ on the right-hand side must carry a subscript"},
		{"a -> χ1", "1:6: χ1 is not bound on the left-hand side"},
		{"χ1 -> (χ1 ∉ {a})", "1:7: write χ1 on the right-hand side"},
		{"a -> (a|b)", "1:6: a group on the right-hand side must carry a subscript"},
		{"a -> (a|b)3", "1:6: subscript 3 is not bound on the left-hand side"},
		{"(a|b)3 -> (a|c)3", "1:11: subscript 3 is bound to (a|b)3 at t.anynt:1:1; this occurrence must read the same"},
		{"(a|b)3 χ3 -> ", "1:8: subscript 3 is bound to (a|b)3"},
		{"[χ1] χ1 -> ", "1:6: subscript 1 is bound inside an optional or alternative group"},
		{"a -> [b]", "1:6: an optional group on the right-hand side is written when the subscripts inside it are bound; this one has none"},
		{"a^Δ b^Δ -> ", "1:1: one expansion of this rule would store 2 marked elements"},
		{"a^Δ -> Δ", "1:1: this rule would store twice"},
		{"a -> Δ Δ", "1:1: Δ appears 2 times"},
		{"use nothing", "1:1: no block named nothing"},
		{"block a {\nuse a\n}\nuse a", "2:1: block a uses itself"},
		{"alphabet a a\n", "1:12: symbol a is listed twice in the alphabet"},
	}
	for _, tt := range tests {
		f, err := lang.Parse("t.anynt", []byte(tt.src+"\n"))
		if err != nil {
			t.Errorf("%q does not parse: %v", tt.src, err)
			continue
		}
		err = compiler.Check(f, compiler.Options{})
		if err == nil || !strings.Contains(err.Error(), "t.anynt:"+tt.want) {
			t.Errorf("%q: got error %v, want one containing %q", tt.src, err, tt.want)
		}
	}
}

// Valid sugar compiles: the binding rules accept what the papers write.
func TestCheckAccepts(t *testing.T) {
	for _, src := range []string{
		"[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]",
		"S(L|R)^Δ -> S",
		"π[⊙]ω1 -> ∇Φ",
		"⊙(E_I|E_D)1 -> (E_I|E_D)1⊙",
		"H -> HIIIDDD Δ",
		"χ1 a χ1 -> χ1",
		"[χ1 b χ1] c -> [χ1]",
		"use erase-separators",
	} {
		f, err := lang.Parse("t.anynt", []byte(src+"\n"))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if err := compiler.Check(f, compiler.Options{}); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// Checking stops after lang.MaxErrors errors, as parsing does, with one
// more error at the first rule not checked: a file of a million rules
// without meaning gave a million errors.
func TestCheckStopsAfterMaxErrors(t *testing.T) {
	f, err := lang.Parse("t.anynt", []byte(strings.Repeat("a -> χ\n", 3*lang.MaxErrors)))
	if err != nil {
		t.Fatal(err)
	}
	var list lang.ErrorList
	if !errors.As(compiler.Check(f, compiler.Options{}), &list) {
		t.Fatal("the rules check")
	}
	if len(list) != lang.MaxErrors+2 {
		t.Errorf("%d errors, want %d and one that says the rest is not checked", len(list), lang.MaxErrors+1)
	}
	last := list[len(list)-1]
	if want := fmt.Sprintf("t.anynt:%d:1: more than %d errors (lang.MaxErrors)", lang.MaxErrors+2, lang.MaxErrors); !strings.HasPrefix(last.Error(), want) {
		t.Errorf("the last error is %q, want %q…", last, want)
	}
}

// The 256-symbol limit is reported where the 257th distinct symbol first
// appears: in a rule, in the alphabet, or, when the input brings it, at the
// file's start with the symbol named.
func TestSymbolLimitStandsWhereItIsCrossed(t *testing.T) {
	var rules, alphabet strings.Builder
	for i := 1; i < 300; i++ {
		fmt.Fprintf(&rules, "b a%d -> b\n", i) // b, then a1, a2, …: a256 is the 257th
	}
	alphabet.WriteString("alphabet")
	for i := 1; i < 260; i++ {
		fmt.Fprintf(&alphabet, " a%d", i)
	}
	alphabet.WriteString("\na1 -> a2\n")
	var input []string
	for i := 1; i < 20; i++ {
		input = append(input, fmt.Sprintf("c%d", i))
	}
	tests := []struct {
		name, src string
		extra     []string
		want      string
	}{
		{"in a rule", rules.String(), nil, "t.anynt:256:3: a256 is the 257th distinct symbol of the algorithm and its input (300 in all); at most 256 are allowed"},
		{"in the alphabet", alphabet.String(), nil, fmt.Sprintf("t.anynt:1:%d: a257 is the 257th distinct symbol", strings.Index(alphabet.String(), " a257 ")+2)},
		{"in the input", strings.Join(strings.Split(rules.String(), "\n")[:249], "\n") + "\n", input,
			"t.anynt:1:1: the algorithm and its input use 269 distinct symbols; the 257th, c7, is not written in this file"},
	}
	for _, tc := range tests {
		f, err := lang.Parse("t.anynt", []byte(tc.src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = compiler.Check(f, compiler.Options{Extra: tc.extra})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q…", tc.name, err, tc.want)
		}
	}
}
