package lang

import (
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
)

// classicRule is a parsed classic rule in a comparable form.
type classicRule struct {
	LHS, RHS    string
	Terminating bool
}

func (r classicRule) String() string {
	arrow := " -> "
	if r.Terminating {
		arrow = " ->. "
	}
	return r.LHS + arrow + r.RHS
}

func classicRules(t *testing.T, f *File) []classicRule {
	t.Helper()
	var out []classicRule
	for _, e := range f.Rules() {
		r, ok := e.(*Rule)
		if !ok {
			t.Fatalf("entry %T, want *Rule", e)
		}
		out = append(out, classicRule{classicSide(t, r.LHS), classicSide(t, r.RHS), r.Terminating})
	}
	return out
}

func classicSide(t *testing.T, elems []Elem) string {
	t.Helper()
	var b strings.Builder
	for _, e := range elems {
		s, ok := e.(*Symbol)
		if !ok {
			t.Fatalf("element %T, want *Symbol", e)
		}
		if len([]rune(s.Name)) != 1 {
			t.Fatalf("symbol %q is not one character", s.Name)
		}
		b.WriteString(s.Name)
	}
	return b.String()
}

func TestParseClassicLines(t *testing.T) {
	tests := []struct {
		name, line string
		want       classicRule
	}{
		{"simple", "A -> apple", classicRule{"A", "apple", false}},
		{"spaces inside a pattern", "the shop -> my brother", classicRule{"the shop", "my brother", false}},
		{"terminating", "S -> .shop", classicRule{"S", "shop", true}},
		{"terminating, empty", "S -> .", classicRule{"S", "", true}},
		{"arrow as pattern", "->.* -> money", classicRule{"->.*", "money", false}},
		{"arrow as replacement", "Bgage -> ->.*", classicRule{"Bgage", "->.*", false}},
		{"empty replacement, trailing space", "_+_ -> ", classicRule{"_+_", "", false}},
		{"empty replacement, end of line", "0 ->", classicRule{"0", "", false}},
		{"arrow not followed by space is text", "a->b -> c", classicRule{"a->b", "c", false}},
		{"arrow not preceded by space is text", "x ->y -> z", classicRule{"x ->y", "z", false}},
		{"whitespace runs around the arrow", "a b \t->\t  c d", classicRule{"a b", "c d", false}},
		{"trailing spaces of the replacement kept", "a -> b  ", classicRule{"a", "b  ", false}},
		{"leading whitespace belongs to the pattern", "  a -> b", classicRule{"  a", "b", false}},
		{"empty pattern", " -> x", classicRule{"", "x", false}},
		{"dot inside the replacement", "a -> b.c", classicRule{"a", "b.c", false}},
		{"only the first dot terminates", "a -> ..", classicRule{"a", ".", true}},
		{"carriage return dropped", "a -> b\r", classicRule{"a", "b", false}},
		{"non-ASCII", "ω -> ⊕ ⊖", classicRule{"ω", "⊕ ⊖", false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseClassic("t.markov", []byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			got := classicRules(t, f)
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("ParseClassic(%q) = %q, want [%q]", tt.line, got, tt.want)
			}
		})
	}
}

func TestParseClassicSkipsCommentsAndBlankLines(t *testing.T) {
	src := "# comment -> not a rule\n\n \t\r\nA -> a\n#\nB -> b\n"
	f, err := ParseClassic("t.markov", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []classicRule{{"A", "a", false}, {"B", "b", false}}
	if got := classicRules(t, f); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	var comments []string
	for _, c := range f.Comments {
		comments = append(comments, c.At.String()+":"+c.Text)
	}
	if want := []string{"t.markov:1:1: comment -> not a rule", "t.markov:5:1:"}; !slices.Equal(comments, want) {
		t.Errorf("comments %q, want %q", comments, want)
	}
	if f.Name != "t.markov" {
		t.Errorf("File.Name = %q", f.Name)
	}
}

func TestParseClassicPositions(t *testing.T) {
	src := "# header\nωx -> .é y\n"
	f, err := ParseClassic("p.markov", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Rules()[0].(*Rule)
	if want := (Pos{"p.markov", 2, 1}); r.At != want {
		t.Errorf("rule at %v, want %v", r.At, want)
	}
	var got []string
	for _, side := range [][]Elem{r.LHS, r.RHS} {
		for _, e := range side {
			s := e.(*Symbol)
			got = append(got, s.Name+"@"+s.At.String())
		}
	}
	// Columns count characters: ω is two bytes, one column; the dot is col 8.
	want := []string{"ω@p.markov:2:1", "x@p.markov:2:2", "é@p.markov:2:8", " @p.markov:2:9", "y@p.markov:2:10"}
	if !slices.Equal(got, want) {
		t.Errorf("symbols %q, want %q", got, want)
	}
}

func TestParseClassicErrors(t *testing.T) {
	src := strings.Join([]string{
		"A -> a",
		"no arrow here", // line 2
		"a->b",          // line 3: the arrow needs whitespace before it
		"x ->y",         // line 4: and whitespace or the end of line after it
		"ok -> fine",
		"bad \xff -> x", // line 6: invalid UTF-8 at column 5
	}, "\n")
	f, err := ParseClassic("e.markov", []byte(src))
	// The well-formed lines are still read, so that tools check them too.
	if f == nil || len(f.Decls) != 2 || f.Decls[0].Pos().Line != 1 || f.Decls[1].Pos().Line != 5 {
		t.Errorf("got %+v, want the rules of lines 1 and 5", f)
	}
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %T %v, want ErrorList", err, err)
	}
	var got []string
	for _, e := range list {
		got = append(got, e.Pos.String())
	}
	want := []string{"e.markov:2:1", "e.markov:3:1", "e.markov:4:1", "e.markov:6:5"}
	if !slices.Equal(got, want) {
		t.Errorf("error positions %q, want %q\n%v", got, want, err)
	}
	if !strings.HasPrefix(err.Error(), `e.markov:2:1: no rule separator`) {
		t.Errorf("error text %q", err)
	}
}

// A UTF-8 byte-order mark at the start of a file is not a symbol of the
// first pattern.
func TestParseClassicSkipsByteOrderMark(t *testing.T) {
	f, err := ParseClassic("b.markov", []byte("\uFEFFab -> c\n"))
	if err != nil {
		t.Fatal(err)
	}
	lhs := f.Decls[0].(*Rule).LHS
	if len(lhs) != 2 || lhs[0].(*Symbol).Name != "a" || lhs[0].Pos().Col != 1 {
		t.Errorf("pattern %v, want a at column 1 and b", lhs)
	}
}

func TestParseClassicNeverPanics(t *testing.T) {
	inputs := []string{"", "\n", "->", " ->", "-> ", " -> ", "\xff", "\r", "#", ". -> .", "a\x00 -> b", " \t", "\xe2\x82"}
	for _, in := range inputs {
		ParseClassic("x", []byte(in)) // must not panic
	}
	f, err := ParseClassic("x", nil)
	if err != nil || f == nil || len(f.Decls) != 0 {
		t.Errorf("empty source: %v, %v", f, err)
	}
}

func TestParseClassicCorpus(t *testing.T) {
	src, err := fs.ReadFile(corpus.Files, "classic/ruleset3.markov")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseClassic("ruleset3.markov", src)
	if err != nil {
		t.Fatal(err)
	}
	want := []classicRule{
		{"A", "apple", false},
		{"WWWW", "with", false},
		{"Bgage", "->.*", false},
		{"B", "bag", false},
		{"->.*", "money", false},
		{"W", "WW", false},
		{"S", "shop", true},
		{"T", "the", false},
		{"the shop", "my brother", false},
		{"a never used", "terminating rule", true},
	}
	if got := classicRules(t, f); !slices.Equal(got, want) {
		t.Errorf("ruleset3:\n got %q\nwant %q", got, want)
	}

	src, err = fs.ReadFile(corpus.Files, "classic/ruleset4.markov")
	if err != nil {
		t.Fatal(err)
	}
	f, err = ParseClassic("ruleset4.markov", src)
	if err != nil {
		t.Fatal(err)
	}
	got := classicRules(t, f)
	if len(got) != 20 || got[19] != (classicRule{"_+_", "", false}) {
		t.Errorf("ruleset4: got %q; want 20 rules, the last `_+_ -> ` (empty replacement)", got)
	}
}

func TestSymbolsOfClassicInput(t *testing.T) {
	got := SymbolsOfClassicInput("a bω")
	if want := []string{"a", " ", "b", "ω"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := SymbolsOfClassicInput(""); len(got) != 0 {
		t.Errorf("empty input: %q", got)
	}
}
