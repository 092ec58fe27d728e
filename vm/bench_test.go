package vm

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/anynt/anynt/internal/reference"
)

// Benchmarks run one whole program per iteration and report rewrite steps
// per second beside the time per run:
//
//	go test ./vm -run '^$' -bench . -benchmem

var benchmarks = []struct {
	name, alphabet, input string
	rules                 func(a *asm)
	opt                   Options
	// expansion is the plain program that BenchmarkReference runs, or nil to
	// skip it there.
	expansion func(a *asm)
}{
	// 14 binary digits 1 become 16383 strokes.
	{"plain/binaryToUnary", "| 0 1", strings.Repeat("1 ", 14), binaryToUnary, with(func(o *Options) { o.Leftmost = true }), binaryToUnary},
	// 150 symbols, 3825 swaps.
	{"sugared/sortABC", "a b c", strings.Repeat("c b a ", 50), sortABC, DefaultOptions(), sortABCExpansion},
	{"plain/sortABCExpansion", "a b c", strings.Repeat("c b a ", 50), sortABCExpansion, DefaultOptions(), nil},
	{"sugared/sortAny", "p q r", strings.Repeat("r q p ", 50) + "$", sortAny, DefaultOptions(), nil},
	// Good/Evil's first rules on a 400-cell ring's observation (408
	// symbols): 407 steps, most of them erasing a ':'.
	{"sugared/eraseObservation", "π ω1 S L R : ⊙ E_I E_D Φ", ringObservation, eraseObservation, DefaultOptions(), nil},
}

// ringObservation is an observation of the ω1-blocker's space copied to a
// ring of 400 cells, as Good or Evil sees it.
var ringObservation = strings.Repeat(": ", 28) + "π " + strings.Repeat(": ", 20) + "L : ⊙ S : R " +
	strings.Repeat(": ", 35) + "ω1 " + strings.Repeat(": ", 100) + "⊙ " + strings.Repeat(": ", 216)

// eraseObservation is the start of Good/Evil (corpus/thesis/goodevil.anynt):
//
//	ω1 (χ ∉ {L, R, :}) -> ω1
//	ω1L -> E_I
//	ω1R -> E_D
//	(π|ω1|S|L|R|:) ->
//	⊙⊙ -> Φ
func eraseObservation(a *asm) {
	a.sugared(code(a.sym("ω1"), a.any("L R :"), match()), code(a.emit("ω1"), done()))
	a.plain("ω1 L", "E_I")
	a.plain("ω1 R", "E_D")
	names := strings.Fields("π ω1 S L R :")
	var alts []Instr
	for i, name := range names {
		if i < len(names)-1 {
			alts = append(alts, split(int32(3*i+3)), a.sym(name), jmp(int32(3*len(names)-2)))
		} else {
			alts = append(alts, a.sym(name), match())
		}
	}
	a.sugared(alts, code(done()))
	a.plain("⊙ ⊙", "Φ")
}

func BenchmarkRun(b *testing.B) {
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) { benchmarkRun(b, bm.alphabet, bm.input, bm.rules, bm.opt, maxExpansion) })
		if strings.HasPrefix(bm.name, "sugared/") {
			b.Run(bm.name+"/matcher", func(b *testing.B) { benchmarkRun(b, bm.alphabet, bm.input, bm.rules, bm.opt, 0) })
		}
	}
}

func benchmarkRun(b *testing.B, alphabet, input string, rules func(a *asm), opt Options, maxExpansion int) {
	a := newAsm(b, alphabet, "$")
	rules(a)
	m, in := newMachine(a.build(), maxExpansion), a.str(input)
	m.Run(in, opt) // grows the buffers
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		_, res := m.Run(in, opt)
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkExpansionLimit compares the two ways of finding a sugared rule's
// match, searching for the literals of its expansion and running its
// matcher, on the rule (χ1 ∉ {s0}) s0 -> s0 χ1 over growing alphabets; it
// sets maxExpansion.
func BenchmarkExpansionLimit(b *testing.B) {
	for _, n := range []int{4, 16, 32, 64} {
		names := make([]string, n)
		for i := range names {
			names[i] = "s" + strconv.Itoa(i)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		var input []string
		for range 100 {
			input = append(input, names[1+rng.IntN(n-1)])
			if rng.IntN(4) == 0 {
				input = append(input, "s0")
			}
		}
		rules := func(a *asm) {
			a.sugared(
				code(save(0), a.any("s0"), save(1), a.sym("s0"), match()),
				code(a.emit("s0"), emitCap(0), done()))
		}
		alphabet := strings.Join(names, " ")
		for _, limit := range []int{n, 0} {
			name := fmt.Sprintf("literals=%d/expanded", n-1)
			if limit == 0 {
				name = fmt.Sprintf("literals=%d/matcher", n-1)
			}
			b.Run(name, func(b *testing.B) {
				benchmarkRun(b, alphabet, strings.Join(input, " "), rules, DefaultOptions(), limit)
			})
		}
	}
}

// BenchmarkReference runs the programs, expanded, on the reference
// interpreter: the baseline that BenchmarkRun is measured against.
func BenchmarkReference(b *testing.B) {
	for _, bm := range benchmarks {
		if bm.expansion == nil {
			continue
		}
		b.Run(bm.name, func(b *testing.B) {
			a := newAsm(b, bm.alphabet, "$")
			bm.expansion(a)
			in := reference.New(plainRules(b, a.build()), reference.Options{
				Leftmost: bm.opt.Leftmost, MaxSteps: DefaultMaxSteps, MaxLen: DefaultMaxLen,
			})
			input := strings.Fields(bm.input)
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				steps += in.Run(input).Steps
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}
