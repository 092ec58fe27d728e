package aggregate

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Interaction is one interaction of a run in physical time.
type Interaction struct {
	// T is t_i: the seconds from the start of the run until the agent
	// performed its action.
	T float64
	// Reward is r_i: the reward the agent saw before that action.
	Reward float64
}

// Run is a run's interactions, in order, their times strictly increasing.
type Run []Interaction

// Check reports a run that the payoffs cannot mean: a time or reward that
// is not a finite number, a negative time, or times that do not increase.
func (r Run) Check() error {
	prev := math.Inf(-1)
	for i, x := range r {
		switch {
		case math.IsNaN(x.T) || math.IsInf(x.T, 0) || x.T < 0:
			return fmt.Errorf("interaction %d: time %v is not a finite time from the start", i+1, x.T)
		case math.IsNaN(x.Reward) || math.IsInf(x.Reward, 0):
			return fmt.Errorf("interaction %d: reward %v is not a finite number", i+1, x.Reward)
		case x.T <= prev:
			return fmt.Errorf("interaction %d: time %v does not come after %v", i+1, x.T, prev)
		}
		prev = x.T
	}
	return nil
}

// Count is n_τ, the interactions performed by time tau.
func (r Run) Count(tau float64) int {
	return sort.Search(len(r), func(i int) bool { return r[i].T > tau })
}

// Sum is V↑τ, the total reward of the interactions performed by tau.
func (r Run) Sum(tau float64) float64 { return sum(r[:r.Count(tau)]) }

// PerSecond is ω‖τ = V↑τ/τ, the total reward per second; 0 when tau is not
// positive, since no interaction can count then.
func (r Run) PerSecond(tau float64) float64 {
	if !(tau > 0) {
		return 0
	}
	return r.Sum(tau) / tau
}

// PerCycle is v‖τ, the average reward of the interactions performed by
// tau; 0 when there is none.
func (r Run) PerCycle(tau float64) float64 { return mean(r[:r.Count(tau)]) }

// ErrLambda is the cause of Discounted's error for a λ outside (0, 1):
// the weights λ^k must be positive and summable.
var ErrLambda = errors.New("the discount λ must lie in (0, 1)")

// Discounted is V|γ|τ with the geometric weights γ_k = λ^k: the weighted
// average Σ λ^k r_k / Σ λ^k over the interactions performed by tau; 0 when
// there is none.
func (r Run) Discounted(tau, lambda float64) (float64, error) {
	if !(lambda > 0 && lambda < 1) {
		return 0, fmt.Errorf("%w; it is %v", ErrLambda, lambda)
	}
	var weighted, total float64
	w := 1.0
	for _, x := range r[:r.Count(tau)] {
		w *= lambda
		if w == 0 { // underflow: later terms add nothing
			break
		}
		weighted += w * x.Reward
		total += w
	}
	if total == 0 {
		return 0, nil
	}
	return weighted / total, nil
}

// Diminishing is v̌‖τ, the average reward with diminishing history: the
// mean of the first n* = ⌊n_τ·t_{n_τ}/τ⌋ rewards, so that the time between
// the last action and tau takes recent interactions out of the count. It
// is 0 when n* is 0.
func (r Run) Diminishing(tau float64) float64 {
	n := r.Count(tau)
	if n == 0 || !(tau > 0) {
		return 0
	}
	// t/τ first: it is exactly 1 when the last action is at τ, where
	// (n·t)/τ can round to just below n and lose the last reward.
	kept := int(math.Floor(float64(n) * (r[n-1].T / tau)))
	return mean(r[:min(kept, n)])
}

// Values are the five payoffs of a run at one test time.
type Values struct {
	Tau         float64 `json:"tau"`
	Count       int     `json:"count"`       // n_τ
	Sum         float64 `json:"sum"`         // V↑τ
	PerSecond   float64 `json:"per_second"`  // ω‖τ
	PerCycle    float64 `json:"per_cycle"`   // v‖τ
	Discounted  float64 `json:"discounted"`  // V|γ|τ, γ_k = λ^k
	Diminishing float64 `json:"diminishing"` // v̌‖τ
}

// At gives the five payoffs of the run at test time tau. The error is
// Discounted's, about lambda.
func (r Run) At(tau, lambda float64) (Values, error) {
	d, err := r.Discounted(tau, lambda)
	if err != nil {
		return Values{}, err
	}
	return Values{Tau: tau, Count: r.Count(tau), Sum: r.Sum(tau), PerSecond: r.PerSecond(tau),
		PerCycle: r.PerCycle(tau), Discounted: d, Diminishing: r.Diminishing(tau)}, nil
}

// Anytime gives the payoffs of the run at each test time of taus: the
// curves a report draws. The error is Discounted's, about lambda.
func (r Run) Anytime(taus []float64, lambda float64) ([]Values, error) {
	out := make([]Values, len(taus))
	for i, tau := range taus {
		v, err := r.At(tau, lambda)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// Average is the mean of Values, payoff by payoff, over the runs added:
// the paper's payoffs are expectations, which a test estimates by the mean
// over its episodes and a report by the mean over its items. The zero
// value is an empty average.
type Average struct {
	sum Values
	n   int
}

// Add counts the values of one more run.
func (a *Average) Add(v Values) {
	a.n++
	a.sum.Count += v.Count
	a.sum.Sum += v.Sum
	a.sum.PerSecond += v.PerSecond
	a.sum.PerCycle += v.PerCycle
	a.sum.Discounted += v.Discounted
	a.sum.Diminishing += v.Diminishing
}

// Values are the means, all 0 when nothing was added; Count is the mean
// count rounded to the nearest whole. Tau is 0, for the caller to set,
// since the runs averaged may have been read at different test times.
func (a Average) Values() Values {
	if a.n == 0 {
		return Values{}
	}
	n := float64(a.n)
	return Values{Count: int(math.Round(float64(a.sum.Count) / n)), Sum: a.sum.Sum / n, PerSecond: a.sum.PerSecond / n,
		PerCycle: a.sum.PerCycle / n, Discounted: a.sum.Discounted / n, Diminishing: a.sum.Diminishing / n}
}

func sum(r Run) float64 {
	var s float64
	for _, x := range r {
		s += x.Reward
	}
	return s
}

func mean(r Run) float64 {
	if len(r) == 0 {
		return 0
	}
	return sum(r) / float64(len(r))
}
