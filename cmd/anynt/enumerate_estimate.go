package main

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/cputime"
	"github.com/anynt/anynt/internal/version"
)

// The sample that --estimate times: runs of consecutive candidates spread
// evenly over the stream, about a tenth of a second of filtering.
const (
	estimateRuns      = 20
	estimateRunLength = 50
)

// estimateLine is --estimate's --json output: one object.
type estimateLine struct {
	Version string `json:"version"`
	generate.Plan
	SecondsACandidate float64 `json:"seconds_a_candidate"`
	Seconds           float64 `json:"seconds"`
	CPUMeasured       bool    `json:"cpu_measured"`
	Shards            int     `json:"shards"`
	SecondsAShard     float64 `json:"seconds_a_shard"`
	// The 95% intervals of the three, from the spread of the sample's
	// runs (generate.Plan.CPUInterval).
	SecondsACandidateCI [2]float64              `json:"seconds_a_candidate_ci95"`
	SecondsCI           [2]float64              `json:"seconds_ci95"`
	SecondsAShardCI     [2]float64              `json:"seconds_a_shard_ci95"`
	Settings            generate.StreamSettings `json:"settings"`
}

// runEstimate prints how many candidates the bound holds, bit by bit, and
// the CPU time the filters will take on them at the rate measured on a
// sample, with what each of --shard's N shards takes.
func runEstimate(io *stdio, s generate.StreamSettings, asJSON bool) error {
	clock, measured := processClock()
	p, err := generate.PlanEnumeration(s.MaxBits, s.Filters, estimateRuns, estimateRunLength, clock)
	if err != nil {
		return limitReached(err)
	}
	per := p.CPUPerCandidate()
	lo, hi := p.CPUInterval()
	shardSize := (p.Total + s.Shards - 1) / s.Shards
	times := func(n int) [2]float64 { return [2]float64{float64(n) * lo.Seconds(), float64(n) * hi.Seconds()} }
	if asJSON {
		err := json.NewEncoder(io.out).Encode(estimateLine{Version: version.String(), Plan: p,
			SecondsACandidate: per.Seconds(), Seconds: float64(p.Total) * per.Seconds(), CPUMeasured: measured,
			Shards: s.Shards, SecondsAShard: float64(shardSize) * per.Seconds(), Settings: s,
			SecondsACandidateCI: times(1), SecondsCI: times(p.Total), SecondsAShardCI: times(shardSize)})
		if err != nil {
			return ioFailure(err)
		}
		return nil
	}
	kind := "CPU"
	if !measured {
		kind = "wall time × cores"
	}
	fmt.Fprintf(io.out, "# anynt %s enumerate --estimate: up to %v bits; filters: %d episodes of %d interactions, references %s, sequential %v\n",
		version.String(), s.MaxBits, s.Filters.Episodes, s.Filters.Steps, strings.Join(s.Filters.References, ","), s.Filters.Sequential)
	w := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "bits\tcandidates\tup to here\t%s up to here\t\n", kind)
	for _, b := range p.PerBit {
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t\n", b.Bits, grouped(b.Candidates), grouped(b.UpTo), span(per, b.UpTo))
	}
	w.Flush()
	round := func(d time.Duration) time.Duration { return d.Round(100 * time.Nanosecond) }
	fmt.Fprintf(io.out, "rate: %v of %s a candidate (95%% interval %v to %v from the spread of its runs; a change of load moves it further), measured on %s candidates in %d runs spread over the stream\n",
		round(per), kind, round(lo), round(hi), grouped(p.Sampled), p.SampleRuns)
	fmt.Fprintf(io.out, "in all: %s candidates, %s of %s (%s to %s)\n", grouped(p.Total), span(per, p.Total), kind, span(lo, p.Total), span(hi, p.Total))
	if s.Shards > 1 {
		fmt.Fprintf(io.out, "each of %d shards: at most %s candidates, %s of %s (%s to %s)\n",
			s.Shards, grouped(shardSize), span(per, shardSize), kind, span(lo, shardSize), span(hi, shardSize))
	}
	return nil
}

// processClock is the process's CPU time, and true; where the system
// gives none, the wall time since the first call multiplied by the cores
// Go runs on (an upper bound of the CPU time), and false.
func processClock() (func() time.Duration, bool) {
	if _, ok := cputime.Used(); ok {
		return func() time.Duration { d, _ := cputime.Used(); return d }, true
	}
	start := time.Now()
	return func() time.Duration { return time.Since(start) * time.Duration(runtime.GOMAXPROCS(0)) }, false
}

// span is n candidates' time at per a candidate, in the largest units
// that read well: "42 ms", "3.1 s", "2 h 05 min", "41.3 days".
func span(per time.Duration, n int) string {
	s := per.Seconds() * float64(n)
	switch {
	case s < 1:
		return fmt.Sprintf("%.0f ms", s*1000)
	case s < 60:
		return fmt.Sprintf("%.1f s", s)
	case s < 3600:
		return fmt.Sprintf("%d min %02d s", int(s)/60, int(s)%60)
	case s < 48*3600:
		return fmt.Sprintf("%d h %02d min", int(s)/3600, int(s)%3600/60)
	default:
		return fmt.Sprintf("%.1f days", s/86400)
	}
}

// grouped writes n with its digits grouped by threes: 2,144,672.
func grouped(n int) string {
	d := strconv.Itoa(n)
	for i := len(d) - 3; i > 0; i -= 3 {
		d = d[:i] + "," + d[i:]
	}
	return d
}
