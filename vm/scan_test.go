package vm

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// A scanner allocates about its own size: at most twice the table (8
// bytes a transition) and the ranks (a record a literal), and the trie
// it is built from, a table of at most scanTableMax transitions of 4
// bytes (4 MiB). A map a state made the trie of one literal of 100,000
// symbols cost thirty times the table, and ranks appended one by one made
// a file of half a million rules allocate four times their size (issue
// 20: 313 MB of the 901 MB that running a 5 MB file allocated).
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

// BenchmarkNewScanner builds the scanner of a machine, as vm.New does for
// every program: a small one (ten rules of two or three symbols, as the
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
