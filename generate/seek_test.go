package generate

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestBlockCountsAreTheWalkedOnes counts every block up to 68 bits of the
// spaces within 65 with
// the automaton and checks the count against the patterns the walk keeps,
// and each kept pattern's offset against unranking: the seek is exact
// wherever the walk can check it.
func TestBlockCountsAreTheWalkedOnes(t *testing.T) {
	l, err := listBlocks(65)
	if err != nil {
		t.Fatal(err)
	}
	checked, symmetric, classed := 0, 0, 0
	for na, spaces := range l.spacesByNA {
		for si, space := range spaces {
			bc := newBlockCounter(space, na)
			if len(bc.moves) > 0 {
				symmetric++
			}
			if len(bc.digits) < na {
				classed++
			}
			for L := 1; blockBits(na, space, L) <= 65+3; L++ {
				digits := make([]int, L)
				var kept [][]int
				for {
					if primitive(digits) && canonicalOn(digits, space) {
						kept = append(kept, slices.Clone(digits))
					}
					if !next(digits, na) {
						break
					}
				}
				if n := bc.count(L, nil); n != len(kept) {
					t.Fatalf("%d actions, space %d, length %d: counted %d, walked %d", na, si, L, n, len(kept))
				}
				for k, p := range kept {
					if got := bc.unrank(L, k); !slices.Equal(got, p) {
						t.Fatalf("%d actions, space %d, length %d: unrank(%d) = %v, walked %v", na, si, L, k, got, p)
					}
				}
				checked++
			}
		}
	}
	// The automaton's two kinds of skip must both have been tried.
	if symmetric == 0 || classed == 0 {
		t.Fatalf("%d spaces with symmetries, %d with actions of the same arrows: the test sees too few", symmetric, classed)
	}
	t.Logf("%d blocks checked; %d spaces with symmetries, %d with actions of the same arrows", checked, symmetric, classed)
}

// TestRangesJoinToTheStream cuts the stream up to 62 bits into ranges of
// several sizes, each started by seeking, and checks that they join to
// the whole stream, candidate for candidate. A seek skips whole blocks by
// their counts, then unranks its offset in its block, which
// TestBlockCountsAreTheWalkedOnes checks at every offset: ranges of one
// candidate are started where the skip of blocks can go wrong, at each
// block's first and last candidate, and at a sample of the offsets inside,
// not at all 18,000 (4 s of seeks, a minute or more on a loaded machine).
func TestRangesJoinToTheStream(t *testing.T) {
	var whole []Candidate
	if err := Enumerate(62, func(c Candidate) bool { whole = append(whole, c); return true }); err != nil {
		t.Fatal(err)
	}
	total, perBit, err := Count(62)
	if err != nil {
		t.Fatal(err)
	}
	if total != len(whole) {
		t.Fatalf("Count says %d candidates; the stream has %d", total, len(whole))
	}
	sum := 0
	for b, n := range perBit {
		sum += n
		want := 0
		for _, c := range whole {
			if int(math.Ceil(c.Bits)) == b {
				want++
			}
		}
		if n != want {
			t.Errorf("%d candidates of %d bits counted; the stream has %d", n, b, want)
		}
	}
	if sum != total {
		t.Errorf("the counts by bits add up to %d, not %d", sum, total)
	}
	for _, size := range []int{7, 100, 1000, total} {
		var joined []Candidate
		for from := 0; from < total; from += size {
			if err := EnumerateRange(62, from, from+size, func(c Candidate) bool { joined = append(joined, c); return true }); err != nil {
				t.Fatal(err)
			}
		}
		if len(joined) != len(whole) {
			t.Fatalf("ranges of %d: %d candidates, the stream %d", size, len(joined), len(whole))
		}
		for i := range whole {
			checkSameCandidate(t, fmt.Sprintf("ranges of %d", size), whole[i], joined[i])
		}
	}
	ends := 0
	for i := range whole {
		end := i == 0 || i+1 == total || !sameBlock(whole[i-1], whole[i]) || !sameBlock(whole[i], whole[i+1])
		if end {
			ends++
		} else if i%97 != 0 { // and a sample of the offsets inside blocks
			continue
		}
		if err := EnumerateRange(62, i, i+1, func(c Candidate) bool { checkSameCandidate(t, "a range of 1", whole[i], c); return true }); err != nil {
			t.Fatal(err)
		}
	}
	if ends < 50 {
		t.Fatalf("only %d ends of blocks: the ranges of 1 see too few", ends)
	}
}

// sameBlock reports whether two candidates are of one block: one space
// and one pattern length.
func sameBlock(a, b Candidate) bool {
	return a.Actions == b.Actions && len(a.Pattern) == len(b.Pattern) && slices.EqualFunc(a.Space.Dest, b.Space.Dest, slices.Equal[[]int])
}

func checkSameCandidate(t *testing.T, what string, want, got Candidate) {
	t.Helper()
	if want.Index != got.Index || want.Bits != got.Bits || !sameBlock(want, got) || !slices.Equal(want.Pattern, got.Pattern) {
		t.Fatalf("%s: candidate %d is %+v, the stream's %+v", what, want.Index, got, want)
	}
}

// TestSeekFarIntoTheStream checks, up to 70 bits (2.1 million candidates),
// that Count is the walk's count and that seeking to candidates spread
// over the stream finds the walk's.
func TestSeekFarIntoTheStream(t *testing.T) {
	at := map[int]Candidate{}
	var picks []int
	total, _, err := Count(70)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < total; i = i*3 + 1 {
		picks = append(picks, i)
	}
	picks = append(picks, total-1)
	walked := 0
	err = Enumerate(70, func(c Candidate) bool {
		walked++
		if slices.Contains(picks, c.Index) {
			at[c.Index] = c
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if walked != total {
		t.Fatalf("Count(70) = %d; the walk makes %d", total, walked)
	}
	for _, i := range picks {
		var got []Candidate
		if err := EnumerateRange(70, i, i+1, func(c Candidate) bool { got = append(got, c); return true }); err != nil {
			t.Fatal(err)
		}
		w := at[i]
		if len(got) != 1 || got[0].Index != i || got[0].Bits != w.Bits || !slices.Equal(got[0].Pattern, w.Pattern) ||
			!slices.EqualFunc(got[0].Space.Dest, w.Space.Dest, slices.Equal[[]int]) {
			t.Errorf("seeking candidate %d gave %+v; the walk's is %+v", i, got, w)
		}
	}
}

// TestShardRangeOfHugeTotals cuts totals whose product with the shard
// number overflows 64 bits: the shards still cover the stream in order.
func TestShardRangeOfHugeTotals(t *testing.T) {
	for _, total := range []int{1_177_500_000_000_000, 73_000_000_000_000_000, math.MaxInt64} {
		for _, n := range []int{1, 1000, 10000, 1 << 20} {
			prev, last := 0, 0
			for _, k := range []int{1, 2, n / 2, n - 1, n} {
				if k <= last || k > n {
					continue
				}
				last = k
				from, to := ShardRange(total, k, n)
				if from < 0 || to < from || to > total || (k == 1 && from != 0) || (k == n && to != total) {
					t.Fatalf("total %d, shard %d/%d: [%d, %d)", total, k, n, from, to)
				}
				if from < prev {
					t.Fatalf("total %d, shard %d/%d starts at %d, before the shard before ended (%d)", total, k, n, from, prev)
				}
				prev = to
			}
		}
	}
}
