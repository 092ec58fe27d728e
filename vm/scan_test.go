package vm

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// withScanner builds m's scanner now, as a run that needs it would.
func withScanner(m *Machine) *Machine {
	m.scan.scanner, m.scan.due = newScanner(m.prog, m.plans, scanTableMax), 0
	return m
}

// withoutScanner keeps m from building its scanner: it finds every step
// by searching for the rules one by one.
func withoutScanner(m *Machine) *Machine {
	m.scan.scanner, m.scan.due = nil, 0
	return m
}

// A scanner allocates about its own size: at most twice the table (8
// bytes a transition) and the ranks (a record a literal), and the trie
// it is built from, a table of at most scanTableMax transitions of 4
// bytes (4 MiB). A map a state made the trie of one literal of 100,000
// symbols cost thirty times the table, and ranks appended one by one made
// a file of half a million rules allocate four times their size (313 MB
// of the 901 MB that running a 5 MB file allocated).
func TestScannerAllocatesAboutItsSize(t *testing.T) {
	letters := strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z")
	many := newAsm(t, strings.Join(letters, " "), "")
	for i := range 30_000 {
		x, y := letters[i%len(letters)], letters[i/len(letters)%len(letters)]
		many.plain(x+" "+y, y+" "+x)
	}
	long := newAsm(t, "a", "")
	long.plain(strings.Repeat("a ", 100_000), "")
	for _, tt := range []struct {
		name string
		p    *Program
	}{{"30,000 rules of two symbols", many.build()}, {"one rule of 100,000 symbols", long.build()}} {
		t.Run(tt.name, func(t *testing.T) {
			m := New(tt.p)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			sc := newScanner(tt.p, m.plans, scanTableMax)
			runtime.ReadMemStats(&after)
			if sc == nil || sc.firstUncovered != len(tt.p.Rules) {
				t.Fatalf("the scanner does not cover the rules")
			}
			size := len(sc.step)*8 + len(sc.ranks)*int(unsafe.Sizeof(rankRef{})) + len(sc.rankBase)*4
			if allocated := after.TotalAlloc - before.TotalAlloc; allocated > uint64(2*size+5<<20) {
				t.Errorf("building the scanner allocates %d bytes; it holds %d", allocated, size)
			}
		})
	}
}

// New does not build the scanner: a program of 200 rules of 1,000 symbols
// each, whose scanner is a table of a million transitions (8 MB), makes a
// machine of a few kilobytes, and one run on a short input, which tests
// the 200 rules a step, does not build it. Runs that have searched as
// much as building it costs do, and every run gives what a machine
// without a scanner gives, before and after. New once built the scanner
// of every program it was given (a third of what running a 5 MB rule
// file allocated, for a run of a few steps).
func TestNewDefersTheScanner(t *testing.T) {
	letters := strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z")
	a := newAsm(t, strings.Join(letters, " "), "")
	rng := rand.New(rand.NewPCG(20, 14))
	for range 200 {
		lhs := make([]string, 1000)
		for i := range lhs {
			lhs[i] = letters[rng.IntN(len(letters))]
		}
		a.plain(strings.Join(lhs, " "), "")
	}
	a.plain("a", "b")
	p := a.build()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	m := New(p)
	runtime.ReadMemStats(&after)
	made := after.TotalAlloc - before.TotalAlloc
	runtime.ReadMemStats(&before)
	newScanner(p, m.plans, scanTableMax)
	runtime.ReadMemStats(&after)
	if scanner := after.TotalAlloc - before.TotalAlloc; made > scanner/10 {
		t.Errorf("New allocates %d bytes, its scanner %d: it builds the scanner", made, scanner)
	}
	searching := withoutScanner(New(p))
	input := a.str(strings.Repeat("a ", 50))
	opt := DefaultOptions()
	for run := 1; ; run++ {
		want, wantRes := searching.Run(input, opt)
		got, res := m.Run(input, opt)
		if !bytes.Equal(got, want) || res != wantRes {
			t.Fatalf("run %d: %s %+v, without a scanner %s %+v", run, a.text(got), res, a.text(want), wantRes)
		}
		switch {
		case run == 1 && m.scan.scanner != nil:
			t.Fatalf("a run of %d steps built the scanner", res.Steps)
		case m.scan.scanner != nil:
			return
		case run == 1000:
			t.Fatalf("%d runs of %d steps, each testing %d rules, did not build the scanner", run, res.Steps, len(p.Rules))
		}
	}
}

// A machine builds its scanner only from the searches the scanner would
// have made (Machine.scannable): one that only runs strings longer than
// scanFarLen symbols never builds it, however much it searches, nor does
// one on strings of up to scanFarLen when a scan would not resume near
// their end; one whose rewrites are near the end of such strings, or
// whose scanner would cover every rule and so find the first step of each
// run, does. The program of TestNewDefersTheScanner run on 5,000-symbol
// strings once built its 8 MB scanner in the first run, as every search
// counted.
func TestOnlyServableSearchesBuildTheScanner(t *testing.T) {
	letters := strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z")
	program := func(rules, length int) (*asm, *Program) {
		a := newAsm(t, strings.Join(letters, " "), "")
		rng := rand.New(rand.NewPCG(20, 14))
		for range rules {
			lhs := make([]string, length)
			for i := range lhs {
				lhs[i] = letters[rng.IntN(len(letters))]
			}
			a.plain(strings.Join(lhs, " "), "")
		}
		a.plain("a", "b")
		return a, a.build()
	}
	partA, part := program(200, 1000) // the scanner covers some rules
	wholeA, whole := program(20, 100) // it covers them all
	for _, tt := range []struct {
		name     string
		a        *asm
		p        *Program
		symbols  int
		leftmost bool
		builds   bool
	}{
		{"long, rightmost", partA, part, 5000, false, false},
		{"long, leftmost", partA, part, 5000, true, false},
		{"far from the end", partA, part, 300, true, false},
		{"near the end, but not from the first step", partA, part, 300, false, false},
		{"whole, long", wholeA, whole, 5000, false, false},
		{"whole, near the end", wholeA, whole, 300, false, true},
		{"whole, first steps", wholeA, whole, 300, true, true},
		{"short", partA, part, 50, true, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, searching := New(tt.p), withoutScanner(New(tt.p))
			due := m.scan.due
			input := tt.a.str(strings.Repeat("a ", tt.symbols))
			opt := DefaultOptions()
			opt.Leftmost = tt.leftmost
			work := 0 // what the searches cost in find's units
			for run := 1; run <= 1000; run++ {
				want, wantRes := searching.Run(input, opt)
				got, res := m.Run(input, opt)
				if !bytes.Equal(got, want) || res != wantRes {
					t.Fatalf("run %d: %+v, without a scanner %+v", run, res, wantRes)
				}
				work += res.Steps * (len(tt.p.Rules) + len(input))
				switch {
				case m.scan.scanner != nil && !tt.builds:
					t.Fatalf("run %d of %d steps on %d symbols built the scanner", run, res.Steps, len(input))
				case m.scan.scanner != nil:
					return
				case !tt.builds && work > 4*due:
					return // searched four times what the scanner costs
				}
			}
			t.Fatalf("1,000 runs did not build the scanner")
		})
	}
}

// TestLazyScannerAgrees runs random programs, as checkLong makes them,
// three times in a row on random inputs, short and long, on a machine
// that has its scanner from the start, one that never builds it, and
// New's, which builds it during some run: all three must give the same
// string, result and memory after every run.
func TestLazyScannerAgrees(t *testing.T) { agreeRandomly(t, 23, checkLazyScanner) }

// FuzzLazyScanner is TestLazyScannerAgrees with the fuzzer's bytes for
// the random choices:
//
//	go test ./vm -run '^$' -fuzz FuzzLazyScanner -fuzztime 10m
func FuzzLazyScanner(f *testing.F) { fuzzAgreement(f, 23, checkLazyScanner) }

func checkLazyScanner(t *testing.T, rng *rand.Rand) {
	symbols := []string{"a", "b", "c"}
	a := newAsm(t, strings.Join(symbols, " "), "")
	if rng.IntN(2) == 0 {
		randomSugaredRules(rng, a, symbols)
	}
	randomPlainRules(rng, a, symbols, 1+rng.IntN(12))
	p := a.build()
	built, searching, lazy := withScanner(New(p)), withoutScanner(New(p)), New(p)
	for range 3 {
		input := make([]byte, rng.IntN(80))
		if rng.IntN(4) == 0 {
			input = make([]byte, rng.IntN(1500))
		}
		for i := range input {
			input[i] = byte(rng.IntN(len(symbols)))
		}
		opt := Options{
			Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(3*len(input) + 20), MaxLen: len(input) + rng.IntN(len(input)+9),
			MaxWork: rng.IntN(1_000_000),
		}
		want, wantRes := built.Run(input, opt)
		for _, m := range []*Machine{searching, lazy} {
			out, res := m.Run(input, opt)
			if !bytes.Equal(out, want) || res != wantRes || !bytes.Equal(m.Memory(), built.Memory()) {
				t.Fatalf("%s\non %d symbols %+v (scanner %t): %+v, with the scanner built %+v; strings %s; memories %q, %q",
					p.Disasm(), len(input), opt, m.scan.scanner != nil, res, wantRes, firstDiff(out, want), a.text(m.Memory()), a.text(built.Memory()))
			}
		}
	}
}

// BenchmarkNewScanner builds the scanner of a machine, as a machine does
// once its runs have searched enough: a small one (ten rules of two or three symbols, as the
// generated behaviours are) and one of 30,000 rules of two symbols.
func BenchmarkNewScanner(b *testing.B) {
	letters := strings.Fields("a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G H I J K L M N O P Q R S T U V W X Y Z")
	small := newAsm(b, "a b c d", "")
	for _, r := range [][2]string{{"a b", "b a"}, {"b c", "c"}, {"c a", "a a"}, {"a", ""}, {"d d d", "d"},
		{"b", "c"}, {"c d", "d c"}, {"d a", ""}, {"a a a", "b"}, {"c", "a"}} {
		small.plain(r[0], r[1])
	}
	many := newAsm(b, strings.Join(letters, " "), "")
	for i := range 30_000 {
		x, y := letters[i%len(letters)], letters[i/len(letters)%len(letters)]
		many.plain(x+" "+y, y+" "+x)
	}
	for _, bench := range []struct {
		name string
		p    *Program
	}{{"10-rules", small.build()}, {"30000-rules", many.build()}} {
		m := New(bench.p)
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				newScanner(bench.p, m.plans, scanTableMax)
			}
		})
	}
}
