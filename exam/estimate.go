package exam

import (
	"math"
	"slices"
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
// n − 1 steps by an affine map (A, B) ↦ M(A, B), which is raised to the
// power n by squaring, so that the cost is log n products of
// (2L+1)-square matrices whatever the test's length.
func (e *estimate) variance() float64 {
	levels := len(e.at)
	d := 2*levels + 1 // 1, A_1…A_L, B_1…B_L
	m := e.work.matrix(d)
	m.set(0, 0, 1)
	for l := range levels {
		w := float64(l+1) / float64(levels)
		p, mean, variance := e.model(l)
		for k := range 3 {
			if p[k] == 0 {
				continue
			}
			to := min(max(l+k-1, 0), levels-1)
			m1, m2 := w*mean[k], w*w*(variance[k]+mean[k]*mean[k])
			a, b := 1+l, 1+levels+l
			m.add(a, 0, p[k]*m1)
			m.add(a, 1+to, p[k])
			m.add(b, 0, p[k]*m2)
			m.add(b, 1+to, 2*p[k]*m1)
			m.add(b, 1+levels+to, p[k])
		}
	}
	v := e.work.power(e.n)
	a, b := v[1], v[1+levels] // from level 1
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

// work holds the matrices of variance, kept from one environment to the
// next so that the standard error allocates nothing once the test is
// under way.
type work struct {
	d                int
	m, sq, tmp, v, w []float64
}

// matrix clears and returns the map's matrix, d × d.
func (w *work) matrix(d int) matrixView {
	if w.d != d {
		*w = work{d: d, m: make([]float64, d*d), sq: make([]float64, d*d), tmp: make([]float64, d*d),
			v: make([]float64, d), w: make([]float64, d)}
	}
	clear(w.m)
	return matrixView{w.m, d}
}

// matrixView is a d × d matrix stored row by row.
type matrixView struct {
	a []float64
	d int
}

func (m matrixView) set(i, j int, x float64) { m.a[i*m.d+j] = x }
func (m matrixView) add(i, j int, x float64) { m.a[i*m.d+j] += x }

// power is the first column of mⁿ, m the matrix last returned: mⁿ applied
// to (1, 0, …, 0), by squaring.
func (w *work) power(n int) []float64 {
	d := w.d
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
	return w.v
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
// is [mean − t*₉₇.₅ se, mean − t*₂.₅ se].
func (e *estimate) interval(steps []AdaptiveStep, move func(float64) int, rng stream) (lo, hi float64) {
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
	return mean - quantile(0.975)*se, mean - quantile(0.025)*se
}

// modelMean is the model's mean of the n weighted payoffs, from the map
// variance last raised to the n-th power.
func (e *estimate) modelMean() float64 { return e.work.v[1] / float64(e.n) }

// reset empties e, keeping its matrices.
func (e *estimate) reset() {
	e.n, e.mean, e.all = 0, 0, [3]moments{}
	clear(e.at)
}
