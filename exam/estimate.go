package exam

import (
	"math"
	"math/bits"
	"slices"

	"github.com/anynt/anynt/random"
)

// smoothing is the weight, in environments, with which a level's moves are
// drawn toward its neighbours' in the staircase's model (docs/tests.md,
// "How sure the score is").
const smoothing = 4

// estimate is the running score and its standard error. The score is the
// mean of the environments' weighted payoffs x = level/levels × payoff,
// kept by Welford's update. Its standard error comes from a model of the
// staircase fitted to the environments so far: at each level, how often
// the payoff moved the level down, kept it or moved it up, and the
// payoffs' first two moments in each case. The level links consecutive
// environments, and an examinee whose chance of going up is about its
// chance of going down wanders between levels for dozens of
// environments, so s/√n, which treats the x as independent, is too small
// (by 1.7 times for the follower over 500 seeds); the model's variance
// of the sum of n weighted payoffs from level 1 is exact for the model,
// walk and all.
type estimate struct {
	n    int
	mean float64
	// at[level-1][move+1] sums the payoffs after which the staircase made
	// that move; all sums them over the levels.
	at   [][3]moments
	all  [3]moments
	work work
}

// moments are a count, a sum and a sum of squares of payoffs.
type moments struct{ n, s1, s2 float64 }

func (m *moments) add(x float64) { m.n, m.s1, m.s2 = m.n+1, m.s1+x, m.s2+x*x }

func newEstimate(levels int) estimate { return estimate{at: make([][3]moments, levels)} }

// add counts an environment of level whose payoff score made the
// staircase move (−1, 0 or +1).
func (e *estimate) add(level int, score float64, move int) {
	x := float64(level) / float64(len(e.at)) * score
	e.n++
	e.mean += (x - e.mean) / float64(e.n)
	e.at[level-1][move+1].add(score)
	e.all[move+1].add(score)
}

// value is the mean and its standard error, 0 below two environments,
// where the spread is unknown.
func (e *estimate) value() (mean, se float64) {
	if e.n < 2 {
		return e.mean, 0
	}
	return e.mean, math.Sqrt(e.variance()) / float64(e.n)
}

// variance is the variance of the sum of n weighted payoffs under the
// model, the walk starting at level 1 as the test does. Level ℓ moves by
// m with probability p(ℓ, m), after a payoff whose mean is the one seen at
// ℓ before that move and whose spread is the one seen at all levels
// before it, weighted by ℓ/levels (model). A level seen has its own
// frequencies of moves, drawn toward those of its seen neighbours with the
// weight of smoothing environments, since a few visits say little (and
// the highest level seen was, by its nature, always left downwards). A
// level not seen moves halfway between all levels together and the
// nearest level seen: the first alone lets a learner, which climbs less
// easily higher up, climb too easily; the second alone keeps an examinee
// that wanders from levels it merely did not happen to reach. The sum's
// first two moments over n steps from each level follow from those over
// n − 1 steps by an affine map (A, B) ↦ M(A, B). A short test applies it
// n times, about 3·L operations each; a long one raises M to the power n
// by squaring, log n products of (2L+1)-square matrices, so that the cost
// stays small whatever the test's length. The mean of the sum is left in
// the work's sum.
func (e *estimate) variance() float64 {
	levels := len(e.at)
	d := 2*levels + 1 // 1, A_1…A_L, B_1…B_L
	w := &e.work
	w.size(d)
	for l := range levels {
		weight := float64(l+1) / float64(levels)
		p, mean, variance := e.model(l)
		w.p[l] = p
		for k := range 3 {
			w.m1[l][k] = weight * mean[k]
			w.m2[l][k] = weight * weight * (variance[k] + mean[k]*mean[k])
		}
	}
	var a, b float64
	if 3*levels*e.n < d*d*d*bits.Len(uint(e.n)) {
		a, b = w.iterate(e.n)
	} else {
		a, b = w.power(e.n)
	}
	w.sum = a
	return max(b-a*a, 0)
}

// model is level l's (from 0) chances of each move, and the mean and
// variance of the payoffs after each: the mean of those seen at l, or at
// all levels if none was, and the variance of those seen at all levels
// (one payoff at a level says nothing of their spread).
func (e *estimate) model(l int) (p, mean, variance [3]float64) {
	own := e.at[l]
	var target [3]float64
	for k, all := range e.all {
		target[k] = all.n
		if all.n == 0 {
			continue
		}
		m := all.s1 / all.n
		variance[k] = max(all.s2/all.n-m*m, 0)
		mean[k] = m
		if own[k].n > 0 {
			mean[k] = own[k].s1 / own[k].n
		}
	}
	seen := own[0].n + own[1].n + own[2].n
	if seen == 0 {
		// halfway between the levels together and the nearest level seen
		q, _, _ := e.model(e.nearestSeen(l))
		total := target[0] + target[1] + target[2]
		for k := range 3 {
			p[k] = (target[k]/total + q[k]) / 2
		}
		return p, mean, variance
	}
	if near := e.neighbours(l); near[0]+near[1]+near[2] > 0 {
		target = near
	} else {
		target = [3]float64{own[0].n, own[1].n, own[2].n}
	}
	total := target[0] + target[1] + target[2]
	for k := range 3 {
		p[k] = (own[k].n + smoothing*target[k]/total) / (seen + smoothing)
	}
	return p, mean, variance
}

// nearestSeen is the level seen nearest to l, the lower of two as near;
// level 1 (0 here) is always seen, since the test starts there.
func (e *estimate) nearestSeen(l int) int {
	for d := 1; ; d++ {
		for _, j := range []int{l - d, l + d} {
			if j >= 0 && j < len(e.at) && e.at[j][0].n+e.at[j][1].n+e.at[j][2].n > 0 {
				return j
			}
		}
	}
}

// neighbours counts the moves made at the levels next to l.
func (e *estimate) neighbours(l int) (c [3]float64) {
	for _, j := range []int{l - 1, l + 1} {
		if j >= 0 && j < len(e.at) {
			for k := range 3 {
				c[k] += e.at[j][k].n
			}
		}
	}
	return c
}

// work holds the vectors and matrices of variance, kept from one
// environment to the next so that the standard error allocates nothing
// once the test is under way: each level's chances of its moves p and
// the first two moments m1, m2 of the weighted payoff before each.
type work struct {
	d                int
	p, m1, m2        [][3]float64
	terms            []term
	m, sq, tmp, v, w []float64
	// sum is the model's mean of the sum, from the last variance.
	sum float64
}

// size makes room for d = 2·levels + 1.
func (w *work) size(d int) {
	if w.d != d {
		levels := (d - 1) / 2
		*w = work{d: d, p: make([][3]float64, levels), m1: make([][3]float64, levels), m2: make([][3]float64, levels), terms: make([]term, levels),
			m: make([]float64, d*d), sq: make([]float64, d*d), tmp: make([]float64, d*d), v: make([]float64, d), w: make([]float64, d)}
	}
}

// iterate applies the affine map n times to (A, B) = 0 and returns the
// mean and second moment of the sum from level 1: A(ℓ) ← Σ_m p(ℓ, m)
// (m1 + A(ℓ+m)), B(ℓ) ← Σ_m p(ℓ, m) (m2 + 2·m1·A(ℓ+m) + B(ℓ+m)). The
// constant terms and the targets ℓ+m are worked out before the loop,
// which is the bootstrap's inner loop (interval).
func (w *work) iterate(n int) (a, b float64) {
	levels := len(w.p)
	A, B := w.v[:levels], w.v[levels:2*levels]
	nextA, nextB := w.w[:levels], w.w[levels:2*levels]
	clear(A)
	clear(B)
	for l := range levels {
		t := term{}
		for k, p := range w.p[l] {
			t.c1 += p * w.m1[l][k]
			t.c2 += p * w.m2[l][k]
			t.p[k], t.twoPM[k] = p, 2*p*w.m1[l][k]
			t.to[k] = min(max(l+k-1, 0), levels-1)
		}
		w.terms[l] = t
	}
	for range n {
		for l, t := range w.terms {
			a0, a1, a2 := A[t.to[0]], A[t.to[1]], A[t.to[2]]
			nextA[l] = t.c1 + t.p[0]*a0 + t.p[1]*a1 + t.p[2]*a2
			nextB[l] = t.c2 + t.twoPM[0]*a0 + t.twoPM[1]*a1 + t.twoPM[2]*a2 + t.p[0]*B[t.to[0]] + t.p[1]*B[t.to[1]] + t.p[2]*B[t.to[2]]
		}
		A, B, nextA, nextB = nextA, nextB, A, B
	}
	return A[0], B[0]
}

// term is a level's row of the affine map, for iterate.
type term struct {
	c1, c2   float64    // Σ p·m1, Σ p·m2
	p, twoPM [3]float64 // p, 2·p·m1
	to       [3]int     // the levels after each move
}

// power returns the same as iterate, from the first column of Mⁿ: Mⁿ
// applied to (1, 0, …, 0), by squaring.
func (w *work) power(n int) (a, b float64) {
	levels, d := len(w.p), w.d
	clear(w.m)
	m := func(i, j int, x float64) { w.m[i*d+j] += x }
	m(0, 0, 1)
	for l := range levels {
		for k, p := range w.p[l] {
			if p == 0 {
				continue
			}
			to := min(max(l+k-1, 0), levels-1)
			m1, m2 := w.m1[l][k], w.m2[l][k]
			ra, rb := 1+l, 1+levels+l // the rows of A(l) and B(l)
			m(ra, 0, p*m1)
			m(ra, 1+to, p)
			m(rb, 0, p*m2)
			m(rb, 1+to, 2*p*m1)
			m(rb, 1+levels+to, p)
		}
	}
	clear(w.v)
	w.v[0] = 1
	copy(w.sq, w.m)
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			clear(w.w)
			for i := range d {
				row := w.sq[i*d : (i+1)*d]
				for j, x := range row {
					w.w[i] += x * w.v[j]
				}
			}
			w.v, w.w = w.w, w.v
		}
		if n > 1 {
			clear(w.tmp)
			for i := range d {
				for k := range d {
					x := w.sq[i*d+k]
					if x == 0 {
						continue
					}
					for j := range d {
						w.tmp[i*d+j] += x * w.sq[k*d+j]
					}
				}
			}
			w.sq, w.tmp = w.tmp, w.sq
		}
	}
	return w.v[1], w.v[1+levels] // from level 1
}

// resamples is the number of runs the bootstrap-t interval simulates.
const resamples = 400

// interval is the 95% bootstrap-t interval of the mean of the
// environments in steps, which are those added to e, drawn with rng.
// ±1.96 se is too short for the staircase: the se of a run is itself
// uncertain, and smallest when the run stayed low, where its score is
// furthest from the mean (docs/tests.md, "How sure the score is"). So
// the fitted model is run resamples times from level 1 for as many
// environments, each payoff the mean the model gives its level and move
// plus a deviation drawn from those seen before the same move; each
// simulated run's mean m* and standard error se*, refitted as the test
// fits its own, give t* = (m* − μ)/se*, μ the model's mean; the interval
// is [mean − t*₉₇.₅ se, mean − t*₂.₅ se], cut to [−1, 1].
func (e *estimate) interval(steps []AdaptiveStep, move func(float64) int, rng *random.Rand) (lo, hi float64) {
	mean, se := e.value()
	if se == 0 {
		return mean, mean
	}
	mu := e.modelMean()
	levels := len(e.at)
	p, means := make([][3]float64, levels), make([][3]float64, levels)
	for l := range levels {
		p[l], means[l], _ = e.model(l)
	}
	var deviations [3][]float64
	for _, st := range steps {
		k := move(st.Score) + 1
		deviations[k] = append(deviations[k], st.Score-means[st.Level-1][k])
	}
	sim := newEstimate(levels)
	t := make([]float64, resamples)
	for b := range t {
		sim.reset()
		level := 1
		for range e.n {
			k, u, pl := 0, rng.Float64(), p[level-1]
			if u >= pl[0] {
				k = 1
				if u >= pl[0]+pl[1] {
					k = 2
				}
			}
			score := means[level-1][k]
			if d := deviations[k]; len(d) > 0 {
				score += d[rng.IntN(len(d))]
			}
			sim.add(level, score, k-1)
			level = min(max(level+k-1, 1), levels)
		}
		m, s := sim.value()
		switch {
		case s > 0:
			t[b] = (m - mu) / s
		case m != mu:
			t[b] = math.Copysign(math.Inf(1), m-mu)
		}
	}
	slices.Sort(t)
	quantile := func(a float64) float64 { return t[int(a*float64(resamples-1)+0.5)] }
	// within the scores' range, which also keeps a simulated run without
	// spread (t* infinite) from making a bound infinite
	return max(mean-quantile(0.975)*se, -1), min(mean-quantile(0.025)*se, 1)
}

// modelMean is the model's mean of the n weighted payoffs, as the last
// variance found it.
func (e *estimate) modelMean() float64 { return e.work.sum / float64(e.n) }

// reset empties e, keeping its matrices.
func (e *estimate) reset() {
	e.n, e.mean, e.all = 0, 0, [3]moments{}
	clear(e.at)
}
