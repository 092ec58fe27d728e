package generate

import (
	"maps"
	"math"
	"slices"
	"time"

	"github.com/anynt/anynt/internal/stats"
)

// Plan is what an enumeration up to a bound holds and what it will cost,
// for sizing a run (an array job) before starting it: the candidates of
// each whole number of bits, counted without making them, and the CPU time
// the filters took a candidate on a sample spread over the stream.
type Plan struct {
	MaxBits float64   `json:"max_bits"`
	Total   int       `json:"candidates"`
	PerBit  []BitPlan `json:"per_bit"`
	// Sampled candidates were checked, in SampleRuns runs of consecutive
	// candidates spread evenly over the stream, taking SampleCPU in all.
	Sampled    int           `json:"sampled"`
	SampleRuns int           `json:"sample_runs"`
	SampleCPU  time.Duration `json:"-"`
	// runs are each run's candidates timed and CPU time, for the spread.
	runs []sampleRun
}

// sampleRun is one run of the sample: candidates timed, and their CPU.
type sampleRun struct {
	n   int
	cpu time.Duration
}

// BitPlan is the candidates of more than Bits−1 and at most Bits bits.
type BitPlan struct {
	Bits       int `json:"bits"`
	Candidates int `json:"candidates"`
	UpTo       int `json:"up_to"` // the candidates of at most Bits bits
}

// CPUPerCandidate is the sample's CPU time a candidate, or 0 for no
// sample.
func (p Plan) CPUPerCandidate() time.Duration {
	if p.Sampled == 0 {
		return 0
	}
	return p.SampleCPU / time.Duration(p.Sampled)
}

// CPUInterval is a 95% confidence interval of the CPU time a candidate,
// from the spread of the sample's runs: the ratio estimate
// CPUPerCandidate ± t(0.975, runs − 1) standard errors, the standard error
// that of a ratio of sums over runs (Cochran 1977, "Sampling Techniques",
// §6.4), the low end at least 0. It is the sampling error of the rate over
// a stream whose candidates differ in cost; a load that differs between
// the sample and the run moves the rate beyond it. With fewer than two
// runs it is the rate alone.
func (p Plan) CPUInterval() (lo, hi time.Duration) {
	r := p.CPUPerCandidate()
	k := len(p.runs)
	if k < 2 {
		return r, r
	}
	mean := float64(p.Sampled) / float64(k)
	ss := 0.0
	for _, run := range p.runs {
		d := float64(run.cpu) - float64(r)*float64(run.n)
		ss += d * d
	}
	se := math.Sqrt(ss/float64(k-1)/float64(k)) / mean
	half := time.Duration(stats.TQuantile(k-1, 0.975) * se)
	return max(r-half, 0), r + half
}

// PlanEnumeration counts the enumeration up to maxBits and times the
// filters f on runs sample runs of runLength consecutive candidates spread
// evenly over it, reading the CPU time with clock (the process's, package
// cputime). Each run's first candidate is checked before the clock starts:
// a run of the whole stream checks the first candidate of a space from its
// text and the others from its lean form, so the sample, whose runs land
// on spaces it has not seen, would otherwise pay the text far more often.
func PlanEnumeration(maxBits float64, f FilterSettings, runs, runLength int, clock func() time.Duration) (Plan, error) {
	l, err := listBlocks(maxBits)
	if err != nil {
		return Plan{}, err
	}
	total, perBit := l.count()
	p := Plan{MaxBits: maxBits, Total: total}
	upTo := 0
	for _, b := range slices.Sorted(maps.Keys(perBit)) {
		upTo += perBit[b]
		p.PerBit = append(p.PerBit, BitPlan{Bits: b, Candidates: perBit[b], UpTo: upTo})
	}
	checker, err := newCandidateChecker(f)
	if err != nil {
		return Plan{}, err
	}
	for r := range runs {
		from := int(int64(total) * int64(r) / int64(runs))
		to := min(from+runLength+1, total)
		if r+1 < runs {
			to = min(to, int(int64(total)*int64(r+1)/int64(runs)))
		}
		if to-from < 2 {
			continue
		}
		var start time.Duration
		l.walk(from, to, func(c Candidate) bool {
			checker.check(c)
			if c.Index == from {
				start = clock()
			} else {
				p.Sampled++
			}
			return true
		})
		took := clock() - start
		p.SampleCPU += took
		p.SampleRuns++
		p.runs = append(p.runs, sampleRun{n: to - from - 1, cpu: took})
	}
	return p, nil
}
