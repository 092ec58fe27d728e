package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
)

func main() {
	seeds := flag.Int("seeds", 500, "how many seeds")
	first := flag.Int("first", 1, "the first seed: seeds first…first+N−1 (a different range checks the se's smoothing on seeds it was not chosen on)")
	taus := flag.String("taus", "1000,2000,5000,8000,16000", "test times to read the score at")
	agents := flag.String("agents", "random,follower,qlearning,oracle", "agents, weakest first")
	ladder := flag.String("ladder", "cells", "Λ_one's ladder: cells or k-approx")
	longest := flag.Float64("max-time", exam.DefaultAdaptive.Longest, "the longest an environment is given (inf: no cap)")
	flag.Parse()
	if err := run(*first, *seeds, *taus, *agents, *ladder, *longest); err != nil {
		fmt.Fprintln(os.Stderr, "adaptive-study:", err)
		os.Exit(1)
	}
}

func run(first, seeds int, tauList, agentList, ladder string, longest float64) error {
	var ts []float64
	for _, f := range strings.Split(tauList, ",") {
		t, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return err
		}
		ts = append(ts, t)
	}
	slices.Sort(ts)
	names := strings.Split(agentList, ",")
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		return err
	}
	s := exam.DefaultAdaptive
	s.Tau, s.Longest = ts[len(ts)-1], longest
	switch ladder {
	case "cells":
		s.Ladder = exam.LambdaOneLadder{}
	case "k-approx":
		s.Ladder = exam.KApproxLadder{}
	default:
		return fmt.Errorf("no ladder %q", ladder)
	}
	// score[a][t][k], se, the interval's bounds lo and hi likewise,
	// move[a][t][k] = |score(τ) − score(τ/2)|
	score, se, move := cube(len(xs), len(ts), seeds), cube(len(xs), len(ts), seeds), cube(len(xs), len(ts), seeds)
	lo, hi := cube(len(xs), len(ts), seeds), cube(len(xs), len(ts), seeds)
	for k := range seeds {
		rs, err := exam.TakeAdaptive(xs, s, uint64(first+k))
		if err != nil {
			return err
		}
		var wg sync.WaitGroup
		for a, r := range rs {
			wg.Go(func() {
				for j, t := range ts {
					now, e, _ := r.At(t)
					half, _, _ := r.At(t / 2)
					score[a][j][k], se[a][j][k], move[a][j][k] = now, e, math.Abs(now-half)
					lo[a][j][k], hi[a][j][k] = exam.AdaptiveInterval(r, s, t)
				}
			})
		}
		wg.Wait()
	}
	fmt.Printf("adaptive test, ladder %s, max time %g s, seeds %d-%d\n", s.Ladder, longest, first, first+seeds-1)
	fmt.Println("coverage: the share of seeds whose 95% interval holds the mean over the seeds; ±1.96 se: the same for score ± 1.96 se")
	fmt.Println("agent      tau     mean    spread  mean se  spread/se  coverage  ±1.96 se  half-width/se  |s(t)-s(t/2)|")
	for a, x := range xs {
		for j, t := range ts {
			m, sd := meanSD(score[a][j])
			ms, _ := meanSD(se[a][j])
			mv, _ := meanSD(move[a][j])
			covered, within, width := 0, 0, 0.0
			for k, v := range score[a][j] {
				if math.Abs(v-m) <= 1.96*se[a][j][k] {
					within++
				}
				if lo[a][j][k] <= m && m <= hi[a][j][k] {
					covered++
				}
				width += (hi[a][j][k] - lo[a][j][k]) / 2
			}
			pc := func(c int) float64 { return 100 * float64(c) / float64(seeds) }
			fmt.Printf("%-9s %6g  %+.4f  %.4f  %.4f   %.2f      %5.1f%%    %5.1f%%     %.2f         %.4f\n",
				x.Name, t, m, sd, ms, sd/ms, pc(covered), pc(within), width/float64(seeds)/ms, mv)
		}
	}
	fmt.Println("\nseparation of each agent from the one before: (mean difference)/(spread of the difference), and the seeds in order")
	for a := 1; a < len(xs); a++ {
		for j, t := range ts {
			d := make([]float64, seeds)
			ordered := 0
			for k := range d {
				d[k] = score[a][j][k] - score[a-1][j][k]
				if d[k] > 0 {
					ordered++
				}
			}
			m, sd := meanSD(d)
			fmt.Printf("%s > %s at %g s: %.2f, %d of %d\n", xs[a].Name, xs[a-1].Name, t, m/sd, ordered, seeds)
		}
	}
	return nil
}

func cube(a, b, c int) [][][]float64 {
	out := make([][][]float64, a)
	for i := range out {
		out[i] = make([][]float64, b)
		for j := range out[i] {
			out[i][j] = make([]float64, c)
		}
	}
	return out
}

func meanSD(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)-1))
}
