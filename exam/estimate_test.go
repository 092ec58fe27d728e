package exam

import (
	"math"
	"testing"

	"github.com/anynt/anynt/random"
)

// The matrix power gives the model's variance exactly: on a short history
// it equals the variance found by walking every path of moves the model
// allows, each path's payoffs independent given the moves.
func TestEstimateVarianceIsTheModels(t *testing.T) {
	const levels = 3
	e := newEstimate(levels)
	for _, h := range []struct {
		level int
		score float64
	}{{1, 0.9}, {2, 0.3}, {2, 0.6}, {3, -0.2}, {2, 0.1}, {1, 0.7}, {2, 0.55}} {
		e.add(h.level, h.score, DefaultAdaptive.move(h.score), 20)
	}
	// mean and variance of a path's sum, summed over the paths by weight
	var mean, second float64
	var walk func(level, left int, p, m, v float64)
	walk = func(level, left int, p, m, v float64) {
		if left == 0 {
			mean += p * m
			second += p * (v + m*m)
			return
		}
		pr, mu, va := e.model(level-1, 0)
		w := float64(level) / levels
		for k := range 3 {
			if pr[k] == 0 {
				continue
			}
			walk(min(max(level+k-1, 1), levels), left-1, p*pr[k], m+w*mu[k], v+w*w*va[k])
		}
	}
	walk(1, e.n, 1, 0, 0)
	want := second - mean*mean
	if got := e.variance(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("variance %v, want %v by walking the paths", got, want)
	}
	// the bootstrap's centre, μ
	if got, want := e.modelMean(), mean/float64(e.n); math.Abs(got-want) > 1e-12 {
		t.Errorf("the model's mean %v, want %v by walking the paths", got, want)
	}
}

// With one level the payoffs are independent, and the bootstrap-t
// interval is about the Student t's: the score ± 2.0 se for 40 payoffs,
// within what 400 resamples can tell. The same stream gives the same
// interval.
func TestIntervalOfOneLevelIsStudents(t *testing.T) {
	e := newEstimate(1)
	var steps []AdaptiveStep
	rng := random.New(7, 0)
	for range 40 {
		x := 2*rng.Float64() - 1
		e.add(1, x, DefaultAdaptive.move(x), 20)
		steps = append(steps, AdaptiveStep{Level: 1, Score: x})
	}
	mean, se := e.value()
	lo, hi := e.interval(steps, DefaultAdaptive.move, random.New(1, 2))
	if below, above := (mean-lo)/se, (hi-mean)/se; below < 1.7 || below > 2.4 || above < 1.7 || above > 2.4 {
		t.Errorf("the interval reaches %.2f se below the score and %.2f above, want about 2.02 (Student's t, 39 df)", below, above)
	}
	if lo2, hi2 := e.interval(steps, DefaultAdaptive.move, random.New(1, 2)); lo2 != lo || hi2 != hi {
		t.Errorf("the same stream gave [%v, %v], then [%v, %v]", lo, hi, lo2, hi2)
	}
}

// A long test raises the map to the n-th power by squaring, a short one
// applies it n times: on the same model both give the same moments.
func TestEstimatePowerIsIteration(t *testing.T) {
	e := newEstimate(MaxLevel)
	rng := random.New(3, 0)
	level := 1
	for range 300 {
		x := 2*rng.Float64() - 1
		e.add(level, x, DefaultAdaptive.move(x), 20)
		level = nextLevel(level, MaxLevel, x, DefaultAdaptive)
	}
	e.variance() // fills the model
	for _, n := range []int{1, 2, 7, 61, 300} {
		e.work.start()
		a, b := e.work.iterate(n)
		e.work.start()
		pa, pb := e.work.power(n)
		if math.Abs(a-pa) > 1e-12*math.Abs(a) || math.Abs(b-pb) > 1e-12*math.Abs(b) {
			t.Errorf("n = %d: iterating gives (%v, %v), the power (%v, %v)", n, a, b, pa, pb)
		}
	}
}

// FuzzEstimatePowerIsIteration checks the short tests' way to the
// moments against the long tests' on any history the staircase can make:
// each byte is a payoff in [−1, 1], the levels follow from the payoffs.
func FuzzEstimatePowerIsIteration(f *testing.F) {
	f.Add([]byte{200, 10, 255, 128, 0, 90}, uint8(3), uint16(61))
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 0}, uint8(7), uint16(500))
	f.Fuzz(func(t *testing.T, payoffs []byte, levels uint8, n uint16) {
		if len(payoffs) == 0 || levels == 0 || levels > 20 || n == 0 {
			return
		}
		e := newEstimate(int(levels))
		level := 1
		for _, c := range payoffs {
			x := float64(c)/127.5 - 1
			e.add(level, x, DefaultAdaptive.move(x), 20)
			level = nextLevel(level, int(levels), x, DefaultAdaptive)
		}
		e.variance()
		e.work.start()
		a, b := e.work.iterate(int(n))
		e.work.start()
		pa, pb := e.work.power(int(n))
		if math.Abs(a-pa) > 1e-9*(1+math.Abs(a)) || math.Abs(b-pb) > 1e-9*(1+math.Abs(b)) {
			t.Errorf("n = %d: iterating gives (%v, %v), the power (%v, %v)", n, a, b, pa, pb)
		}
	})
}

// With one level the staircase cannot move, the payoffs are independent
// and the standard error is the textbook one: the population standard
// deviation over √n.
func TestEstimateOfOneLevelIsIndependent(t *testing.T) {
	e := newEstimate(1)
	xs := []float64{0.5, -0.25, 1, 0.75, 0, 0.3}
	var m, m2 float64
	for _, x := range xs {
		e.add(1, x, DefaultAdaptive.move(x), 20)
		m += x / float64(len(xs))
		m2 += x * x / float64(len(xs))
	}
	want := math.Sqrt((m2 - m*m) / float64(len(xs)))
	if mean, se := e.value(); math.Abs(mean-m) > 1e-15 || math.Abs(se-want) > 1e-12 {
		t.Errorf("%v ± %v, want %v ± %v", mean, se, m, want)
	}
}

// The standard error is worked out after every environment, so once the
// test is under way it allocates nothing.
func TestEstimateAllocatesNothing(t *testing.T) {
	e := newEstimate(MaxLevel)
	for k := range 50 {
		score := float64(k%5)/2 - 1
		e.add(1+k%MaxLevel, score, DefaultAdaptive.move(score), 20)
	}
	if a := testing.AllocsPerRun(100, func() { e.value() }); a != 0 {
		t.Errorf("value allocates %v times a call, want 0", a)
	}
}
