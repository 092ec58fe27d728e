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
