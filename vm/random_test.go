package vm

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// patternGen writes random matcher code the way a compiler would lay out
// sugar: symbols, literals, χ with exclusions, optionals, alternatives,
// captures and back-references, nested.
type patternGen struct {
	rng      *rand.Rand
	a        *asm
	symbols  []string
	code     []Instr
	captures int
	closed   []int32 // captures a back-reference may refer to
}

func (g *patternGen) symbol() string { return g.symbols[g.rng.IntN(len(g.symbols))] }

func (g *patternGen) seq(depth int) {
	for range 1 + g.rng.IntN(3) {
		g.elem(depth)
	}
}

func (g *patternGen) elem(depth int) {
	kind := g.rng.IntN(7)
	if depth == 0 {
		kind = g.rng.IntN(3)
	}
	switch kind {
	case 0:
		g.code = append(g.code, g.a.sym(g.symbol()))
	case 1:
		g.code = append(g.code, g.a.lit(g.symbol()+" "+g.symbol()))
	case 2:
		var except []string
		for _, s := range g.symbols {
			if g.rng.IntN(3) == 0 {
				except = append(except, s)
			}
		}
		g.code = append(g.code, g.a.any(strings.Join(except, " ")))
	case 3: // [seq]
		split := len(g.code)
		g.code = append(g.code, Instr{Op: OpSplit})
		g.seq(depth - 1)
		g.code[split].A = int32(len(g.code))
	case 4: // (seq | seq | …)
		var jumps []int
		alts := 2 + g.rng.IntN(2)
		for i := range alts {
			split := -1
			if i < alts-1 {
				split = len(g.code)
				g.code = append(g.code, Instr{Op: OpSplit})
			}
			g.seq(depth - 1)
			if i < alts-1 {
				jumps = append(jumps, len(g.code))
				g.code = append(g.code, Instr{Op: OpJmp})
				g.code[split].A = int32(len(g.code))
			}
		}
		for _, j := range jumps {
			g.code[j].A = int32(len(g.code))
		}
	case 5:
		k := int32(g.captures)
		g.captures++
		g.code = append(g.code, save(2*k))
		g.elem(depth - 1)
		g.code = append(g.code, save(2*k+1))
		g.closed = append(g.closed, k)
	case 6:
		if len(g.closed) == 0 {
			g.code = append(g.code, g.a.sym(g.symbol()))
			return
		}
		g.code = append(g.code, backref(g.closed[g.rng.IntN(len(g.closed))]))
	}
}

// pattern returns random matcher code and the number of captures it uses.
func (g *patternGen) pattern() ([]Instr, int) {
	g.code, g.captures, g.closed = nil, 0, nil
	g.seq(3)
	return append(g.code, match()), g.captures
}

// TestRandomPatterns runs programs of random sugared rules three ways: the
// machine searching by matcher and by expansion (with a whole scanner and
// with one cut short by its table bound), and the reference interpreter
// running the ordered expansion (enumerated from the code). With a writer
// that uses captures, the machine's two ways must agree too.
func TestRandomPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const alphabet = "a b c d"
	symbols := strings.Fields(alphabet)
	programs := 0
	for programs < 300 {
		sugared, withCaptures, expansion := newAsm(t, alphabet, ""), newAsm(t, alphabet, ""), newAsm(t, alphabet, "")
		ok := true
		for _, rhs := range []string{"d", "c a"} {
			// The same random code in each of the three programs.
			seed := rng.Uint64()
			g := &patternGen{rng: rand.New(rand.NewPCG(seed, 0)), a: sugared, symbols: symbols}
			matcher, captures := g.pattern()
			sugared.sugared(matcher, code(sugared.emit(rhs), done()))
			g = &patternGen{rng: rand.New(rand.NewPCG(seed, 0)), a: withCaptures, symbols: symbols}
			matcher, _ = g.pattern()
			writer := code(withCaptures.emit(rhs))
			for k := range int32(captures) {
				writer = append(writer, skipUnbound(k, int32(len(writer)+2)), emitCap(k))
			}
			withCaptures.sugared(matcher, append(writer, done()))

			p := &sugared.prog
			literals, _, expanded := p.expansion(p.Rules[len(p.Rules)-1].Match, 200)
			if !expanded {
				ok = false
				break
			}
			for _, l := range literals {
				expansion.plain(sugared.text(l), rhs)
			}
		}
		if !ok {
			continue
		}
		programs++
		pS, pC, pE := sugared.build(), withCaptures.build(), expansion.build()
		byMatcher, byExpansion := newMachine(pS, 0), newMachine(pS, 200)
		// A scanner whose table is too small for both rules covers the first
		// at most; the rules past it are searched for one by one.
		byCutScanner := newMachine(pS, 200)
		byCutScanner.scan.scanner, byCutScanner.scan.due = newScanner(pS, byCutScanner.plans, 12*len(pS.Symbols)), 0
		capturesByMatcher, capturesByExpansion := newMachine(pC, 0), newMachine(pC, 200)
		expanded := plainRules(t, pE)
		for range 30 {
			input := make([]string, rng.IntN(10))
			for i := range input {
				input[i] = symbols[rng.IntN(len(symbols))]
			}
			in := sugared.str(strings.Join(input, " "))
			opt := Options{Leftmost: rng.IntN(2) == 0, MaxSteps: 20, MaxLen: 24, MaxWork: DefaultMaxWork}
			outN, resN := referenceRun(expanded, input, opt)
			want := strings.Join(outN, " ")
			for _, m := range []*Machine{byMatcher, byExpansion, byCutScanner} {
				out, res := m.Run(in, opt)
				res.Rule, resN.Rule = 0, 0 // rule numbers differ
				if got := sugared.text(out); got != want || res != resN {
					t.Fatalf("%s\non %q %+v: %q %+v, expansion %q %+v",
						pS.Disasm(), input, opt, got, res, want, resN)
				}
			}
			outM, resM := capturesByMatcher.Run(in, opt)
			gotM := withCaptures.text(outM)
			outE, resE := capturesByExpansion.Run(in, opt)
			if gotE := withCaptures.text(outE); gotM != gotE || resM != resE {
				t.Fatalf("%s\non %q %+v: by matcher %q %+v, by expansion %q %+v",
					pC.Disasm(), input, opt, gotM, resM, gotE, resE)
			}
		}
	}
}
