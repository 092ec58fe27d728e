package fuzz

import (
	"testing"

	gen "github.com/anynt/anynt/generate"
)

// FuzzSequentialFilters checks the sequential filters against the fixed
// budget on environments made from fuzz bytes (objects, Markov programs and
// garbage included) and on enumerated ones, with fuzzed budgets and seeds:
// the same settings give the same verdict; every score is over a look's
// episodes; and a candidate whose agents all played the whole budget gets
// the fixed budget's scores and verdict (unless an early look called it
// balanced, where the fixed rule may not).
func FuzzSequentialFilters(f *testing.F) {
	f.Add([]byte{}, uint16(0), uint8(40), uint8(20), uint64(1))
	f.Add([]byte{2, 4, 1, 3, 0, 1, 2}, uint16(7), uint8(100), uint8(40), uint64(3))
	f.Add([]byte("anynt environment"), uint16(300), uint8(33), uint8(5), uint64(9))
	f.Fuzz(func(t *testing.T, data []byte, index uint16, episodes, steps uint8, seed uint64) {
		src := generatedEnvironment(data)
		if index%2 == 1 { // an enumerated candidate instead
			i := 0
			gen.Enumerate(70, func(c gen.Candidate) bool {
				src = c.Source()
				i++
				return i <= int(index/2)
			})
		}
		s := gen.FilterSettings{Episodes: 2 + int(episodes), Steps: 1 + int(steps%60), Seed: seed, References: []string{"oracle", "follower"}}
		fixed, err := gen.Check("f.anynt", src, s)
		if err != nil {
			t.Fatal(err)
		}
		s.Sequential = true
		seq, err := gen.Check("f.anynt", src, s)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := gen.Check("f.anynt", src, s)
		if seq.String() != again.String() || seq.Random != again.Random || seq.Best != again.Best {
			t.Fatalf("two runs: %+v and %+v", seq, again)
		}
		full := true
		for _, sc := range append([]gen.Score{seq.Random}, seq.References...) {
			if sc.Episodes != s.Episodes && (sc.Episodes < gen.FirstLook || sc.Episodes&(sc.Episodes-1) != 0) {
				t.Fatalf("%s played %d episodes, not a look of %d", sc.Agent, sc.Episodes, s.Episodes)
			}
			full = full && sc.Episodes == s.Episodes
		}
		if !full {
			return
		}
		if seq.Random != fixed.Random {
			t.Fatalf("the whole budget, yet random's scores differ\nsequential %+v\nfixed %+v\n%s", seq, fixed, src)
		}
		// An early look may have called random balanced, and the
		// references then played the whole budget: the fixed rule on the
		// whole budget may still reject that balance, and only that.
		balancedEarly := fixed.Reason == gen.ReasonUnbalanced && seq.Reason != gen.ReasonUnbalanced
		if !balancedEarly && (seq.String() != fixed.String() || seq.Best != fixed.Best || seq.Fitness != fixed.Fitness || seq.MaxSteps != fixed.MaxSteps) {
			t.Fatalf("the whole budget, yet\nsequential %+v\nfixed %+v\n%s", seq, fixed, src)
		}
	})
}
