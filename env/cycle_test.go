package env_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/anynt/anynt/env"
)

// swapIntervals plays n interactions of a five-cell ring in which π, Good
// and Evil all stay, with the cycle clause at bound and no garbage, and
// returns the interactions between one swap of Good and Evil and the next
// (the first counts from the episode's start): Good's cell changes only
// when they swap.
func swapIntervals(t *testing.T, bound, n int, seed uint64) []int {
	e := loadRing(t, 5, fmt.Sprintf("goodevil pattern s\nset garbage off\nset cycle-bound %d\nplace π 1\nplace ⊕ 2\nplace ⊖ 4\n", bound))
	var intervals []int
	last, good := 0, 2
	env.NewEpisode(e, agentStay(), seed).Run(n, func(s env.Step) {
		if s.Positions[env.Good] != good {
			good = s.Positions[env.Good]
			intervals = append(intervals, s.Interaction-last)
			last = s.Interaction
		}
	})
	return intervals
}

// TestSwapIntervalsAreUniformFromOneToTheBound: the cycle clause swaps
// Good and Evil after n ~ U[1, cycle-bound] interactions, again and again
// ([P] §4.2). Over 20,000 interactions the shortest interval is 1, the
// longest the bound, every length between occurs, and the mean is
// (bound + 1)/2 within six standard errors.
func TestSwapIntervalsAreUniformFromOneToTheBound(t *testing.T) {
	for _, bound := range []int{1, 2, 4, 7} {
		intervals := swapIntervals(t, bound, 20_000, 3)
		seen := map[int]bool{}
		lo, hi, sum := math.MaxInt, 0, 0
		for _, n := range intervals {
			lo, hi, sum = min(lo, n), max(hi, n), sum+n
			seen[n] = true
		}
		mean := float64(sum) / float64(len(intervals))
		want := float64(bound+1) / 2
		se := math.Sqrt(float64(bound*bound-1)/12) / math.Sqrt(float64(len(intervals)))
		if lo != 1 || hi != bound || len(seen) != bound || math.Abs(mean-want) > 6*se {
			t.Errorf("cycle-bound %d: %d swaps, intervals from %d to %d (%d lengths), mean %.3f; want 1 to %d, each, mean %.2f ± %.3f",
				bound, len(intervals), lo, hi, len(seen), mean, bound, want, 6*se)
		}
	}
}
