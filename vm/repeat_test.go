package vm

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 20000 {
		s := make([]byte, rng.IntN(40))
		for i := range s {
			s[i] = byte(rng.IntN(2))
		}
		c, at := byte(rng.IntN(2)), rng.IntN(len(s)+1)
		before, from := 0, 0
		for before < at && s[at-1-before] == c {
			before++
		}
		for at+from < len(s) && s[at+from] == c {
			from++
		}
		if got := runBefore(s, at, c); got != before {
			t.Fatalf("runBefore(%v, %d, %d) = %d, want %d", s, at, c, got, before)
		}
		if got := runFrom(s, at, c); got != from {
			t.Fatalf("runFrom(%v, %d, %d) = %d, want %d", s, at, c, got, from)
		}
	}
}

// TestRepeatAgrees runs random programs that erase separators, mostly
// with rules before the erasing one that can form across the join, on
// inputs of long runs of separators (short and long strings), and
// requires the same runs from the machine that erases a run at once, from
// one that steps through it, and, for plain programs on strings of up to
// 400 symbols, from the reference interpreter (see checkRepeat).
func TestRepeatAgrees(t *testing.T) { agreeRandomly(t, 21, checkRepeat) }

// FuzzRepeat is TestRepeatAgrees with the fuzzer's bytes for the random
// choices:
//
//	go test ./vm -run '^$' -fuzz FuzzRepeat -fuzztime 10m
func FuzzRepeat(f *testing.F) { fuzzAgreement(f, 21, checkRepeat) }

// checkRepeat makes a random program of a few rules, an erasing rule (of
// one separator, a few, or an alternative, perhaps storing it), and a few
// more rules, and runs it three times in a row on inputs mostly of
// separators, with random limits, on three machines: New's, one that does
// not repeat, and one whose every string is long (facts and the gap
// buffer).
func checkRepeat(t *testing.T, rng *rand.Rand) {
	symbols := []string{":", "a", "b", "x"}
	a := newAsm(t, strings.Join(symbols, " "), "")
	word := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = symbols[rng.IntN(len(symbols))]
		}
		return strings.Join(w, " ")
	}
	plain := true
	rules := func(n int) {
		for range n {
			if rng.IntN(4) == 0 {
				// x (χ ∉ {:, b}) -> x, like ω1 (χ ∉ {L, R, :}) -> ω1
				a.sugared(code(a.sym("x"), a.any(": b"), match()), code(a.emit(word(rng.IntN(2))), done()))
				plain = false
				continue
			}
			var flags []func(*Rule)
			if rng.IntN(10) == 0 {
				flags = append(flags, terminating)
			}
			a.plain(word(1+rng.IntN(3)), word(rng.IntN(3)), flags...)
		}
	}
	rules(rng.IntN(4))
	switch rng.IntN(4) {
	case 0, 1:
		a.plain(strings.TrimSpace(strings.Repeat(": ", 1+rng.IntN(3))), "")
	case 2: // (a|:) ->
		a.sugared(code(split(3), a.sym("a"), jmp(4), a.sym(":"), match()), code(done()))
		plain = false
	case 3: // (a|:)^Δ ->
		a.sugared(code(save(0), split(4), a.sym("a"), jmp(5), a.sym(":"), save(1), match()), code(done()), store(0))
		plain = false
	}
	rules(rng.IntN(3))
	p := a.build()
	fast, stepping, allLong := New(p), New(p), New(p)
	stepping.noRepeat, allLong.str.longLen = true, rng.IntN(4)
	var expansion []string
	if plain {
		for _, r := range plainRules(t, p) {
			expansion = append(expansion, strings.Join(r.LHS, " "))
		}
	}
	for range 3 {
		n := rng.IntN(100)
		if rng.IntN(3) == 0 {
			n = rng.IntN(1200)
		}
		input := make([]byte, n)
		for k := range input {
			if rng.IntN(8) == 0 {
				input[k] = byte(rng.IntN(len(symbols)))
			}
		}
		opt := Options{
			Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(2*n + 9), MaxLen: n + rng.IntN(n+9), MaxWork: DefaultMaxWork,
		}
		if rng.IntN(2) == 0 {
			opt.MaxSteps = 3*n + 20 // enough to erase every separator, and a bound on cycles
		}
		outS, resS := stepping.Run(input, opt)
		for _, m := range []*Machine{fast, allLong} {
			out, res := m.Run(input, opt)
			if !bytes.Equal(out, outS) || res != resS || !bytes.Equal(m.Memory(), stepping.Memory()) {
				t.Fatalf("%s\non %d symbols %+v (longLen %d): %+v, stepping %+v; strings %s; memories %q, %q",
					p.Disasm(), n, opt, m.str.longLen, res, resS, firstDiff(out, outS), a.text(m.Memory()), a.text(stepping.Memory()))
			}
		}
		if plain && n <= 400 { // the reference's steps cost the string's length
			want, wantRes := referenceRun(plainRules(t, p), strings.Fields(a.text(input)), opt)
			if got := a.text(outS); got != strings.Join(want, " ") || resS != wantRes {
				t.Fatalf("rules %q on %d symbols %+v: %+v, the reference %+v", expansion, n, opt, resS, wantRes)
			}
		}
	}
}
