package generate

import (
	"testing"
	"time"
)

// TestPlanSamplesRunsSpreadOverTheStream checks the plan's sample: each
// run times runLength candidates after one untimed (the clock, here a
// counter, is read once before and once after each run), and the counts
// are Count's.
func TestPlanSamplesRunsSpreadOverTheStream(t *testing.T) {
	ticks := time.Duration(0)
	clock := func() time.Duration { ticks += time.Millisecond; return ticks }
	p, err := PlanEnumeration(62, FilterSettings{Episodes: 16, Steps: 20, Seed: 1, References: []string{"oracle"}}, 4, 5, clock)
	if err != nil {
		t.Fatal(err)
	}
	total, perBit, _ := Count(62)
	if p.Total != total || len(p.PerBit) != len(perBit) || p.PerBit[len(p.PerBit)-1].UpTo != total {
		t.Errorf("the plan counts %d candidates in %d bit sizes; Count %d in %d", p.Total, len(p.PerBit), total, len(perBit))
	}
	if p.SampleRuns != 4 || p.Sampled != 20 || p.SampleCPU != 4*time.Millisecond || p.CPUPerCandidate() != 200*time.Microsecond {
		t.Errorf("%d runs, %d candidates timed, %v in all", p.SampleRuns, p.Sampled, p.SampleCPU)
	}
}

// TestPlanGivesItsRatesSpread checks the rate's 95% interval from the
// spread of the sample's runs: four runs of five candidates taking 1, 2, 1
// and 2 ms are 0.3 ms a candidate, and the ratio's standard error,
// √(Σ(cᵢ − r·nᵢ)² / (k−1) / k) / n̄ = √(1/12) / 5 ms, times t(0.975, 3) =
// 3.1824, is 0.1837 ms either side. Runs that all take the same time give
// an interval of the rate alone.
func TestPlanGivesItsRatesSpread(t *testing.T) {
	f := FilterSettings{Episodes: 16, Steps: 20, Seed: 1, References: []string{"oracle"}}
	for _, c := range []struct {
		name   string
		took   func(run int) time.Duration
		lo, hi time.Duration
	}{
		{"runs of 1, 2, 1 and 2 ms", func(run int) time.Duration { return time.Duration(run%2+1) * time.Millisecond }, 116262 * time.Nanosecond, 483738 * time.Nanosecond},
		{"runs of 1 ms each", func(int) time.Duration { return time.Millisecond }, 200 * time.Microsecond, 200 * time.Microsecond},
	} {
		calls, ticks := 0, time.Duration(0)
		clock := func() time.Duration {
			if calls%2 == 1 { // the end of run calls/2
				ticks += c.took(calls / 2)
			}
			calls++
			return ticks
		}
		p, err := PlanEnumeration(62, f, 4, 5, clock)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := p.CPUInterval()
		near := func(a, b time.Duration) bool { return (a - b).Abs() < 2*time.Nanosecond }
		if !near(lo, c.lo) || !near(hi, c.hi) {
			t.Errorf("%s: the rate's interval is [%v, %v]; want [%v, %v]", c.name, lo, hi, c.lo, c.hi)
		}
	}
}
