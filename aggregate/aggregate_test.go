package aggregate

import (
	"errors"
	"math"
	"testing"

	"github.com/anynt/anynt/random"
)

// buttons plays the worked example of Hernández-Orallo (2010a) for tau
// seconds: actions B1, B2, B3 (0, 1, 2); observation C2 at even interactions,
// else C1; r_1 = 0 and r_k = 0.1 when a_{k-1} pressed the button of o_{k-1}
// (B1 under C1, B2 under C2). The agent acts every period seconds.
func buttons(press func(k int) int, period, tau float64) Run {
	var run Run
	reward := 0.0 // r_1
	for k := 1; float64(k)*period <= tau; k++ {
		run = append(run, Interaction{T: float64(k) * period, Reward: reward})
		observation := 0 // C1
		if k%2 == 0 {
			observation = 1 // C2
		}
		reward = 0
		if a := press(k); a == observation {
			reward = 0.1
		}
	}
	return run
}

// The worked example of Hernández-Orallo (2010a): π_1 presses B1 three times
// a second and collects 4.5 in 30 s. π_rand presses at random ten times a
// second; the paper gives it ⅓·30·10·0.1 = 10. Counted exactly, its 300
// interactions hold r_1 = 0 and 299 rewards of expectation 0.1/3, so E(V↑30)
// = 9.9667: the reward of its 300th press comes after τ and r_1 is no
// press's, and the paper's figure rounds both away. A Monte Carlo estimate
// agrees.
func TestWorkedExample(t *testing.T) {
	pi1 := buttons(func(int) int { return 0 }, 1.0/3, 30)
	if n, v := pi1.Count(30), pi1.Sum(30); n != 90 || math.Abs(v-4.5) > 1e-9 {
		t.Errorf("π_1: %d interactions, V↑30 = %v; want 90 and 4.5", n, v)
	}
	expected := 299 * 0.1 / 3
	rng := random.New(1, 2)
	const runs = 4000
	var total, squares float64
	for range runs {
		v := buttons(func(int) int { return rng.IntN(3) }, 0.1, 30).Sum(30)
		total += v
		squares += v * v
	}
	mean := total / runs
	se := math.Sqrt((squares/runs - mean*mean) / runs)
	if math.Abs(mean-expected) > 4*se {
		t.Errorf("π_rand: mean V↑30 over %d runs is %.4f ± %.4f; expected %.4f", runs, mean, se, expected)
	}
	if mean <= pi1.Sum(30) {
		t.Errorf("the faster random agent (%.2f) should beat π_1 (4.5) under the sum", mean)
	}
}

// Every payoff of a run with no interaction by τ is 0, as Hernández-Orallo
// (2010a) defines v‖τ; an interaction at exactly τ counts.
func TestNoInteractionGivesZero(t *testing.T) {
	run := Run{{T: 2, Reward: 1}, {T: 3, Reward: -1}}
	for _, r := range []Run{nil, run} {
		values, err := r.Anytime([]float64{0, 1.5}, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			if v != (Values{Tau: v.Tau}) {
				t.Errorf("run %v at τ = %v: %+v, want every payoff 0", r, v.Tau, v)
			}
		}
	}
	if n, v := run.Count(2), run.PerCycle(2); n != 1 || v != 1 {
		t.Errorf("at τ = t_1: n_τ = %d, v‖τ = %v; want 1 and 1", n, v)
	}
}

// The payoffs on small runs worked by hand.
func TestPayoffs(t *testing.T) {
	run := Run{{T: 1, Reward: 1}, {T: 2, Reward: -1}, {T: 4, Reward: 1}, {T: 8, Reward: 1}}
	got, err := run.Anytime([]float64{4, 10}, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	want := []Values{
		// n = 3, t_3 = 4 = τ: n* = 3. Discounted: (½ − ¼ + ⅛)/(½ + ¼ + ⅛) = 3/7.
		{Tau: 4, Count: 3, Sum: 1, PerSecond: 0.25, PerCycle: 1.0 / 3, Discounted: 3.0 / 7, Diminishing: 1.0 / 3},
		// n = 4, t_4 = 8, τ = 10: n* = ⌊4·8/10⌋ = 3, the first three.
		{Tau: 10, Count: 4, Sum: 2, PerSecond: 0.2, PerCycle: 0.5, Discounted: (0.5 - 0.25 + 0.125 + 0.0625) / 0.9375, Diminishing: 1.0 / 3},
	}
	for i := range want {
		if !closeValues(got[i], want[i]) {
			t.Errorf("τ = %v:\n got %+v\nwant %+v", want[i].Tau, got[i], want[i])
		}
	}
	// The digest's example of v̌: n_τ = 100, t_100 = 50 s, τ = 100 s keep
	// the first 50 rewards.
	var long Run
	for i := 1; i <= 100; i++ {
		long = append(long, Interaction{T: float64(i) / 2, Reward: float64(i)})
	}
	if v := long.Diminishing(100); v != 25.5 {
		t.Errorf("v̌ of the digest's example = %v, want the mean of 1…50, 25.5", v)
	}
}

// An agent whose last action falls exactly at τ keeps all its interactions
// under v̌‖τ: n* = ⌊n·t_n/τ⌋ = n. Computed as (n·t_n)/τ in floating point
// it falls short of n for some n and τ (3 × 0.7 / 0.7 < 3) and drops the
// last reward.
func TestDiminishingKeepsAllWhenTheLastActionIsAtTau(t *testing.T) {
	for _, tau := range []float64{0.1, 0.3, 0.7, 1.1, 6.1, 44114.71163681724} {
		for n := 1; n <= 100; n++ {
			run := make(Run, n)
			for i := range run {
				run[i] = Interaction{T: tau * float64(i+1) / float64(n+1), Reward: -1}
			}
			run[n-1] = Interaction{T: tau, Reward: 1}
			if got, want := run.Diminishing(tau), run.PerCycle(tau); got != want {
				t.Errorf("n = %d, t_n = τ = %v: v̌‖τ = %v, want v‖τ = %v", n, tau, got, want)
			}
		}
	}
}

func closeValues(a, b Values) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) < 1e-12 }
	return a.Tau == b.Tau && a.Count == b.Count && near(a.Sum, b.Sum) && near(a.PerSecond, b.PerSecond) &&
		near(a.PerCycle, b.PerCycle) && near(a.Discounted, b.Discounted) && near(a.Diminishing, b.Diminishing)
}

// λ must lie in (0, 1); a run whose times do not increase, or whose
// numbers are not finite, is refused by Check.
func TestBadInput(t *testing.T) {
	run := Run{{T: 1, Reward: 1}}
	for _, lambda := range []float64{0, 1, -0.5, math.NaN(), math.Inf(1)} {
		if _, err := run.Discounted(1, lambda); !errors.Is(err, ErrLambda) {
			t.Errorf("λ = %v: %v, want ErrLambda", lambda, err)
		}
	}
	for _, bad := range []Run{
		{{T: 1}, {T: 1}}, {{T: 2}, {T: 1}}, {{T: -1}}, {{T: math.NaN()}},
		{{T: math.Inf(1)}}, {{T: 1, Reward: math.NaN()}}, {{T: 1, Reward: math.Inf(-1)}},
	} {
		if bad.Check() == nil {
			t.Errorf("Check(%v) accepted it", bad)
		}
	}
	if err := (Run{{T: 0, Reward: -1}, {T: 0.5, Reward: 1}}).Check(); err != nil {
		t.Errorf("a sound run: %v", err)
	}
}

// Average is the mean of every payoff over runs, its count rounded to the
// nearest whole, and all 0 over no run; At is one of Anytime's readings.
func TestAverage(t *testing.T) {
	var empty Average
	if v := empty.Values(); v != (Values{}) {
		t.Errorf("an empty average is %+v, want every payoff 0", v)
	}
	runs := []Run{
		{{T: 1, Reward: 1}, {T: 2, Reward: 1}},
		{{T: 1, Reward: -1}},
		{{T: 1, Reward: 1}, {T: 2, Reward: -1}},
	}
	var avg Average
	for _, r := range runs {
		v, err := r.At(2, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		if all, _ := r.Anytime([]float64{2}, 0.5); all[0] != v {
			t.Errorf("At(2) = %+v, Anytime at 2 = %+v", v, all[0])
		}
		avg.Add(v)
	}
	// Counts 2, 1, 2: mean 5/3, rounded to 2. Sums 2, −1, 0: mean 1/3.
	// Averages per cycle 1, −1, 0: mean 0. Discounted 1, −1 and
	// (½ − ¼)/(½ + ¼) = ⅓: mean 1/9. v̌‖2: 1, 0 (the second run's one
	// action at 1 s keeps ⌊1 × 1/2⌋ = 0 rewards) and 0: mean 1/3.
	want := Values{Count: 2, Sum: 1.0 / 3, PerSecond: 1.0 / 6, PerCycle: 0, Discounted: 1.0 / 9, Diminishing: 1.0 / 3}
	if got := avg.Values(); !closeValues(got, want) {
		t.Errorf("the average is %+v, want %+v", got, want)
	}
}
