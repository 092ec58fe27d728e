package vm

import (
	"strings"
	"testing"
)

// Benchmarks run one whole program per iteration and report rewrite steps
// per second beside the time per run:
//
//	go test ./vm -run '^$' -bench . -benchmem

var benchmarks = []struct {
	name, alphabet, input string
	rules                 func(a *asm)
	opt                   Options
	// expansion is the plain program that the naive interpreter runs
	// instead of rules, if rules is sugared.
	expansion func(a *asm)
}{
	// 14 binary digits 1 become 16383 strokes.
	{"plain/binaryToUnary", "| 0 1", strings.Repeat("1 ", 14), binaryToUnary, Options{Leftmost: true}, binaryToUnary},
	// 150 symbols, 7500 swaps.
	{"sugared/sortABC", "a b c", strings.Repeat("c b a ", 50), sortABC, Options{}, sortABCExpansion},
	{"plain/sortABCExpansion", "a b c", strings.Repeat("c b a ", 50), sortABCExpansion, Options{}, sortABCExpansion},
	{"sugared/sortAny", "p q r", strings.Repeat("r q p ", 50) + "$", sortAny, Options{}, nil},
}

func BenchmarkRun(b *testing.B) {
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			a := newAsm(b, bm.alphabet, "$")
			bm.rules(a)
			m, input := New(a.build()), a.str(bm.input)
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				_, res := m.Run(input, bm.opt)
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// BenchmarkNaive runs the programs, expanded, on the naive interpreter: the
// baseline that BenchmarkRun is measured against.
func BenchmarkNaive(b *testing.B) {
	for _, bm := range benchmarks {
		if bm.expansion == nil {
			continue
		}
		b.Run(bm.name, func(b *testing.B) {
			a := newAsm(b, bm.alphabet, "$")
			bm.expansion(a)
			rules, input := naiveRules(b, a.build()), strings.Fields(bm.input)
			opt := bm.opt
			opt.MaxSteps, opt.MaxLen = DefaultMaxSteps, DefaultMaxLen
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				_, res := naiveRun(rules, input, opt)
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
