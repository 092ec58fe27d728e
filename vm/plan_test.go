package vm

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestExpansion(t *testing.T) {
	for _, tt := range []struct {
		name, alphabet string
		rules          func(a *asm)
		limit          int
		want           []string // nil: too large
	}{
		{"thesis fixture", "A1 A2 π ⊙", thesisFixture, 64,
			[]string{"A2 A1 π", "A2 A1 ⊙", "⊙ A1 π", "⊙ A1 ⊙", "A1 π", "A1 ⊙"}},
		{"bound choice", "x y z w", boundChoice, 64, []string{"x z x", "x x", "y z y", "y y"}},
		{"repeats are dropped", "a", func(a *asm) { // [a] [a]
			a.sugared(code(split(2), a.sym("a"), split(4), a.sym("a"), match()), code(done()))
		}, 64, []string{"a a", "a", ""}},
		{"an unbound back-reference matches the empty string", "a b", func(a *asm) { // [a]1 [a]1
			a.sugared(code(split(4), save(0), a.sym("a"), save(1), backref(0), match()), code(done()))
		}, 64, []string{"a a", ""}},
		{"at the limit", "a b c", twoWildcards, 18, twoWildcardsLiterals()},
		{"over the limit", "a b c", twoWildcards, 17, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newAsm(t, tt.alphabet, "")
			tt.rules(a)
			p := a.build()
			literals, _, ok := p.expansion(p.Rules[0].Match, tt.limit)
			if ok != (tt.want != nil) {
				t.Fatalf("expanded: %v, want %v", ok, tt.want != nil)
			}
			got := make([]string, len(literals))
			for i, l := range literals {
				got[i] = a.text(l)
			}
			if ok && !slices.Equal(got, tt.want) {
				t.Errorf("%q, want %q", got, tt.want)
			}
		})
	}
}

// twoWildcardsLiterals lists the left-hand sides of twoWildcardsExpansion.
func twoWildcardsLiterals() []string {
	var lhs []string
	for _, x := range []string{"a", "b", "c"} {
		for _, y := range []string{"a", "b", "c"} {
			lhs = append(lhs, x+" "+y+" a b", x+" "+y+" a")
		}
	}
	return lhs
}

func TestAnchor(t *testing.T) {
	for _, tt := range []struct {
		name   string
		rules  func(a *asm)
		want   string
		lo, hi int
	}{
		{"after two wildcards", twoWildcards, "a", 2, 2},
		{"after a choice of one symbol", alternation, "a", 1, 1},
		{"after an optional symbol", thesisFixture, "A1", 0, 1},
		{"none in alternatives", overlapping, "", 0, 0},
		{"none after a back-reference", func(a *asm) { // χ1 χ1 a
			a.sugared(code(save(0), a.any(""), save(1), backref(0), a.sym("a"), match()), code(done()))
		}, "", 0, 0},
		{"a run of symbols", func(a *asm) { // a (b c) χ a
			a.sugared(code(save(0), a.sym("a"), a.lit("b c"), jmp(4), a.any(""), a.sym("a"), match()), code(done()))
		}, "a b c", 0, 0},
		{"the longest run", func(a *asm) { // a χ b c
			a.sugared(code(a.sym("a"), a.any(""), a.lit("b c"), match()), code(done()))
		}, "b c", 2, 2},
	} {
		a := newAsm(t, "a b c d x y z A1 A2 π ⊙", "")
		tt.rules(a)
		p := a.build()
		got := p.findAnchor(p.Rules[0].Match)
		if a.text(got.run) != tt.want || len(got.run) > 0 && (got.lo != tt.lo || got.hi != tt.hi) {
			t.Errorf("%s: anchor %q at %d..%d, want %q at %d..%d",
				tt.name, a.text(got.run), got.lo, got.hi, tt.want, tt.lo, tt.hi)
		}
	}
}

func TestLastIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		s := make([]byte, rng.IntN(40))
		for i := range s {
			s[i] = byte(rng.IntN(3))
		}
		lit := make([]byte, rng.IntN(5))
		for i := range lit {
			lit[i] = byte(rng.IntN(3))
		}
		if got, want := lastIndex(s, lit), bytes.LastIndex(s, lit); got != want {
			t.Fatalf("lastIndex(%v, %v) = %d, want %d", s, lit, got, want)
		}
	}
	long := []byte(strings.Repeat("ab", 100) + "xy" + strings.Repeat("ba", 100))
	if got := lastIndex(long, []byte("xy")); got != 200 {
		t.Errorf("lastIndex in a long string = %d, want 200", got)
	}
}

// A scanner stops covering rules where its table would pass its bound,
// and covers every expanded rule when the bound allows.
func TestScannerTableBound(t *testing.T) {
	a := newAsm(t, "a b c", "")
	a.plain("a b c a b c", "a")
	a.plain("b b b b b b", "b")
	a.plain("c", "a")
	p := a.build()
	m := withScanner(New(p))
	if got := m.scan.scanner.firstUncovered; got != 3 {
		t.Fatalf("unbounded: the scanner covers %d rules, want 3", got)
	}
	// The root and the first literal's 6 states fit 7 rows; the second
	// rule's 6 more do not.
	if sc := newScanner(p, m.plans, 7*len(p.Symbols)); sc == nil || sc.firstUncovered != 1 {
		t.Fatalf("bound of 7 rows: got %+v, want a scanner of rule 0 only", sc)
	}
	if sc := newScanner(p, m.plans, 6*len(p.Symbols)); sc != nil {
		t.Fatalf("bound of 6 rows: got a scanner of %d rules, want none", sc.firstUncovered)
	}
}
