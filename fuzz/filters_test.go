package fuzz

import (
	"reflect"
	"testing"

	"github.com/anynt/anynt/env"
	gen "github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
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

// leanSettings are settings lines a fuzzed candidate may add: each changes
// what the lean episodes must reproduce (rewards, the cycle, the garbage
// phase, declared cells).
var leanSettings = []string{"set rewards lambda-one", "set cycle off", "set garbage off", "reward 1/8", "set cycle-bound 3",
	"place π 2", "place ⊖ 1", "set cycle-bound 40"}

// FuzzLeanFilters checks the lean episodes (env.LeanPlayer) against
// env's machine: on environments made from fuzz bytes and on enumerated
// candidates with fuzzed settings lines, with fuzzed budgets, seeds and
// either test, Check and CheckPlain give the same verdict, every score
// bit for bit.
func FuzzLeanFilters(f *testing.F) {
	f.Add([]byte{}, uint16(0), uint8(0), uint8(40), uint8(20), uint64(1), true)
	f.Add([]byte{0, 0, 0, 1, 2, 3, 4, 0, 0, 0}, uint16(7), uint8(5), uint8(100), uint8(99), uint64(3), false)
	f.Add([]byte("anynt environment"), uint16(301), uint8(0x81), uint8(33), uint8(5), uint64(9), true)
	f.Fuzz(func(t *testing.T, data []byte, index uint16, settings, episodes, steps uint8, seed uint64, sequential bool) {
		src := generatedEnvironment(data)
		if index%2 == 1 {
			i := 0
			gen.Enumerate(75, func(c gen.Candidate) bool {
				src = c.Source()
				i++
				return i <= int(index/2)
			})
			for k, s := range leanSettings {
				if settings&(1<<k) != 0 {
					src += s + "\n"
				}
			}
		}
		// Elsewhere (objects, a Good/Evil program) Check and CheckPlain
		// run the same code: skip them, they only cost time.
		if file, err := lang.Parse("f.anynt", []byte(src)); err == nil {
			if e, err := env.Load(file); err == nil && (len(e.Objects) > 0 || e.GoodEvil.Program != nil) {
				return
			}
		}
		s := gen.FilterSettings{Episodes: 2 + int(episodes%100), Steps: 1 + int(steps), Seed: seed,
			References: []string{"oracle", "follower"}, Sequential: sequential}
		lean, err := gen.Check("f.anynt", src, s)
		if err != nil {
			t.Fatal(err)
		}
		plain, err := gen.CheckPlain("f.anynt", src, s)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(lean, plain) {
			t.Fatalf("lean %+v\nplain %+v\n%s", lean, plain, src)
		}
	})
}

// FuzzStreamVerdicts checks the enumeration's filters, which check most
// candidates from the first of their space (generate's candidates.go),
// against Check on each candidate's text: with a fuzzed bound, limit,
// shard, budget and seed, Stream emits exactly the candidates that
// CheckPlain accepts, with its verdicts, and tallies the same rejections.
func FuzzStreamVerdicts(f *testing.F) {
	f.Add(uint8(0), uint8(10), uint8(0), uint8(20), uint8(30), uint64(1), true)
	f.Add(uint8(200), uint8(40), uint8(3), uint8(200), uint8(99), uint64(5), false)
	f.Fuzz(func(t *testing.T, extra, limit, shard, episodes, steps uint8, seed uint64, sequential bool) {
		filters := gen.FilterSettings{Episodes: 2 + int(episodes%64), Steps: 1 + int(steps%100), Seed: seed,
			References: []string{"oracle", "follower"}, Sequential: sequential}
		if extra&1 == 1 {
			filters.References = []string{"follower"}
		}
		s := gen.StreamSettings{MaxBits: 45 + float64(extra%32)/2, Limit: 1 + int(limit%20), Shard: 1 + int(shard%3), Shards: 3, Filters: filters}
		var got []gen.Emitted
		tally, err := gen.Stream(s, func(e gen.Emitted) { got = append(got, e) }, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := gen.Tally{Rejected: map[string]int{}}
		var emitted []gen.Emitted
		total, _, err := gen.Count(s.MaxBits)
		if err != nil {
			t.Fatal(err)
		}
		from, to := gen.ShardRange(total, s.Shard, s.Shards)
		gen.Enumerate(s.MaxBits, func(c gen.Candidate) bool {
			if len(emitted) >= s.Limit {
				return false
			}
			if c.Index < from || c.Index >= to {
				return true
			}
			v, err := gen.CheckPlain("c.anynt", c.Source(), filters)
			if err != nil {
				t.Fatal(err)
			}
			want.Examined++
			if v.Accepted {
				want.Accepted++
				emitted = append(emitted, gen.Emitted{Index: c.Index, Bits: c.Bits, Source: c.Source(), Verdict: v})
			} else {
				want.Rejected[v.Reason]++
			}
			return true
		})
		if !reflect.DeepEqual(tally, want) {
			t.Fatalf("%+v: tally %+v, want %+v", s, tally, want)
		}
		if len(got) != len(emitted) {
			t.Fatalf("%+v: %d emitted, want %d", s, len(got), len(emitted))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], emitted[i]) {
				t.Fatalf("%+v: emitted %+v\nwant %+v", s, got[i], emitted[i])
			}
		}
	})
}
