package vm

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestShift states how a splice carries the interval of a literal's
// possible starts, on "x x a x x" style strings: the literal has length 2
// and the splice writes n symbols over [start, end).
func TestShift(t *testing.T) {
	for _, tt := range []struct {
		name                   string
		start, end, n, newLen  int
		lo, hi, wantLo, wantHi int
	}{
		// A rewrite at p by a same-length rhs, after finding the rightmost
		// occurrence there: none starts beyond p, except across the span.
		{"rightmost a -> b", 5, 6, 1, 10, 0, 5, 0, 5},
		{"leftmost a -> b", 5, 6, 1, 10, 5, 8, 4, 8},
		// Wholly before the span: unchanged, and new ones may start across
		// the new span, in [start-1, start+n-1].
		{"before", 6, 7, 3, 12, 0, 2, 0, 8},
		// Wholly after: moved by the change of length (+2).
		{"after", 1, 2, 3, 12, 4, 7, 0, 9},
		// Absent before: only across the new span.
		{"absent, grown", 4, 5, 3, 12, 1, 0, 3, 6},
		{"absent, deleted", 4, 6, 0, 8, 1, 0, 3, 3},
		{"absent, the last symbol deleted", 9, 10, 0, 9, 1, 0, math.MaxInt, -1},
		// An interval the span cuts in two: the hull of both sides.
		{"around the span", 4, 6, 0, 8, 0, 8, 0, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := spliceRec{start: tt.start, end: tt.end, n: tt.n, newLen: tt.newLen}
			if lo, hi := r.shift(tt.lo, tt.hi, 2); lo != tt.wantLo || hi != tt.wantHi {
				t.Errorf("[%d, %d] across %+v: [%d, %d], want [%d, %d]", tt.lo, tt.hi, r, lo, hi, tt.wantLo, tt.wantHi)
			}
		})
	}
}

// TestLongAgrees runs random programs on long random inputs three ways and
// requires the same runs (see checkLong).
func TestLongAgrees(t *testing.T) { agreeRandomly(t, 13, checkLong) }

// FuzzLong is TestLongAgrees with the fuzzer's bytes for the random
// choices. It lives here rather than in fuzz/ because it sets the machines'
// longLen, which is unexported:
//
//	go test ./vm -run '^$' -fuzz FuzzLong -fuzztime 10m
func FuzzLong(f *testing.F) { fuzzAgreement(f, 13, checkLong) }

// agreeRandomly calls check 1,000 times (100 with -short) with a stream
// seeded by seed: each call draws a program and its inputs and compares
// two ways of running them.
func agreeRandomly(t *testing.T, seed uint64, check func(*testing.T, *rand.Rand)) {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := 1000
	if testing.Short() {
		n = 100
	}
	for range n {
		check(t, rng)
	}
}

// fuzzAgreement is agreeRandomly with the fuzzer's bytes for the random
// choices, seeded with 16 random byte strings.
func fuzzAgreement(f *testing.F, seed uint64, check func(*testing.T, *rand.Rand)) {
	f.Add([]byte{})
	seeds := rand.New(rand.NewPCG(1, seed))
	for range 16 {
		b := make([]byte, 64+seeds.IntN(192))
		for i := range b {
			b[i] = byte(seeds.Uint32())
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, rand.New(&byteSource{data: data}))
	})
}

// byteSource turns bytes into random numbers, eight at a time, and then
// goes on with a fixed stream (not zeros, on which rand's rejection
// sampling would loop for ever).
type byteSource struct {
	data []byte
	rest *rand.PCG
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) < 8 {
		if s.rest == nil {
			s.rest = rand.NewPCG(uint64(len(s.data)), 13)
		}
		return s.rest.Uint64()
	}
	v := binary.LittleEndian.Uint64(s.data)
	s.data = s.data[8:]
	return v
}

// checkLong makes a random program, with a few or many plain rules, or
// sugared rules mixed with plain ones, some of either storing or recalling
// the memory, and runs it three times in a row on long random inputs three
// ways: with the plain search on a contiguous string (longLen out of
// reach) one step at a time (no repeat), as New makes the machine, and
// with every string long (the facts and the gap buffer from the first step
// on). All three must give the same
// string, result and memory after every run. Half the time the sugared
// rules are searched by their matcher.
func checkLong(t *testing.T, rng *rand.Rand) {
	symbols := []string{"a", "b", "c"}
	a := newAsm(t, strings.Join(symbols, " "), "")
	switch rng.IntN(3) {
	case 0:
		randomPlainRules(rng, a, symbols, 3)
	case 1:
		randomPlainRules(rng, a, symbols, 12)
	case 2:
		randomSugaredRules(rng, a, symbols)
		randomPlainRules(rng, a, symbols, 3)
	}
	p := a.build()
	expansion := maxExpansion
	if rng.IntN(2) == 0 {
		expansion = 0
	}
	plain, fast, allLong := newMachine(p, expansion), newMachine(p, expansion), newMachine(p, expansion)
	plain.str.longLen, allLong.str.longLen = math.MaxInt, rng.IntN(4)
	plain.noRepeat = true
	for range 3 {
		// Mostly short, which the all-long machine treats as long, and
		// sometimes long enough for New's machine to.
		input := make([]byte, rng.IntN(200))
		if rng.IntN(4) == 0 {
			input = make([]byte, rng.IntN(2000))
		}
		for k := range input {
			input[k] = byte(rng.IntN(len(symbols)))
		}
		opt := Options{
			Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(2*len(input) + 9), MaxLen: len(input) + rng.IntN(len(input)+9),
			MaxWork: rng.IntN(1_000_000), // the matcher's work counts alike, or runs out alike
		}
		outP, resP := plain.Run(input, opt)
		for _, m := range []*Machine{fast, allLong} {
			out, res := m.Run(input, opt)
			if !bytes.Equal(out, outP) || res != resP || !bytes.Equal(m.Memory(), plain.Memory()) {
				t.Fatalf("%s\non %d symbols %+v (longLen %d): %+v, plainly %+v; strings %s; memories %q, %q",
					p.Disasm(), len(input), opt, m.str.longLen, res, resP, firstDiff(out, outP), a.text(m.Memory()), a.text(plain.Memory()))
			}
		}
	}
}

// firstDiff says where two strings first differ.
func firstDiff(s, t []byte) string {
	i := 0
	for i < len(s) && i < len(t) && s[i] == t[i] {
		i++
	}
	if i == len(s) && i == len(t) {
		return "equal"
	}
	return fmt.Sprintf("of %d and %d symbols first differ at %d", len(s), len(t), i)
}

// A long run allocates nothing once the machine's buffers have grown: the
// facts, the log, the gap buffer and the scratch for searches across the gap
// are the machine's, and reused.
func TestLongNoAllocation(t *testing.T) {
	for _, leftmost := range []bool{false, true} {
		a := newAsm(t, "a b c", "")
		a.plain("c a", "a c")
		a.plain("a", "b b")
		a.sugared(code(save(0), a.any("a"), save(1), a.sym("b"), a.sym("b"), match()), code(emitCap(0), a.emit("c"), done()))
		m, in := New(a.build()), a.str(strings.Repeat("a ", 5000))
		opt := DefaultOptions()
		opt.Leftmost = leftmost
		_, res := m.Run(in, opt) // grows the buffers
		if res.Steps < 5000 {
			t.Fatalf("only %d steps", res.Steps)
		}
		if allocs := testing.AllocsPerRun(5, func() { m.Run(in, opt) }); allocs != 0 {
			t.Errorf("leftmost %v: %v allocations per run of %d steps", leftmost, allocs, res.Steps)
		}
	}
}

// BenchmarkLongInput runs one-rule programs on long inputs, where a step
// whose cost grew with the string made a run quadratic: a -> b on 100,000
// and 300,000 a's, both ways, and rules that lengthen, shorten or are
// sugared on 100,000; a -> b Δ, which stores the whole string at every
// step, on 300,000, and a -> c Δ after c -> d, whose steps alternate
// between storing the string and changing it without storing, on 100,000.
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
		{"a->bΔ/300k", func(a *asm) { a.plain("a", "b", storeWhole) }, 300_000},
		{"c->d,a->cΔ/100k", func(a *asm) { a.plain("c", "d"); a.plain("a", "c", storeWhole) }, 100_000},
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
				a := newAsm(b, "a b c d", "")
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
		if rng.IntN(10) == 0 {
			flags = append(flags, storeWhole)
		}
		rhs := word(rng.IntN(5))
		if rng.IntN(8) == 0 {
			rhs += " ∇"
		}
		a.plain(word(lhs), rhs, flags...)
	}
}

// randomSugaredRules adds one to three sugared rules of random matcher code
// whose writers copy their captures, some storing one in the memory.
func randomSugaredRules(rng *rand.Rand, a *asm, symbols []string) {
	for range 1 + rng.IntN(3) {
		g := &patternGen{rng: rng, a: a, symbols: symbols}
		matcher, captures := g.pattern()
		writer := code(a.emit(symbols[rng.IntN(len(symbols))]))
		for k := range int32(captures) {
			writer = append(writer, skipUnbound(k, int32(len(writer)+2)), emitCap(k))
		}
		var flags []func(*Rule)
		if captures > 0 && rng.IntN(3) == 0 {
			flags = append(flags, store(rng.IntN(captures)))
		}
		a.sugared(matcher, append(writer, done()), flags...)
	}
}
