package stats

import (
	"math"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI returns the mean of xs and its 95% confidence interval from
// Student's t with n−1 degrees of freedom; with one value the interval is
// that value, with none both are 0.
func MeanCI(xs []float64) (float64, [2]float64) {
	if len(xs) == 0 {
		return 0, [2]float64{}
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	if len(xs) < 2 {
		return mean, [2]float64{mean, mean}
	}
	half := TQuantile(len(xs)-1, 0.975) * sd / math.Sqrt(float64(len(xs)))
	return mean, [2]float64{mean - half, mean + half}
}

// Interval returns the mean of xs with its two-sided interval at level
// 1 − alpha (Student's t, n − 1 degrees of freedom), the bounds a look
// of a sequential test decides on. It is not ok when the values do not
// vary or there are fewer than two: the interval then knows nothing of the
// spread, and lo = hi = mean.
func Interval(xs []float64, alpha float64) (mean, lo, hi float64, ok bool) {
	mean, sd := stat.MeanStdDev(xs, nil)
	if !(sd > 0) {
		return mean, mean, mean, false
	}
	half := TQuantile(len(xs)-1, 1-alpha/2) * sd / math.Sqrt(float64(len(xs)))
	return mean, mean - half, mean + half, true
}

// The quantiles once computed are kept, by probability and then by degrees
// of freedom up to maxCachedDF: samples that large are rare, and the bound
// keeps the cache small whatever sizes a long-lived process sees. Few
// probabilities are ever asked for (0.975 for every 95% interval, one for
// the sequential test's looks; at most maxLevels are kept), so finding a
// probability's cache is a scan of a short list, and a lookup costs one
// map load keyed by an int.
const (
	maxCachedDF = 1 << 16
	maxLevels   = 8
)

// level is the cache of one probability: df (int) to the quantile (float64).
type level struct {
	p    float64
	byDF sync.Map
}

var (
	levels   atomic.Pointer[[]*level] // replaced whole, under levelsMu
	levelsMu sync.Mutex
)

// levelOf returns the cache of p, made if there is room; nil if not.
func levelOf(p float64) *level {
	if ls := levels.Load(); ls != nil {
		for _, l := range *ls {
			if l.p == p {
				return l
			}
		}
	}
	levelsMu.Lock()
	defer levelsMu.Unlock()
	var ls []*level
	if old := levels.Load(); old != nil {
		ls = *old
	}
	for _, l := range ls {
		if l.p == p {
			return l
		}
	}
	if len(ls) >= maxLevels {
		return nil
	}
	l := &level{p: p}
	ls = append(ls[:len(ls):len(ls)], l)
	levels.Store(&ls)
	return l
}

// TQuantile is the p quantile of Student's t with df degrees of freedom.
func TQuantile(df int, p float64) float64 {
	l := levelOf(p)
	if l != nil {
		if q, ok := l.byDF.Load(df); ok {
			return q.(float64)
		}
	}
	q := studentsT(float64(df)).Quantile(p)
	if l != nil && df <= maxCachedDF {
		l.byDF.Store(df, q)
	}
	return q
}

func studentsT(df float64) distuv.StudentsT {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}
}

// CorrelationP returns the two-tailed p-value of Pearson's r ≠ 0 and the
// one-tailed p-value of r < 0 for r over n pairs, from Student's t with
// n − 2 degrees of freedom (|r| = 1 gives an infinite t).
func CorrelationP(r float64, n int) (two, one float64) {
	df := float64(n - 2)
	t := math.Copysign(math.Inf(1), r)
	if r*r < 1 {
		t = r * math.Sqrt(df/(1-r*r))
	}
	st := studentsT(df)
	return 2 * st.Survival(math.Abs(t)), st.CDF(t)
}

// TwoTailedP is the two-tailed p-value of a t statistic with df degrees
// of freedom.
func TwoTailedP(t float64, df int) float64 {
	return 2 * studentsT(float64(df)).Survival(math.Abs(t))
}
