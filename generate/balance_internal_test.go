package generate

import "testing"

// The balance rule is two-sided: an interval wholly below 0 rejects as an
// interval wholly above does; one that holds 0, at an end included, does
// not.
func TestExcludesZeroBothWays(t *testing.T) {
	for _, c := range []struct {
		ci   [2]float64
		want bool
	}{
		{[2]float64{-0.2, -0.01}, true},
		{[2]float64{0.01, 0.2}, true},
		{[2]float64{-0.1, 0.1}, false},
		{[2]float64{-0.1, 0}, false},
		{[2]float64{0, 0.1}, false},
		{[2]float64{0, 0}, false},
	} {
		if got := excludesZero(c.ci); got != c.want {
			t.Errorf("excludesZero(%v) = %v, want %v", c.ci, got, c.want)
		}
	}
}

// The interim rule of the sequential test rejects a stream biased by
// twice BalanceMargin either way at its first look.
func TestInterimBalanceRejectsEitherWay(t *testing.T) {
	for _, bias := range []float64{-2 * BalanceMargin, 2 * BalanceMargin} {
		random := &runs{}
		for i := range looks(200)[0] {
			random.scores = append(random.scores, bias+0.01*float64(i%5-2))
		}
		if d := decideBalance(random); d != unbalanced {
			t.Errorf("a stream biased by %+.3f: the first look decides %v, want unbalanced", bias, d)
		}
	}
}
