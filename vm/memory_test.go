package vm

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/internal/reference"
)

// Δ stores the whole string, yet a step that stores it costs in proportion
// to what it changes, not to the string's length: over a run, the machine
// copies a bounded number of symbols per step and per input symbol (the
// input, the output and the memory are each copied whole once a run), on a
// string of 2,000 symbols as on one of 50,000. Copying the string into
// the memory at every step would copy n symbols a step.
func TestDeltaCopiesFollowTheChange(t *testing.T) {
	const perSymbol = 16 // copies per step and per input symbol allowed
	as := func(n int, _ bool) string { return strings.Repeat("a ", n) }
	for _, tt := range []struct {
		name  string
		rules func(a *asm)
		input func(n int, leftmost bool) string
	}{
		{"a -> b Δ", func(a *asm) { a.plain("a", "b", storeWhole) }, as},
		{"a -> b b Δ", func(a *asm) { a.plain("a", "b b", storeWhole) }, as},
		{"a a -> b Δ", func(a *asm) { a.plain("a a", "b", storeWhole) }, as},
		// Steps alternate: a Δ step, then one that changes the string
		// without storing it, which the memory must not see.
		{"c -> d, a -> c Δ", func(a *asm) { a.plain("c", "d"); a.plain("a", "c", storeWhole) }, as},
		// Each Δ step is followed by erasures done at once (repeat.go).
		{"d d ->, a -> d d d d Δ", func(a *asm) { a.plain("d d", ""); a.plain("a", "d d d d", storeWhole) }, as},
		// ∇, at the end, reads what the last of n Δ steps stored.
		{"c b -> ∇., b c -> ∇., a -> b Δ", func(a *asm) {
			a.plain("c b", "∇", terminating)
			a.plain("b c", "∇", terminating)
			a.plain("a", "b", storeWhole)
		}, func(n int, leftmost bool) string {
			if leftmost {
				return strings.Repeat("a ", n) + "c"
			}
			return "c " + strings.Repeat("a ", n)
		}},
	} {
		for _, leftmost := range []bool{false, true} {
			for _, n := range []int{2_000, 50_000} {
				a := newAsm(t, "a b c d x", "")
				tt.rules(a)
				// x's the rules do not touch keep the string long: the
				// short path moves up to scanMaxLen symbols a step.
				pad := strings.Repeat("x ", longLen)
				m, in := New(a.build()), a.str(pad+tt.input(n, leftmost)+" "+pad)
				opt := DefaultOptions()
				opt.Leftmost = leftmost
				before := m.copied()
				_, res := m.Run(in, opt)
				m.Memory()
				copied := m.copied() - before
				if res.Steps < n/4 {
					t.Fatalf("%s, leftmost %v, on %d symbols: only %d steps", tt.name, leftmost, len(in), res.Steps)
				}
				if limit := perSymbol * (len(in) + res.Steps); copied > limit {
					t.Errorf("%s, leftmost %v, on %d symbols: %d symbols copied in %d steps, more than %d",
						tt.name, leftmost, len(in), copied, res.Steps, limit)
				}
				t.Logf("%s, leftmost %v, on %d symbols: %d symbols copied in %d steps", tt.name, leftmost, len(in), copied, res.Steps)
			}
		}
	}
}

// Random plain programs with Δ (at least one rule stores the whole string)
// and sometimes ∇, on inputs longer than longLen, run like the reference
// interpreter: the same output, result and memory after each of three
// runs of one machine, each on a fresh input or on the last output and
// sometimes after a reset, in
// the machine New makes and in one for which every string is long.
func TestDeltaAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 12))
	symbols := []string{"a", "b", "c"}
	programs := 60
	if testing.Short() {
		programs = 12
	}
	for range programs {
		a := newAsm(t, strings.Join(symbols, " "), "")
		randomPlainRules(rng, a, symbols, 6)
		rules := a.prog.Rules
		if !slices.ContainsFunc(rules, func(r Rule) bool { return r.StoreWhole }) {
			rules[rng.IntN(len(rules))].StoreWhole = true
		}
		p := a.build()
		fast, allLong := New(p), New(p)
		allLong.str.longLen = rng.IntN(4)
		ref := reference.New(plainRules(t, p), reference.Options{})
		var input []byte
		for run := range 3 {
			if run == 0 || rng.IntN(2) == 0 {
				input = make([]byte, longLen+1+rng.IntN(1000))
				for k := range input {
					input[k] = byte(rng.IntN(len(symbols)))
				}
			}
			if rng.IntN(4) == 0 {
				fast.Reset()
				allLong.Reset()
				ref.Reset()
			}
			opt := Options{
				Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(600), MaxLen: len(input) + rng.IntN(len(input)), MaxWork: DefaultMaxWork,
			}
			ref.Options = reference.Options{Leftmost: opt.Leftmost, MaxSteps: opt.MaxSteps, MaxLen: opt.MaxLen}
			want := ref.Run(strings.Fields(a.text(input)))
			wantOut, wantMem := strings.Join(want.Output, " "), strings.Join(ref.Memory(), " ")
			var out []byte
			for _, m := range []*Machine{fast, allLong} {
				var res Result
				out, res = m.Run(input, opt)
				if got, mem := a.text(out), a.text(m.Memory()); got != wantOut || mem != wantMem ||
					res.Steps != want.Steps || res.Halt != haltOf(want.Halt) {
					t.Fatalf("%s\nrun %d on %d symbols %+v (longLen %d): %+v, the reference %d steps, %s; strings %s; memories of %d and %d symbols",
						p.Disasm(), run+1, len(input), opt, m.str.longLen, res, want.Steps, want.Halt,
						firstDiff([]byte(got), []byte(wantOut)), len(m.Memory()), len(ref.Memory()))
				}
			}
			input = slices.Clone(out)
		}
	}
}

// A long run whose steps alternate between storing the string and changing
// it without storing it allocates nothing once the machine's buffers (the
// shadow and its log among them) have grown.
func TestDeltaNoAllocation(t *testing.T) {
	for _, leftmost := range []bool{false, true} {
		a := newAsm(t, "a b c d", "")
		a.plain("c", "d")
		a.plain("a", "c", storeWhole)
		a.plain("d d", "b ∇", terminating)
		m, in := New(a.build()), a.str(strings.Repeat("a ", 5000))
		opt := DefaultOptions()
		opt.Leftmost = leftmost
		_, res := m.Run(in, opt) // grows the buffers
		if res.Steps < 10_000 {
			t.Fatalf("only %d steps", res.Steps)
		}
		if allocs := testing.AllocsPerRun(5, func() { m.Run(in, opt) }); allocs != 0 {
			t.Errorf("leftmost %v: %v allocations per run of %d steps", leftmost, allocs, res.Steps)
		}
	}
}
