package exam

import (
	"errors"
)

// A test's work is its pairs of an item and an examinee, numbered item by
// item (pair k is item k / A, examinee k mod A, for A examinees), and a
// shard of it is a run of consecutive pairs: every episode of a pair stays
// in one shard, since an outcome is a mean over its episodes. An outcome
// depends only on its item, its examinee and the settings (every episode's
// seed is the item's), so a pair's outcome is the same in any shard, and the
// shards' outcomes together are the unsharded test's. The scale of an item
// (Bounds) is computed by the shard that holds its first pair.

// TakeRange gives the pairs from, …, to−1 of the test of items and
// examinees and returns their outcomes in the order of the pairs, each
// Outcome.Item the item's index in items. Each examinee takes its items
// in the range through Take, an agent outside anynt alone on the machine
// as in Take. When an agent outside anynt faults, or Settings.Stop stops
// the test, the error is an *AgentError and the outcomes given are those
// of the pairs taken; its Items is then not meaningful across examinees.
func TakeRange(items []Item, examinees []Examinee, s Settings, from, to int, progress func(done, total int)) ([]Outcome, error) {
	A := len(examinees)
	if A == 0 || len(items) == 0 {
		return nil, ErrNoItems
	}
	byPair := make([]*Outcome, to-from)
	done, total := 0, to-from
	var faults []error
	var stopped error
	for a, x := range examinees {
		// The items whose pair with examinee a is in the range.
		lo := (from - a + A - 1) / A
		hi := (to - a + A - 1) / A
		if lo >= hi {
			continue
		}
		outs, err := Take(items[lo:hi], []Examinee{x}, s, func(int, int) {
			done++
			if progress != nil {
				progress(done, total)
			}
		})
		var ae *AgentError
		switch {
		case errors.As(err, &ae):
			faults = append(faults, ae.Faults...)
			stopped = ae
		case err != nil:
			return nil, err
		}
		for j := range outs {
			o := outs[j]
			o.Item += lo
			byPair[o.Item*A+a-from] = &o
		}
	}
	out := make([]Outcome, 0, len(byPair))
	for _, o := range byPair {
		if o != nil {
			out = append(out, *o)
		}
	}
	if stopped != nil {
		return out, &AgentError{Faults: faults, Items: -1}
	}
	return out, nil
}

// FirstPairs are the items whose first pair (with the first examinee) is
// among the pairs from, …, to−1 of a test of examinees examinees: the
// items whose scale that shard computes.
func FirstPairs(examinees, from, to int) (lo, hi int) {
	return (from + examinees - 1) / examinees, (to + examinees - 1) / examinees
}
