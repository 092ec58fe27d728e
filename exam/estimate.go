package exam

import (
	"math"
	"math/bits"
	"slices"

	"github.com/anynt/anynt/random"
)

// smoothing is the weight, in environments, with which a level's moves
// are drawn toward its prior in the staircase's model, and neighbours
// the share of its neighbours' moves in that prior, the rest the trend's
// (docs/tests.md, "How sure the score is").
const (
	smoothing  = 4
	neighbours = 0.5
)

// ridge is the penalty, in environments, on the trend's slopes, so that a
// run at one level or one time still gives a trend (a flat one).
const ridge = 1

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
//
// The chances of the moves also depend on the environment's time: a
// learner learns within each environment, so it climbs more easily in the
// longer environments of later in the test. That drift is the schedule's,
// the same on every run, not chance; a model with one set of chances for
// the whole run takes it for wandering and its standard error was 1.3 to
// 1.8 times Q-learning's spread. So a level's chances at an environment
// time are drawn from its moves at nearby times (timeBandwidth).
type estimate struct {
	n    int
	mean float64
	// at[level-1][move+1] sums the payoffs after which the staircase made
	// that move; all sums them over the levels.
	at  [][3]moments
	all [3]moments
	// bins are the bins of environment time seen, each with the moves
	// made in it; segs are the runs of consecutive environments in one
	// bin, in order.
	bins  []timeBin
	segs  []segment
	trend trend
	work  work
}

// timeBin counts the moves at each level in environments whose time
// falls in one bin of width binWidth in log time.
type timeBin struct {
	key   int          // ⌊ln(time)/binWidth⌋
	moves [][3]float64 // moves[level-1][move+1]
}

// segment is a run of n consecutive environments in bin bins[bin].
type segment struct{ bin, n int }

// timeBandwidth is the standard deviation, in the natural log of an
// environment's time, of the Gaussian kernel that weighs the moves made at
// other times in a level's chances at one time: 0.35 weighs the moves of
// environments 1.4 times longer or shorter by 0.6 (docs/tests.md, "How
// sure the score is", says how it was chosen). Times are binned
// at binWidth, the kernel cut at 4 bandwidths.
const (
	timeBandwidth = 0.35
	binWidth      = timeBandwidth / 2
)

// kernel[d] is the weight of moves d bins away.
var kernel = func() (k [9]float64) {
	for d := range k {
		x := float64(d) * binWidth / timeBandwidth
		k[d] = math.Exp(-x * x / 2)
	}
	return k
}()

// moments are a count, a sum and a sum of squares of payoffs.
type moments struct{ n, s1, s2 float64 }

func (m *moments) add(x float64) { m.n, m.s1, m.s2 = m.n+1, m.s1+x, m.s2+x*x }

func newEstimate(levels int) estimate {
	return estimate{at: make([][3]moments, levels), trend: trend{n: -1}}
}

// add counts an environment of level, given time seconds, whose payoff
// score made the staircase move (−1, 0 or +1).
func (e *estimate) add(level int, score float64, move int, time float64) {
	e.addBin(level, score, move, int(math.Floor(math.Log(time)/binWidth)))
}

// addBin is add with the time's bin.
func (e *estimate) addBin(level int, score float64, move int, key int) {
	x := float64(level) / float64(len(e.at)) * score
	e.n++
	e.mean += (x - e.mean) / float64(e.n)
	e.at[level-1][move+1].add(score)
	e.all[move+1].add(score)
	b := len(e.bins) - 1
	for b >= 0 && e.bins[b].key != key {
		b--
	}
	if b < 0 { // a new bin, its counts reused from before a reset
		if b = len(e.bins); b < cap(e.bins) && e.bins[:b+1][b].moves != nil {
			e.bins = e.bins[:b+1]
			clear(e.bins[b].moves)
		} else {
			e.bins = append(e.bins, timeBin{moves: make([][3]float64, len(e.at))})
		}
		e.bins[b].key = key
	}
	e.bins[b].moves[level-1][move+1]++
	if last := len(e.segs) - 1; last >= 0 && e.segs[last].bin == b {
		e.segs[last].n++
	} else {
		e.segs = append(e.segs, segment{b, 1})
	}
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
// before it, weighted by ℓ/levels (model). The sum's first two moments
// over the steps from k on, from each level, follow from those from k + 1
// on by an affine map (A, B) ↦ M_k(A, B), M_k the model at environment
// k's time: the maps are applied from the last environment back to the
// first, a segment of environments of one time bin at a time. A short
// segment applies its map once an environment, about 3·L operations
// each; a long one raises it to its length by squaring, log n products of
// (2L+1)-square matrices, so that the cost stays small whatever the
// test's length (past the longest environment's time, every environment
// is in one bin). The mean of the sum is left in the work's sum.
func (e *estimate) variance() float64 {
	levels := len(e.at)
	d := 2*levels + 1 // 1, A_1…A_L, B_1…B_L
	w := &e.work
	w.size(d)
	w.start()
	for i := len(e.segs) - 1; i >= 0; i-- {
		sg := e.segs[i]
		e.fill(sg.bin)
		if 3*levels*sg.n < d*d*d*bits.Len(uint(sg.n)) {
			w.iterate(sg.n)
		} else {
			w.power(sg.n)
		}
	}
	a, b := w.v[1], w.v[1+levels]
	w.sum = a
	return max(b-a*a, 0)
}

// fill sets the work's model to the one at the time of bin b: each
// level's chances of its moves and the first two moments of the weighted
// payoff after each.
func (e *estimate) fill(b int) {
	levels := len(e.at)
	w := &e.work
	for l := range levels {
		weight := float64(l+1) / float64(levels)
		p, mean, variance := e.model(l, b)
		w.p[l] = p
		for k := range 3 {
			w.m1[l][k] = weight * mean[k]
			w.m2[l][k] = weight * weight * (variance[k] + mean[k]*mean[k])
		}
	}
}

// model is level l's (from 0) chances of each move at the time of bin b,
// and the mean and variance of the payoffs after each: the mean of those
// seen at l, or at all levels if none was, and the variance of those seen
// at all levels (one payoff at a level says nothing of their spread). The
// chances are the level's own frequencies of moves, those at times near b
// weighed by the kernel, drawn toward the trend's chances at l and b
// with the weight of smoothing environments, since a few visits say
// little (and the highest level seen was, by its nature, always left
// downwards); a level not seen takes the trend's.
func (e *estimate) model(l, b int) (p, mean, variance [3]float64) {
	own := e.at[l]
	for k, m := range e.all {
		if m.n == 0 {
			continue
		}
		mu := m.s1 / m.n
		variance[k] = max(m.s2/m.n-mu*mu, 0)
		mean[k] = mu
		if own[k].n > 0 {
			mean[k] = own[k].s1 / own[k].n
		}
	}
	target := e.trendAt(l, b)
	near := e.near(l-1, b)
	for k, c := range e.near(l+1, b) {
		near[k] += c
	}
	if n := near[0] + near[1] + near[2]; n > 0 {
		for k := range 3 {
			target[k] = (1-neighbours)*target[k] + neighbours*near[k]/n
		}
	}
	here := e.near(l, b)
	seen := here[0] + here[1] + here[2]
	for k := range 3 {
		p[k] = (here[k] + smoothing*target[k]) / (seen + smoothing)
	}
	return p, mean, variance
}

// trend is a linear model of the chances of going down and going up
// against the level and the log of the environment's time, fitted to the
// run's moves by least squares, each environment one observation, the
// slopes held back by ridge. The level links the chances: an examinee
// climbs less easily from a harder level, so its level is drawn back to
// where it can hold, which the moves at each level alone, a few
// environments each, do not show, and drawing each level toward its
// neighbours hides (it made the walk of the learners wander where it
// does not: their standard error was 1.3 to 2 times their spread). The
// time carries what the learners learn from a longer environment.
type trend struct {
	n              int        // the environments it was fitted to; −1 for none
	down, up       [3]float64 // intercept, slope in level, slope in log time
	level, logTime float64    // the means the slopes are taken about
	floor          float64    // the least chance of a move
}

// binTime is the log of the time at the middle of bin key.
func binTime(key int) float64 { return (float64(key) + 0.5) * binWidth }

// fit fits the trend to the run, unless it already is.
func (e *estimate) fit() {
	tr := &e.trend
	if tr.n == e.n {
		return
	}
	var n, sl, st float64
	for _, b := range e.bins {
		for l, m := range b.moves {
			c := m[0] + m[1] + m[2]
			n, sl, st = n+c, sl+c*float64(l), st+c*binTime(b.key)
		}
	}
	tr.n, tr.level, tr.logTime, tr.floor = e.n, sl/n, st/n, 0.5/(n+1)
	var a [3][3]float64
	var yd, yu [3]float64
	for _, b := range e.bins {
		for l, m := range b.moves {
			c := m[0] + m[1] + m[2]
			z := [3]float64{1, float64(l) - tr.level, binTime(b.key) - tr.logTime}
			for i := range 3 {
				for j := range 3 {
					a[i][j] += c * z[i] * z[j]
				}
				yd[i] += m[0] * z[i]
				yu[i] += m[2] * z[i]
			}
		}
	}
	a[1][1] += ridge
	a[2][2] += ridge
	tr.down, tr.up = solve3(a, yd), solve3(a, yu)
}

// trendAt is the trend's chances of each move at level l and bin b, each
// at least the floor.
func (e *estimate) trendAt(l, b int) (p [3]float64) {
	e.fit()
	tr := &e.trend
	z := [3]float64{1, float64(l) - tr.level, binTime(e.bins[b].key) - tr.logTime}
	var d, u float64
	for i := range 3 {
		d += tr.down[i] * z[i]
		u += tr.up[i] * z[i]
	}
	d = min(max(d, tr.floor), 1-2*tr.floor)
	u = min(max(u, tr.floor), 1-2*tr.floor)
	if s := d + u; s > 1-tr.floor {
		d, u = d*(1-tr.floor)/s, u*(1-tr.floor)/s
	}
	return [3]float64{d, 1 - d - u, u}
}

// solve3 solves a x = y by Gaussian elimination with partial pivoting; a
// is positive definite (the ridge and the count of environments on its
// diagonal).
func solve3(a [3][3]float64, y [3]float64) (x [3]float64) {
	for c := range 3 {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p], y[c], y[p] = a[p], a[c], y[p], y[c]
		for r := c + 1; r < 3; r++ {
			f := a[r][c] / a[c][c]
			for k := c; k < 3; k++ {
				a[r][k] -= f * a[c][k]
			}
			y[r] -= f * y[c]
		}
	}
	for c := 2; c >= 0; c-- {
		x[c] = y[c]
		for k := c + 1; k < 3; k++ {
			x[c] -= a[c][k] * x[k]
		}
		x[c] /= a[c][c]
	}
	return x
}

// near is the moves made at level l (from 0; none outside the levels) in
// the environments of times near bin b, each weighed by the kernel.
func (e *estimate) near(l, b int) (c [3]float64) {
	if l < 0 || l >= len(e.at) {
		return c
	}
	key := e.bins[b].key
	for _, o := range e.bins {
		d := o.key - key
		if d < 0 {
			d = -d
		}
		if d >= len(kernel) {
			continue
		}
		for k := range 3 {
			c[k] += kernel[d] * o.moves[l][k]
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

// start sets the moments to those of an empty sum, (1, A, B) = (1, 0, 0).
func (w *work) start() {
	clear(w.v)
	w.v[0] = 1
}

// iterate applies the affine map n times to the moments (A, B) and
// returns the mean and second moment of the sum from level 1: A(ℓ) ←
// Σ_m p(ℓ, m) (m1 + A(ℓ+m)), B(ℓ) ← Σ_m p(ℓ, m) (m2 + 2·m1·A(ℓ+m) +
// B(ℓ+m)). The constant terms and the targets ℓ+m are worked out before
// the loop, which is the bootstrap's inner loop (interval).
func (w *work) iterate(n int) (a, b float64) {
	levels := len(w.p)
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
	w.w[0] = 1
	for range n {
		A, B := w.v[1:1+levels], w.v[1+levels:]
		nextA, nextB := w.w[1:1+levels], w.w[1+levels:]
		for l, t := range w.terms {
			a0, a1, a2 := A[t.to[0]], A[t.to[1]], A[t.to[2]]
			nextA[l] = t.c1 + t.p[0]*a0 + t.p[1]*a1 + t.p[2]*a2
			nextB[l] = t.c2 + t.twoPM[0]*a0 + t.twoPM[1]*a1 + t.twoPM[2]*a2 + t.p[0]*B[t.to[0]] + t.p[1]*B[t.to[1]] + t.p[2]*B[t.to[2]]
		}
		w.v, w.w = w.w, w.v
	}
	return w.v[1], w.v[1+levels]
}

// term is a level's row of the affine map, for iterate.
type term struct {
	c1, c2   float64    // Σ p·m1, Σ p·m2
	p, twoPM [3]float64 // p, 2·p·m1
	to       [3]int     // the levels after each move
}

// power does what iterate does, applying Mⁿ to (1, A, B) by squaring.
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
// environments, each at the time of its own (the model's chances at that
// time), each payoff the mean the model gives its level and move
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
	p, means := make([][][3]float64, len(e.bins)), make([][3]float64, levels)
	for b := range e.bins {
		p[b] = make([][3]float64, levels)
		for l := range levels {
			p[b][l], means[l], _ = e.model(l, b)
		}
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
		for _, sg := range e.segs {
			for range sg.n {
				k, u, pl := 0, rng.Float64(), p[sg.bin][level-1]
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
				sim.addBin(level, score, k-1, e.bins[sg.bin].key)
				level = min(max(level+k-1, 1), levels)
			}
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
	e.bins, e.segs, e.trend.n = e.bins[:0], e.segs[:0], -1
}
