package report

import (
	"cmp"
	"math"
	"slices"
)

// Normalised are an agent's figures on the scale of each item (exam.Bound):
// its score as a fraction of the way from random's expectation (0) to the
// optimum (1), over the items that have a scale (Report.Scaled).
type Normalised struct {
	N    int
	Mean float64
	SD   float64
	CI95 [2]float64
}

// Rank is an agent's place in the ranking: by mean normalised score when
// some item has a scale, by mean score otherwise, the higher first (ties
// in the order of Agents), with its paired difference from the agent
// ranked next below it (nil for the last).
type Rank struct {
	Agent int // index into Agents and Summaries
	// Next compares the agent with the one ranked below it, item by item
	// on the same items and seeds: the mean difference of their
	// normalised scores (or scores), its interval and the paired t test's
	// p, which says whether the order of the two is significant.
	Next *Paired
}

// hasScale reports whether the report's items carry their scales.
func (in Input) hasScale() bool { return len(in.Bounds) > 0 }

// Scaled are the indices of the items whose scale normalises: a bound was
// computed and its optimum is above random's expectation.
func (r *Report) Scaled() []int { return r.scaled }

// scaledItems finds the items Scaled gives, once, in New.
func (in Input) scaledItems() []int {
	var idx []int
	for i, b := range in.Bounds {
		if !math.IsNaN(b.Normalised(0)) {
			idx = append(idx, i)
		}
	}
	return idx
}

// normalisedScores are agent a's normalised item scores, NaN where the
// item has no scale.
func (in Input) normalisedScores(a int) []float64 {
	out := make([]float64, len(in.Items))
	for i := range out {
		out[i] = in.Bounds[i].Normalised(in.Outcomes[a*len(in.Items)+i].Score)
	}
	return out
}

// normalise describes agent a's normalised scores over the items idx;
// with none, its figures are NaN (they cannot be computed).
func (in Input) normalise(a int, idx []int) *Normalised {
	xs := pick(in.normalisedScores(a), idx)
	n := &Normalised{N: len(xs)}
	if len(xs) == 0 {
		n.Mean, n.SD, n.CI95 = math.NaN(), math.NaN(), [2]float64{math.NaN(), math.NaN()}
		return n
	}
	n.Mean, n.SD, n.CI95 = describe(xs)
	return n
}

// byNormalised says whether the ranking is by normalised score: the report
// has bounds and some item has a scale.
func (r *Report) byNormalised() bool { return r.hasScale() && len(r.Scaled()) > 0 }

// rank orders the agents and pairs each with the next.
func (r *Report) rank() []Rank {
	idx := r.Scaled()
	key := func(a int) []float64 { return r.scores(a) }
	mean := func(a int) float64 { return r.Summaries[a].Mean }
	if r.byNormalised() {
		key = func(a int) []float64 { return pick(r.normalisedScores(a), idx) }
		mean = func(a int) float64 { return r.Summaries[a].Normalised.Mean }
	}
	order := make([]int, len(r.Agents))
	for a := range order {
		order[a] = a
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(mean(b), mean(a)) })
	ranks := make([]Rank, len(order))
	for k, a := range order {
		ranks[k].Agent = a
		if k+1 < len(order) {
			below := order[k+1]
			ranks[k].Next = pair(r.Agents[below].Name, key(below), key(a))
		}
	}
	return ranks
}
