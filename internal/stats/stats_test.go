package stats_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/anynt/anynt/internal/stats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

// MeanCI's interval is Student's t on n−1 degrees of freedom, exactly: the
// figures are scipy's (stats.t.ppf(0.975, n−1) · s/√n). Two values, one
// degree of freedom, need the quantile 12.71, where an expansion around
// the normal quantile gives 9.7 and an interval a quarter too narrow.
func TestMeanCI(t *testing.T) {
	for _, c := range []struct {
		xs       []float64
		mean     float64
		low, top float64
	}{
		{nil, 0, 0, 0},
		{[]float64{0.25}, 0.25, 0.25, 0.25},
		{[]float64{0.5, -0.5}, 0, -6.353102368087347, 6.353102368087347},
		{[]float64{1, 2, 3}, 2, -0.48413771175033027, 4.48413771175033},
		{[]float64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55}, 14.3, 1.5699072322832404, 27.03009276771676},
	} {
		for round := range 2 { // the second from the quantiles kept
			mean, ci := stats.MeanCI(c.xs)
			if !near(mean, c.mean) || !near(ci[0], c.low) || !near(ci[1], c.top) {
				t.Errorf("round %d: MeanCI(%v) = %v %v, want %v [%v, %v]", round, c.xs, mean, ci, c.mean, c.low, c.top)
			}
		}
	}
}

// The quantiles kept are the ones computed, bit for bit, at any sample
// size, kept or not (past maxCachedDF), and at any level.
func TestKeptQuantilesAreComputed(t *testing.T) {
	for _, n := range []int{2, 3, 10, 141, 1000, 1<<16 + 1, 1<<16 + 2, 200_000} {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i%7) - 2.5
		}
		mean, sd := stat.MeanStdDev(xs, nil)
		for _, alpha := range []float64{0.05, 0.001} {
			q := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(1 - alpha/2)
			half := q * sd / math.Sqrt(float64(n))
			for round := range 2 {
				m, lo, hi, ok := stats.Interval(xs, alpha)
				if !ok || m != mean || lo != mean-half || hi != mean+half {
					t.Errorf("n %d, alpha %v, round %d: Interval = %v [%v, %v] %v, want %v [%v, %v]", n, alpha, round, m, lo, hi, ok, mean, mean-half, mean+half)
				}
				if alpha != 0.05 {
					continue
				}
				if _, ci := stats.MeanCI(xs); ci != [2]float64{mean - half, mean + half} {
					t.Errorf("n %d, round %d: MeanCI %v, want [%v, %v]", n, round, ci, mean-half, mean+half)
				}
			}
		}
	}
}

// TQuantile gives gonum's quantile bit for bit at any probability, the
// first time and from the cache, and past the probabilities it keeps.
func TestTQuantileAnyLevel(t *testing.T) {
	for round := range 2 {
		for k := range 20 {
			p := 0.5 + float64(k)/41
			for _, df := range []int{1, 7, 1<<16 + 3} {
				want := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
				if q := stats.TQuantile(df, p); q != want {
					t.Errorf("round %d: TQuantile(%d, %v) = %v, want %v", round, df, p, q, want)
				}
			}
		}
	}
}

// Interval at the 5% level is MeanCI's interval; it is not ok, and
// collapses to the mean, when the values do not vary or are too few to.
func TestInterval(t *testing.T) {
	xs := []float64{1, 1, 2, 3, 5, 8, 13, 21, 34, 55}
	mean, lo, hi, ok := stats.Interval(xs, 0.05)
	if !ok || !near(mean, 14.3) || !near(lo, 1.5699072322832404) || !near(hi, 27.03009276771676) {
		t.Errorf("Interval(%v, 0.05) = %v [%v, %v] %v", xs, mean, lo, hi, ok)
	}
	// A stricter level gives a wider interval around the same mean.
	if m, l, h, ok := stats.Interval(xs, 0.001); !ok || m != mean || l >= lo || h <= hi {
		t.Errorf("Interval(%v, 0.001) = %v [%v, %v] %v, not wider than [%v, %v]", xs, m, l, h, ok, lo, hi)
	}
	for _, xs := range [][]float64{{0.5}, {0.5, 0.5, 0.5}} {
		if m, l, h, ok := stats.Interval(xs, 0.05); ok || m != 0.5 || l != 0.5 || h != 0.5 {
			t.Errorf("Interval(%v) = %v [%v, %v] %v, want 0.5 [0.5, 0.5] false", xs, m, l, h, ok)
		}
	}
}

// TwoTailedP inverts the quantile: the 0.975 quantile of t is where the
// two-tailed p-value is 5%.
func TestTwoTailedP(t *testing.T) {
	for _, df := range []int{1, 2, 9, 100} {
		if p := stats.TwoTailedP(stats.TQuantile(df, 0.975), df); !near(p, 0.05) {
			t.Errorf("df %d: p of the 0.975 quantile = %v, want 0.05", df, p)
		}
		if p := stats.TwoTailedP(-stats.TQuantile(df, 0.995), df); !near(p, 0.01) {
			t.Errorf("df %d: p of minus the 0.995 quantile = %v, want 0.01", df, p)
		}
	}
	if p := stats.TwoTailedP(0, 5); p != 1 {
		t.Errorf("p of t = 0: %v, want 1", p)
	}
}

// CorrelationP: r = 0.6319 over 10 pairs is the textbook critical value of
// r at the 5% level (two-tailed, 8 degrees of freedom); r = 0 has p 1 and
// one-tailed p ½; a perfect correlation an infinite t.
func TestCorrelationP(t *testing.T) {
	two, one := stats.CorrelationP(-0.6319, 10)
	if math.Abs(two-0.05) > 1e-4 || math.Abs(one-0.025) > 1e-4 {
		t.Errorf("r −0.6319, n 10: p %v, one-tailed %v; want 0.05, 0.025", two, one)
	}
	if two, one := stats.CorrelationP(0.6319, 10); math.Abs(two-0.05) > 1e-4 || math.Abs(one-0.975) > 1e-4 {
		t.Errorf("r 0.6319, n 10: p %v, one-tailed %v; want 0.05, 0.975", two, one)
	}
	if two, one := stats.CorrelationP(0, 7); !near(two, 1) || !near(one, 0.5) {
		t.Errorf("r 0: p %v, one-tailed %v; want 1, 0.5", two, one)
	}
	if two, one := stats.CorrelationP(-1, 5); two != 0 || one != 0 {
		t.Errorf("r −1: p %v, one-tailed %v; want 0, 0", two, one)
	}
	if two, one := stats.CorrelationP(1, 5); two != 0 || one != 1 {
		t.Errorf("r 1: p %v, one-tailed %v; want 0, 1", two, one)
	}
}

func ExampleMeanCI() {
	mean, ci := stats.MeanCI([]float64{1, 2, 3})
	fmt.Printf("%.3f [%.3f, %.3f]\n", mean, ci[0], ci[1])
	// Output: 2.000 [-0.484, 4.484]
}

func ExampleInterval() {
	scores := []float64{0.1, 0.3, 0.2, 0.4, 0.2, 0.3}
	mean, lo, hi, ok := stats.Interval(scores, 0.001)
	fmt.Printf("%.3f [%.3f, %.3f] %v\n", mean, lo, hi, ok)
	_, _, _, ok = stats.Interval([]float64{0.2, 0.2}, 0.001)
	fmt.Println(ok)
	// Output:
	// 0.250 [-0.044, 0.544] true
	// false
}

func ExampleTQuantile() {
	fmt.Printf("%.3f %.3f\n", stats.TQuantile(1, 0.975), stats.TQuantile(30, 0.975))
	// Output: 12.706 2.042
}
