package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

func main() {
	tests := flag.Int("tests", 20, "Λ_one tests (7 items each)")
	seed := flag.Uint64("seed", 1, "the test's seed")
	sims := flag.String("sims", "1,4,16,64,256", "MC-AIXI-CTW's budgets, simulations an action, comma-separated")
	with := flag.String("with", "", "further settings of every mc-aixi-ctw of --sims, key=value,... (e.g. horizon=2)")
	extra := flag.String("extra", "", "further agent specs, separated by ';' (e.g. 'mc-aixi-ctw:horizon=4;mc-aixi-ctw:depth=16')")
	flag.Parse()
	if err := run(*tests, *seed, *sims, *with, *extra); err != nil {
		fmt.Fprintln(os.Stderr, "aixi-budget:", err)
		os.Exit(1)
	}
}

// specs are the agents: random and qlearning first, the baselines.
func specs(sims, with, extra string) ([]string, error) {
	names := []string{"random", "qlearning"}
	for f := range strings.SplitSeq(sims, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--sims: %q is not a number of simulations", f)
		}
		spec := fmt.Sprintf("mc-aixi-ctw:simulations=%d", k)
		if with != "" {
			spec += "," + with
		}
		names = append(names, spec)
	}
	for s := range strings.SplitSeq(extra, ";") {
		if s = strings.TrimSpace(s); s != "" {
			names = append(names, s)
		}
	}
	return names, nil
}

// cpu is the process's CPU time so far, user and system.
func cpu() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

func run(tests int, seed uint64, sims, with, extra string) error {
	names, err := specs(sims, with, extra)
	if err != nil {
		return err
	}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		return err
	}
	items, err := exam.LambdaOneItems(seed, tests, "aixi-budget")
	if err != nil {
		return err
	}
	interactions := 0
	for _, it := range items {
		interactions += it.Steps
	}
	s := exam.DefaultSettings
	var outcomes []exam.Outcome
	cost := make([]time.Duration, len(xs)) // CPU time an action
	wall := make([]time.Duration, len(xs))
	for a, x := range xs {
		c0, t0 := cpu(), time.Now()
		out, err := exam.Take(items, []exam.Examinee{x}, s, nil)
		if err != nil {
			return err
		}
		cost[a] = (cpu() - c0) / time.Duration(interactions*s.Episodes)
		wall[a] = time.Since(t0)
		outcomes = append(outcomes, out...)
		fmt.Fprintf(os.Stderr, "%s: %.1f s\n", x.Name, wall[a].Seconds())
	}
	// Two reports of the same outcomes: the paired differences are taken
	// against the first agent, random in one, qlearning in the other.
	in := func(order []int) report.Input {
		in := report.Input{Version: "aixi-budget", Protocol: report.Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: report.ByCells},
			Seed: seed, Tests: tests, Settings: s, Items: items}
		for _, a := range order {
			in.Agents = append(in.Agents, report.AgentOf(names[a], agent.DefaultSettings))
			in.Outcomes = append(in.Outcomes, outcomes[a*len(items):(a+1)*len(items)]...)
		}
		return in
	}
	order := make([]int, len(xs))
	for a := range order {
		order[a] = a
	}
	byRandom, err := report.New(in(order))
	if err != nil {
		return err
	}
	order[0], order[1] = 1, 0
	byQ, err := report.New(in(order))
	if err != nil {
		return err
	}
	fmt.Printf("Λ_one, %d tests of seed %d (%d items, %d interactions an agent); %s\n", tests, seed, len(items), interactions, load())
	fmt.Println("| agent | mean [95% CI] | − random [95% CI], p | − qlearning [95% CI], p | CPU an action |")
	fmt.Println("|---|---|---|---|---|")
	for a, name := range names {
		sum := byRandom.Summaries[a]
		qa := a
		if a < 2 {
			qa = 1 - a
		}
		fmt.Printf("| %s | %+.3f [%+.3f, %+.3f] | %s | %s | %s |\n", name, sum.Mean, sum.CI95[0], sum.CI95[1],
			paired(sum.Paired), paired(byQ.Summaries[qa].Paired), cost[a].Round(cost[a]/100+1))
	}
	return nil
}

func paired(p *report.Paired) string {
	if p == nil {
		return ""
	}
	pv := fmt.Sprintf("%.4f", p.P)
	if p.P < 0.0001 {
		pv = "<0.0001"
	}
	return fmt.Sprintf("%+.3f [%+.3f, %+.3f], %s", p.Mean, p.CI95[0], p.CI95[1], pv)
}

// load is the machine's load averages, which the CPU times depend on.
func load() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "load unknown"
	}
	f := strings.Fields(string(b))
	return "load " + strings.Join(f[:3], " ")
}
