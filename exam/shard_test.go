package exam_test

import (
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// The shards of a test, runs of its item–examinee pairs cut anywhere
// (inside an item's pairs too), give together the unsharded test's
// outcomes, bit for bit: every pair the same outcome.
func TestShardsTakeTheTest(t *testing.T) {
	items, err := exam.LambdaOneItems(3, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	xs, err := exam.Examinees([]string{"random", "qlearning", "follower"}, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	s := exam.DefaultSettings
	s.Episodes = 3
	whole, err := exam.Take(items, xs, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	A, pairs := len(xs), len(items)*len(xs)
	for _, n := range []int{1, 2, 5, pairs, pairs + 3} {
		var joined []exam.Outcome
		firsts := 0
		for k := 1; k <= n; k++ {
			from, to := (k-1)*pairs/n, k*pairs/n
			part, err := exam.TakeRange(items, xs, s, from, to, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(part) != to-from {
				t.Fatalf("%d shards: shard %d of pairs [%d, %d) gave %d outcomes", n, k, from, to, len(part))
			}
			joined = append(joined, part...)
			lo, hi := exam.FirstPairs(A, from, to)
			firsts += hi - lo
		}
		if firsts != len(items) {
			t.Errorf("%d shards: %d items' scales computed, not %d", n, firsts, len(items))
		}
		for k, o := range joined {
			w := whole[(k%A)*len(items)+k/A] // Take's order: examinee by examinee
			if !cmp.Equal(o, w, cmpopts.EquateNaNs()) {
				t.Fatalf("%d shards: pair %d differs from the whole test's:\n%s", n, k, cmp.Diff(w, o, cmpopts.EquateNaNs()))
			}
		}
	}
}
