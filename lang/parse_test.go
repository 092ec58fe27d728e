package lang_test

import (
	"strings"
	"testing"

	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// ignorePositions compares trees without their positions.
var ignorePositions = cmp.Options{
	cmpopts.IgnoreFields(lang.Symbol{}, "At"), cmpopts.IgnoreFields(lang.Group{}, "At"),
	cmpopts.IgnoreFields(lang.Wildcard{}, "At"), cmpopts.IgnoreFields(lang.Rule{}, "At"),
	cmpopts.IgnoreFields(lang.Store{}, "At"), cmpopts.IgnoreFields(lang.Recall{}, "At"),
	cmpopts.IgnoreFields(lang.Use{}, "At"), cmpopts.IgnoreFields(lang.Block{}, "At", "End"),
	cmpopts.IgnoreFields(lang.Alphabet{}, "At"), cmpopts.IgnoreFields(lang.Comment{}, "At"),
	cmpopts.IgnoreFields(lang.File{}, "Name"),
}

func parseRule(t *testing.T, src string) *lang.Rule {
	t.Helper()
	f, err := lang.Parse("t.anynt", []byte(src+"\n"))
	if err != nil {
		t.Fatalf("%q: %v", src, err)
	}
	rules := f.Rules()
	if len(rules) != 1 {
		t.Fatalf("%q: %d rules", src, len(rules))
	}
	return rules[0].(*lang.Rule)
}

func sym(name string) *lang.Symbol { return &lang.Symbol{Name: name} }

func TestSymbolsAreOneCharacterWithSubscript(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"HIIIDDD", []string{"H", "I", "I", "I", "D", "D", "D"}},
		{"ω1L", []string{"ω1", "L"}},
		{"A12", []string{"A12"}},
		{"A 1", []string{"A", "1"}},
		{"E_I", []string{"E_I"}},
		{"ω_1", []string{"ω1"}},
		{"101", []string{"1", "0", "1"}},
		{"πω2A1:⊖:⊕ω1A2::", []string{"π", "ω2", "A1", ":", "⊖", ":", "⊕", "ω1", "A2", ":", ":"}},
		{`\pi\oplus\ominus\odot`, []string{"π", "⊕", "⊖", "⊙"}},
		{`\omega1 \Phi_F`, []string{"ω1", "Φ_F"}},
		{`\. \, \( \\ \#`, []string{".", ",", "(", `\`, "#"}},
		{"l-r+:", []string{"l", "-", "r", "+", ":"}},
		{"wl@", []string{"w", "l", "@"}},
	}
	for _, tt := range tests {
		r := parseRule(t, tt.src+" ->")
		var got []string
		for _, e := range r.LHS {
			got = append(got, e.(*lang.Symbol).Name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestRuleSyntax(t *testing.T) {
	tests := []struct {
		src  string
		want *lang.Rule
	}{
		{"a -> b", &lang.Rule{LHS: []lang.Elem{sym("a")}, RHS: []lang.Elem{sym("b")}}},
		{"a ->. b", &lang.Rule{LHS: []lang.Elem{sym("a")}, RHS: []lang.Elem{sym("b")}, Terminating: true}},
		{"a → b", &lang.Rule{LHS: []lang.Elem{sym("a")}, RHS: []lang.Elem{sym("b")}}},
		{"a →· b", &lang.Rule{LHS: []lang.Elem{sym("a")}, RHS: []lang.Elem{sym("b")}, Terminating: true}},
		{`a \to\cdot b`, &lang.Rule{LHS: []lang.Elem{sym("a")}, RHS: []lang.Elem{sym("b")}, Terminating: true}},
		{"-> a", &lang.Rule{RHS: []lang.Elem{sym("a")}}},
		{"a ->", &lang.Rule{LHS: []lang.Elem{sym("a")}}},
		{"|0 -> 0||", &lang.Rule{LHS: []lang.Elem{sym("|"), sym("0")}, RHS: []lang.Elem{sym("0"), sym("|"), sym("|")}}},
		// At the top level '|' is a symbol like any other, so it takes ^Δ.
		{"|^Δ -> a", &lang.Rule{LHS: []lang.Elem{&lang.Symbol{Name: "|", Marked: true}}, RHS: []lang.Elem{sym("a")}}},
		{"a|^Δ|b -> ", &lang.Rule{LHS: []lang.Elem{sym("a"), &lang.Symbol{Name: "|", Marked: true}, sym("|"), sym("b")}}},
		{"(a|bc)2 -> (a|bc)2", &lang.Rule{
			LHS: []lang.Elem{&lang.Group{Alts: [][]lang.Elem{{sym("a")}, {sym("b"), sym("c")}}, Bind: "2"}},
			RHS: []lang.Elem{&lang.Group{Alts: [][]lang.Elem{{sym("a")}, {sym("b"), sym("c")}}, Bind: "2"}}}},
		{"[E_I|E_D] H ->", &lang.Rule{LHS: []lang.Elem{
			&lang.Group{Optional: true, Alts: [][]lang.Elem{{sym("E_I")}, {sym("E_D")}}}, sym("H")}}},
		{"(\\chi_1 \\notin {A1, \\pi}) -> χ1", &lang.Rule{
			LHS: []lang.Elem{&lang.Wildcard{Bind: "1", HasExcept: true, Except: []*lang.Symbol{sym("A1"), sym("π")}}},
			RHS: []lang.Elem{&lang.Wildcard{Bind: "1"}}}},
		{"S(L|R)^Δ -> S", &lang.Rule{
			LHS: []lang.Elem{sym("S"), &lang.Group{Alts: [][]lang.Elem{{sym("L")}, {sym("R")}}, Marked: true}},
			RHS: []lang.Elem{sym("S")}}},
		{"H -> HIIIDDD^Δ", &lang.Rule{LHS: []lang.Elem{sym("H")}, RHS: []lang.Elem{
			sym("H"), sym("I"), sym("I"), sym("I"), sym("D"), sym("D"), &lang.Symbol{Name: "D", Marked: true}}}},
		{"π[⊙]ω1 -> ∇Φ Δ", &lang.Rule{
			LHS: []lang.Elem{sym("π"), &lang.Group{Optional: true, Alts: [][]lang.Elem{{sym("⊙")}}}, sym("ω1")},
			RHS: []lang.Elem{&lang.Recall{}, sym("Φ"), &lang.Store{}}}},
	}
	for _, tt := range tests {
		got := parseRule(t, tt.src)
		if diff := cmp.Diff(tt.want, got, ignorePositions); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.src, diff)
		}
	}
}

func TestDeclarations(t *testing.T) {
	src := "alphabet a b\nblock swap {\n\tab -> ba\n}\nuse swap\nuse erase-separators\nb ->. \n"
	f, err := lang.Parse("t.anynt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Alphabet(); a == nil || len(a.Symbols) != 2 {
		t.Fatalf("alphabet: %+v", a)
	}
	if b := f.Block("swap"); b == nil || len(b.Rules) != 1 {
		t.Fatalf("block: %+v", b)
	}
	if got := len(f.Rules()); got != 3 {
		t.Errorf("main algorithm has %d entries, want 3 (two uses and a rule)", got)
	}
}

// Every error of a file is reported, positioned where it is, in order.
func TestErrors(t *testing.T) {
	src := strings.Join([]string{
		"a -> b",     // 1: fine
		"a b",        // 2: no arrow
		"a . b -> c", // 3: stray dot
		"(a] -> b",   // 4: mismatched bracket
		`\nope -> x`, // 5: unknown escape
		"(a -> b",    // 6: unclosed group
		"}",          // 7: closes nothing
		"block x {",  // 8: never closed
		"a -> b",     // 9
	}, "\n")
	_, err := lang.Parse("t.anynt", []byte(src))
	var got []string
	for _, e := range err.(lang.ErrorList) {
		got = append(got, e.Error())
	}
	want := []string{
		"t.anynt:2:1: a rule needs an arrow (-> or ->.)",
		"t.anynt:3:3: '.' marks a terminating rule only right after the arrow; write \\. for a dot symbol",
		"t.anynt:4:1: ( is closed by ] at 4:3; close it with )",
		"t.anynt:5:1: unknown escape \\nope",
		"t.anynt:6:1: ( is not closed",
		"t.anynt:7:1: } closes no block",
		"t.anynt:8:1: this block is not closed with }",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// Brackets nest at most lang.MaxDepth deep; the first one past it is
// refused where it stands, before any recursion, however deep the file
// goes (a million nested '(' used to overflow the Go stack).
func TestNestingDepthIsBounded(t *testing.T) {
	ok := strings.Repeat("[", lang.MaxDepth) + "a" + strings.Repeat("]", lang.MaxDepth) + " -> b\n"
	if _, err := lang.Parse("t.anynt", []byte(ok)); err != nil {
		t.Errorf("%d nested optionals: %v", lang.MaxDepth, err)
	}
	tests := []struct{ name, src, want string }{
		{"optionals", "a -> b\n" + strings.Repeat("[", 1000) + "a" + strings.Repeat("]", 1000) + " -> b\n",
			"t.anynt:2:101: brackets nest more than 100 deep here; split the rule"},
		{"a million unclosed (", strings.Repeat("(", 1_000_000),
			"t.anynt:1:101: brackets nest more than 100 deep here; split the rule"},
		{"symbol sets count", strings.Repeat("(", 99) + "(χ ∉ {a}) -> b\n",
			"t.anynt:1:105: brackets nest more than 100 deep here; split the rule"},
	}
	for _, tt := range tests {
		_, err := lang.Parse("t.anynt", []byte(tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.want)
		}
	}
}

// A UTF-8 byte-order mark at the start of a file is not text: the file
// parses as without it, and columns on the first line ignore it.
func TestByteOrderMarkIsSkipped(t *testing.T) {
	f, err := lang.Parse("t.anynt", []byte("\uFEFFab -> c\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rules()[0].(*lang.Rule)
	if got := r.LHS[1].Pos(); got.Line != 1 || got.Col != 2 {
		t.Errorf("b is at %v, want 1:2", got)
	}
	_, err = lang.Parse("t.anynt", []byte("\uFEFF(a -> b\n"))
	if err == nil || err.Error() != "t.anynt:1:1: ( is not closed" {
		t.Errorf("error %v, want one at 1:1", err)
	}
	// Only at the start: elsewhere U+FEFF is an unprintable character.
	if _, err := lang.Parse("t.anynt", []byte("a -> b\n\uFEFFc -> d\n")); err == nil {
		t.Errorf("a byte-order mark inside the file is accepted")
	}
}

func TestSymbolsOfData(t *testing.T) {
	got, err := lang.Symbols(`πω2A1:⊖ (χ) \pi`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"π", "ω2", "A1", ":", "⊖", "(", "χ", ")", "π"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// The grammar prints as EBNF, for the reference.
func TestEBNF(t *testing.T) {
	g := lang.EBNF()
	for _, want := range []string{"<arrow>", "<subscript>", "\"alphabet\"", "\"goodevil\""} {
		if !strings.Contains(g, want) {
			t.Errorf("the EBNF lacks %s:\n%s", want, g)
		}
	}
}
