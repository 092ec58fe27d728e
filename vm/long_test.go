package vm

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLongAgrees runs random programs on long random inputs three ways:
// with the plain search on a contiguous string (longLen out of reach), as
// New makes them, and with every string long (the facts and the gap buffer
// from the first step on). All three must give the same run. Programs have
// a few or many plain rules, or sugared rules mixed with plain ones, some
// expanded and some left to the matcher.
func TestLongAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	symbols := []string{"a", "b", "c"}
	n := 240
	if testing.Short() {
		n = 30
	}
	for i := range n {
		a := newAsm(t, strings.Join(symbols, " "), "")
		switch i % 3 {
		case 0:
			randomPlainRules(rng, a, symbols, 3)
		case 1:
			randomPlainRules(rng, a, symbols, 12)
		case 2:
			randomSugaredRules(rng, a, symbols)
			randomPlainRules(rng, a, symbols, 3)
		}
		p := a.build()
		plain, fast, allLong := New(p), New(p), newMachine(p, maxExpansion)
		plain.longLen = math.MaxInt
		allLong.longLen = rng.IntN(4)
		if rng.IntN(2) == 0 {
			fast = newMachine(p, 0) // sugared rules by their matcher
			plain = newMachine(p, 0)
			plain.longLen = math.MaxInt
		}
		for range 4 {
			input := make([]byte, rng.IntN(2000))
			for k := range input {
				input[k] = byte(rng.IntN(len(symbols)))
			}
			opt := Options{
				Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(2000), MaxLen: len(input) + rng.IntN(2000),
				MaxWork: DefaultMaxWork,
			}
			outP, resP := plain.Run(input, opt)
			want := string(outP)
			for _, m := range []*Machine{fast, allLong} {
				out, res := m.Run(input, opt)
				if string(out) != want || res != resP {
					t.Fatalf("%s\non %d symbols %+v (longLen %d): %+v, plainly %+v\ngot  %q\nwant %q",
						p.Disasm(), len(input), opt, m.longLen, res, resP, a.text(out), a.text(outP))
				}
			}
		}
	}
}

// BenchmarkLongInput runs one-rule programs on long inputs, where a step
// whose cost grew with the string made a run quadratic: a -> b on 100,000
// and 300,000 a's, both ways, and rules that lengthen, shorten or are
// sugared on 100,000.
//
//	go test ./vm -run '^$' -bench LongInput -benchmem
func BenchmarkLongInput(b *testing.B) {
	for _, bm := range []struct {
		name  string
		rules func(a *asm)
		n     int
	}{
		{"a->b/100k", func(a *asm) { a.plain("a", "b") }, 100_000},
		{"a->b/300k", func(a *asm) { a.plain("a", "b") }, 300_000},
		{"a->bb/100k", func(a *asm) { a.plain("a", "b b") }, 100_000},
		{"aa->b/100k", func(a *asm) { a.plain("a a", "b") }, 100_000},
		// (χ ∉ {b}) a -> b χ
		{"sugared/100k", func(a *asm) {
			a.sugared(code(save(0), a.any("b"), save(1), a.sym("a"), match()), code(a.emit("b"), emitCap(0), done()))
		}, 100_000},
	} {
		for _, leftmost := range []bool{false, true} {
			mode := "rightmost"
			if leftmost {
				mode = "leftmost"
			}
			b.Run(mode+"/"+bm.name, func(b *testing.B) {
				a := newAsm(b, "a b", "")
				bm.rules(a)
				m, in := New(a.build()), a.str(strings.Repeat("a ", bm.n))
				opt := DefaultOptions()
				opt.Leftmost = leftmost
				b.ReportAllocs()
				for b.Loop() {
					m.Run(in, opt)
				}
			})
		}
	}
}

// randomPlainRules adds 1 to maxRules plain rules over symbols: left-hand
// sides of up to three symbols (rarely none), right-hand sides of up to
// four, some terminating.
func randomPlainRules(rng *rand.Rand, a *asm, symbols []string, maxRules int) {
	word := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = symbols[rng.IntN(len(symbols))]
		}
		return strings.Join(w, " ")
	}
	for range 1 + rng.IntN(maxRules) {
		lhs := 1 + rng.IntN(3)
		if rng.IntN(20) == 0 {
			lhs = 0
		}
		var flags []func(*Rule)
		if rng.IntN(8) == 0 {
			flags = append(flags, terminating)
		}
		a.plain(word(lhs), word(rng.IntN(5)), flags...)
	}
}

// randomSugaredRules adds one to three sugared rules of random matcher code
// whose writers copy their captures.
func randomSugaredRules(rng *rand.Rand, a *asm, symbols []string) {
	for range 1 + rng.IntN(3) {
		g := &patternGen{rng: rng, a: a, symbols: symbols}
		matcher, captures := g.pattern()
		writer := code(a.emit(symbols[rng.IntN(len(symbols))]))
		for k := range int32(captures) {
			writer = append(writer, skipUnbound(k, int32(len(writer)+2)), emitCap(k))
		}
		a.sugared(matcher, append(writer, done()))
	}
}
