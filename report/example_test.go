package report_test

import (
	"fmt"
	"io"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// Give two Λ_one tests of seed 1 to the random agent and Q-learning, then
// report: the summary per agent, with Pearson's r of score against
// K_approx, and Q-learning's difference from random on the same items.
func ExampleNew() {
	items, err := exam.LambdaOneItems(1, 2, "example")
	if err != nil {
		panic(err)
	}
	random, _ := agent.Lookup("random", agent.DefaultSettings)
	qlearning, _ := agent.Lookup("qlearning", agent.DefaultSettings)
	settings := exam.DefaultSettings
	outcomes, err := exam.Take(items, []exam.Examinee{{Name: "random", New: random}, {Name: "qlearning", New: qlearning}}, settings, nil)
	if err != nil {
		panic(err)
	}
	q := agent.DefaultSettings
	r, err := report.New(report.Input{
		Version: "example", Seed: 1, Tests: 2, Settings: settings, Items: items, Outcomes: outcomes,
		Protocol: report.Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: report.ByCells},
		Agents:   []report.Agent{{Name: "random"}, {Name: "qlearning", QLearning: &q}},
	})
	if err != nil {
		panic(err)
	}
	for _, s := range r.Summaries {
		fmt.Printf("%s: n %d, mean %+.3f, 95%% CI [%+.3f, %+.3f], r %+.3f\n", s.Agent.Name, s.N, s.Mean, s.CI95[0], s.CI95[1], s.Corr.R)
	}
	p := r.Summaries[1].Paired
	fmt.Printf("qlearning − %s: %+.3f, p %.3f\n", p.Against, p.Mean, p.P)
	fmt.Println(r.Title())
	// The whole report, as text (or WriteCSV, WriteJSON, WriteHTML):
	if err := r.WriteText(io.Discard); err != nil {
		panic(err)
	}
	// Output:
	// random: n 14, mean -0.026, 95% CI [-0.110, +0.059], r +0.406
	// qlearning: n 14, mean +0.297, 95% CI [+0.106, +0.487], r -0.681
	// qlearning − random: +0.322, p 0.009
	// anynt example: test lambda-one, seed 1, 2 tests, 14 items, agents random, qlearning (alpha 0.05, gamma 0.35, q0 2)
}
