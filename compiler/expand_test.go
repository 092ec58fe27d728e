package compiler_test

import (
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
)

func expand(t *testing.T, src string, alphabet []string) []string {
	t.Helper()
	f, err := lang.Parse("test.anynt", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	rules, err := compiler.Expand(f, compiler.Options{Alphabet: alphabet})
	if err != nil {
		t.Fatalf("expand: %v", err)
	}
	var out []string
	for _, r := range rules {
		out = append(out, compiler.PlainString(r))
	}
	return out
}

// The thesis's expansion example (Insa-Cabrera 2011, §3.6.6): with n_a = 2,
// n_ω = 0 and the alphabet order A1 A2 π ⊙, one sugared rule is six plain
// rules, in this order.
func TestExpandThesisFixture(t *testing.T) {
	got := expand(t, "[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]\n", []string{"A1", "A2", "π", "⊙"})
	want := []string{
		"A2A1π -> πA2",
		"A2A1⊙ -> ⊙A2",
		"⊙A1π -> π⊙",
		"⊙A1⊙ -> ⊙⊙",
		"A1π -> π",
		"A1⊙ -> ⊙",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("expansion (-want +got):\n%s", diff)
	}
}

func TestExpandOrder(t *testing.T) {
	tests := []struct {
		name, src string
		alphabet  []string
		want      []string
	}{
		{"alternatives in written order", "(b|a) -> x", nil, []string{"b -> x", "a -> x"}},
		{"optional: present before absent", "[a|b]c -> x", nil, []string{"ac -> x", "bc -> x", "c -> x"}},
		{"leftmost choice varies slowest", "(a|b)(c|d) -> x", nil, []string{"ac -> x", "ad -> x", "bc -> x", "bd -> x"}},
		{"χ in alphabet order", "χ1 -> χ1χ1", []string{"b", "a"}, []string{"b -> bb", "a -> aa"}},
		{"exclusion", "(χ ∉ {a}) -> ", []string{"a", "b", "c"}, []string{"b ->", "c ->"}},
		{"bound group repeated", "(a|b)1 x (a|b)1 -> (a|b)1", nil, []string{"axa -> a", "bxb -> b"}},
		{"absent optional writes nothing", "[a]1 b -> c[a]1", nil, []string{"ab -> ca", "b -> c"}},
		{"conditional optional on the right", "[χ1] b -> [χ1 χ1 !]", []string{"a", "b", "!"}, []string{"ab -> aa!", "bb -> bb!", "!b -> !!!", "b ->"}},
		{"marked element", "S(L|R)^Δ -> S", nil, []string{"SL^Δ -> S", "SR^Δ -> S"}},
		{"marked span and empty mark", "[ab]^Δ c -> ", nil, []string{"(ab)^Δ c ->", "()^Δ c ->"}},
		{"mark only in one alternative", "(a^Δ|b) c -> ", nil, []string{"a^Δ c ->", "bc ->"}},
		{"recall and store", "H -> H∇Δ", nil, []string{"H -> H ∇ Δ"}},
		{"terminating", "χ1 ->. ", []string{"a"}, []string{"a ->."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := expand(t, tt.src+"\n", tt.alphabet)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("expansion of %q (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

// The printed expansion is itself a rule file that expands to itself.
func TestExpansionReparses(t *testing.T) {
	src := "[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]\nS(L|R)^Δ -> S∇\n[ab]^Δ c ->. ∇\n"
	alphabet := []string{"A1", "A2", "π", "⊙", "S", "L", "R", "a", "b", "c"}
	once := expand(t, src, alphabet)
	twice := expand(t, strings.Join(once, "\n")+"\n", alphabet)
	if diff := cmp.Diff(once, twice); diff != "" {
		t.Errorf("re-expansion differs (-once +twice):\n%s", diff)
	}
}
