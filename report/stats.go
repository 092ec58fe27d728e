package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/stats"
	"gonum.org/v1/gonum/stat"
)

// Correlation is Pearson's r of score against complexity with its
// p-values. A figure that cannot be computed (fewer than three items, or
// scores or complexities that do not vary) is NaN.
type Correlation struct {
	N int
	R float64
	// P is the two-tailed p-value of r ≠ 0; POne the one-tailed p-value of r
	// < 0, the papers' hypothesis that more complex items score lower (Table
	// 2 of Insa-Cabrera et al. 2011 prints it).
	P, POne float64
}

// describe gives the mean, the sample standard deviation and the 95%
// interval of the mean (Student's t); with fewer than two values the
// deviation is NaN and the interval is the mean.
func describe(xs []float64) (mean, sd float64, ci [2]float64) {
	mean, ci = stats.MeanCI(xs)
	sd = math.NaN()
	if len(xs) >= 2 {
		sd = stat.StdDev(xs, nil)
	}
	return mean, sd, ci
}

// correlate computes Pearson's r and its p-values from Student's t with
// n − 2 degrees of freedom.
func correlate(score, complexity []float64) Correlation {
	c := Correlation{N: len(score), R: math.NaN(), P: math.NaN(), POne: math.NaN()}
	if c.N < 3 || constant(score) || constant(complexity) {
		return c
	}
	c.R = stat.Correlation(complexity, score, nil)
	c.P, c.POne = stats.CorrelationP(c.R, c.N)
	return c
}

func constant(xs []float64) bool {
	return !slices.ContainsFunc(xs, func(x float64) bool { return x != xs[0] })
}

// Paired is an agent's difference from the first agent over the same
// items and episode seeds: the mean of the item by item differences, its
// 95% interval and the paired t test's two-tailed p-value.
type Paired struct {
	Against string
	N       int
	Mean    float64
	CI95    [2]float64
	P       float64 // NaN with fewer than two items
}

func pair(against string, base, scores []float64) *Paired {
	d := make([]float64, len(scores))
	for i := range d {
		d[i] = scores[i] - base[i]
	}
	p := &Paired{Against: against, N: len(d), P: math.NaN()}
	var sd float64
	p.Mean, sd, p.CI95 = describe(d)
	switch {
	case len(d) < 2:
	case sd == 0 && p.Mean == 0: // the same scores: no difference at all
		p.P = 1
	case sd == 0: // the same nonzero difference on every item
		p.P = 0
	default:
		t := p.Mean / (sd / math.Sqrt(float64(len(d))))
		p.P = stats.TwoTailedP(t, len(d)-1)
	}
	return p
}

// maxBins bounds the complexity bins; minPerBin is the fewest items a bin
// should hold for its mean and r to say something.
const (
	maxBins   = 5
	minPerBin = 10
)

// strata groups the items: by number of cells, or in bins of whole units
// of complexity (floor) cut at the quantiles, so that the bins hold about
// equal numbers of items and items of the same whole complexity share a
// bin.
func strata(items []exam.Item, by Strata) []Stratum {
	if by == ByCells {
		var cells []int
		for _, it := range items {
			cells = append(cells, it.Cells)
		}
		slices.Sort(cells)
		cells = slices.Compact(cells)
		out := make([]Stratum, len(cells))
		for k, c := range cells {
			out[k].Label = fmt.Sprint(c)
		}
		for i, it := range items {
			k, _ := slices.BinarySearch(cells, it.Cells)
			out[k].Items = append(out[k].Items, i)
		}
		return out
	}
	whole := func(i int) int { return int(math.Floor(items[i].Complexity)) }
	sorted := make([]int, len(items))
	for i := range items {
		sorted[i] = whole(i)
	}
	slices.Sort(sorted)
	bins := min(maxBins, max(1, len(items)/minPerBin))
	var edges []int // a bin starts at each edge; the first at −∞
	for q := 1; q < bins; q++ {
		e := sorted[q*len(sorted)/bins]
		if e > sorted[0] && (len(edges) == 0 || e > edges[len(edges)-1]) {
			edges = append(edges, e)
		}
	}
	out := make([]Stratum, len(edges)+1)
	lo, hi := make([]int, len(out)), make([]int, len(out))
	for i := range items {
		v := whole(i)
		k, found := slices.BinarySearch(edges, v)
		if found {
			k++
		}
		if len(out[k].Items) == 0 || v < lo[k] {
			lo[k] = v
		}
		if len(out[k].Items) == 0 || v > hi[k] {
			hi[k] = v
		}
		out[k].Items = append(out[k].Items, i)
	}
	for k := range out {
		out[k].Label = fmt.Sprintf("%d–%d", lo[k], hi[k])
		if lo[k] == hi[k] {
			out[k].Label = fmt.Sprint(lo[k])
		}
	}
	return out
}
