package complexity_test

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden file")

func parse(t *testing.T, name, src string) *lang.File {
	t.Helper()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

// report measures a file's run as the complexity command does (1,000
// interactions of the random agent, seed 1; a rule file once from the
// empty string) and hands the steps to the package.
func report(t *testing.T, name, src string) *complexity.Report {
	t.Helper()
	f := parse(t, name, src)
	if !env.IsEnvironment(f) {
		prog, err := compiler.Compile(f, compiler.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, res := vm.New(prog).Run(nil, vm.DefaultOptions())
		return complexity.OfRuleFile(f, prog.Symbols[:prog.AlphabetSize], complexity.Run{MaxSteps: res.Steps, Interactions: 1})
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	random, err := agent.Lookup("random", agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	ep := env.NewEpisode(e, random(), 1)
	ep.Run(1000, nil)
	return complexity.OfEnvironment(f, e, complexity.Run{MaxSteps: ep.MaxSteps, Interactions: 1000, Agent: "random", Seed: 1})
}

// The exact figures of every corpus file. A change to the code shows up
// here as a diff, and must come with a new Version.
func TestGolden(t *testing.T) {
	files, _ := fs.Glob(corpus.Files, "*/*.anynt")
	var b strings.Builder
	fmt.Fprintf(&b, "version %s\n", complexity.Version)
	for _, file := range files {
		src, _ := fs.ReadFile(corpus.Files, file)
		r := report(t, file, string(src))
		fmt.Fprintf(&b, "\n%s\n", r.File)
		for _, p := range r.Parts {
			fmt.Fprintf(&b, "  %-20s %.4f\n", p.Name, p.Bits)
		}
		fmt.Fprintf(&b, "  bits %.4f  kt %.4f (%d steps)  brotli %d", r.Bits, r.KtBits, r.MaxSteps, r.BrotliBits)
		if r.PatternZlibBits > 0 {
			fmt.Fprintf(&b, "  pattern zlib %d", r.PatternZlibBits)
		}
		b.WriteByte('\n')
	}
	golden := "testdata/corpus.golden"
	if *update {
		os.WriteFile(golden, []byte(b.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("figures changed (-golden +now); if the code changed on purpose, bump Version and run with -update:\n%s", diff)
	}
}

const fleeBlock = `block flee {
	S (L|R)^Δ -> S
	π [⊙] ω1 -> ∇ Φ
	π (χ ∉ {L, R, :}) -> π
	π (L|R)^Δ ->
	RΦ ->. l
	LΦ ->. r
	->. s
}
`

// objects writes an environment whose n objects all use one shared block.
func objects(n int) string {
	var b strings.Builder
	b.WriteString("actions s l r\nspace lr+:l-r+:l-r+:l-r+:l-r+:l-r\n" + fleeBlock)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "object ω%d {\n\tuse flee\n}\n", i)
	}
	b.WriteString("goodevil {\n\t->. l\n}\n")
	return b.String()
}

// 100 objects that all use the same shared rules cost far less than 100
// times one: less than twice one ([P] §6.2, [T] §3.6.6).
func TestSharedRulesArePaidOnce(t *testing.T) {
	one := report(t, "one.anynt", objects(1)).Bits
	hundred := report(t, "hundred.anynt", objects(100)).Bits
	t.Logf("1 object: %.1f bits; 100 objects: %.1f bits", one, hundred)
	if hundred >= 2*one {
		t.Errorf("100 objects sharing one block cost %.1f bits, not less than twice one object's %.1f", hundred, one)
	}
}

// A regular space written by a short generator is simpler than an
// intricate small one written out: a 100-cell ring against the thesis's
// 8-cell space of Fig. 5.1 as a table ([P] §6, [T] §3.6.6).
func TestRegularSpaceIsSimpler(t *testing.T) {
	ring := `actions l r
space generator paper {
	C -> +r
	B -> CCCCC
	A -> BBBBB
	Ω ->.
	-> AAAAΩ
}
goodevil pattern 1
`
	table := `actions a0 a1 a2 a3
space table {
	1 1 2 4
	2 2 7 5
	3 2 5 5
	4 7 2 3
	5 5 6 3
	6 1 6 7
	7 5 8 1
	8 4 3 1
}
goodevil pattern 1
`
	ringReport, tableReport := report(t, "ring.anynt", ring), report(t, "table.anynt", table)
	space := func(r *complexity.Report) float64 {
		for _, p := range r.Parts {
			if p.Name == "space" {
				return p.Bits
			}
		}
		return 0
	}
	f := parse(t, "ring.anynt", ring)
	e, _ := env.Load(f)
	if e.Space.Cells() != 100 {
		t.Fatalf("the ring has %d cells", e.Space.Cells())
	}
	t.Logf("100-cell ring: space %.1f bits; 8-cell table: space %.1f bits", space(ringReport), space(tableReport))
	if space(ringReport) >= space(tableReport) {
		t.Errorf("the 100-cell ring's space costs %.1f bits, the 8-cell table's %.1f", space(ringReport), space(tableReport))
	}
}

// Renaming work symbols changes nothing.
func TestRenamingWorkSymbols(t *testing.T) {
	src, _ := fs.ReadFile(corpus.Files, "thesis/omega1-blocker.anynt")
	renamed := strings.NewReplacer("Φ_I", "Ψ_A", "Φ_F", "Ψ_B", "E_I", "X_1", "E_D", "X_2", "H", "K", "Φ", "Ξ").Replace(string(src))
	a, b := report(t, "a.anynt", string(src)), report(t, "b.anynt", renamed)
	if a.Bits != b.Bits {
		t.Errorf("renaming work symbols changed %.4f bits to %.4f", a.Bits, b.Bits)
	}
}

// Kt^max grows with the steps an interaction needs, the rest equal: two
// Good/Evil programs of the same length, one done in two steps, the other
// running to its bound.
func TestKtGrowsWithSteps(t *testing.T) {
	env := func(rule string) string {
		return "actions s r\nspace r+:r+\ngoodevil {\n\t" + rule + "\n\t-> x\n}\nset max-steps 500\n"
	}
	quick, busy := report(t, "quick.anynt", env("x ->. s")), report(t, "busy.anynt", env("x -> x"))
	if quick.Bits != busy.Bits {
		t.Fatalf("the two programs differ in length: %.2f and %.2f bits", quick.Bits, busy.Bits)
	}
	t.Logf("quick: %d steps, Kt %.2f; busy: %d steps, Kt %.2f", quick.MaxSteps, quick.KtBits, busy.MaxSteps, busy.KtBits)
	if busy.KtBits <= quick.KtBits || busy.MaxSteps <= quick.MaxSteps {
		t.Errorf("Kt^max does not grow with the work: quick %.2f, busy %.2f", quick.KtBits, busy.KtBits)
	}
}

// The figures are deterministic.
func TestDeterministic(t *testing.T) {
	src, _ := fs.ReadFile(corpus.Files, "thesis/omega1-blocker.anynt")
	a, b := report(t, "x.anynt", string(src)), report(t, "x.anynt", string(src))
	if !cmp.Equal(a, b) {
		t.Errorf("two reports differ:\n%s", cmp.Diff(a, b))
	}
}

// The universal code of naturals is Elias delta of n+1.
func TestNatural(t *testing.T) {
	for n, want := range map[int]float64{0: 1, 1: 4, 2: 4, 3: 5, 6: 5, 7: 8, 14: 8, 15: 9} {
		if got := complexity.Natural(n); got != want {
			t.Errorf("natural(%d) = %v bits, want %v", n, got, want)
		}
	}
}
