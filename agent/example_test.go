package agent_test

import (
	"fmt"
	"io/fs"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// A learner is looked up by its spec: its name, then any settings after a
// colon; the others keep their defaults. A bad setting is refused with a
// message naming it.
func ExampleLookup_spec() {
	newAgent, err := agent.Lookup("qlambda:alpha=0.1,lambda=0.9", agent.DefaultSettings)
	if err != nil {
		panic(err)
	}
	var _ env.Agent = newAgent() // a fresh agent per episode
	for _, s := range agent.SpecSettings("qlambda:alpha=0.1,lambda=0.9") {
		fmt.Printf("%s=%g\n", s.Key, s.Value)
	}
	_, err = agent.Lookup("hlq:lambda=0", agent.DefaultSettings)
	fmt.Println(err)
	// Output:
	// alpha=0.1
	// lambda=0.9
	// epsilon=0.04
	// gamma=0.6
	// q0=0
	// agent hlq: lambda (the trace and visit-count decay λ) is 0; it must be in (0, 1]
}

// Best plans an episode: the action sequence with the highest weighted sum
// of rewards on it, and that sum, found by running the environment forward
// from the episode's state; Scale gives that sum again and its
// expectation for an agent acting at random. Here fixture B (the thesis's Fig. 5.1) for 6
// interactions of seed 1, each of weight 1: the sum of the rewards.
func ExampleBest() {
	src, err := fs.ReadFile(corpus.Files, "lambda-one/fixture-b.anynt")
	if err != nil {
		panic(err)
	}
	f, err := lang.Parse("fixture-b.anynt", src)
	if err != nil {
		panic(err)
	}
	e, err := env.Load(f)
	if err != nil {
		panic(err)
	}
	w := []float64{1, 1, 1, 1, 1, 1}
	plan, sum, err := agent.Best(env.NewEpisode(e, agent.Stay{}, 1), w, agent.PlanBudget)
	if err != nil {
		panic(err)
	}
	fmt.Println(plan, sum)
	optimum, random, err := agent.Scale(env.NewEpisode(e, agent.Stay{}, 1), w, agent.PlanBudget)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%v %.4f\n", optimum, random)
	// An Optimal agent plays that plan when the episode is run: its score
	// is the mean reward.
	fmt.Println(env.NewEpisode(e, &agent.Optimal{}, 1).Run(6, nil))
	// Output:
	// [0 1 1 2 1 0] 4
	// 4 -0.4587
	// 0.6666666666666666
}

// RuleOf names the rule of env by which an agent acts, when it acts by
// one: env.LeanPlayer then plays it without the agent.
func ExampleRuleOf() {
	for _, name := range []string{"random", "follower", "oracle", "qlearning"} {
		a, err := agent.New(name, agent.DefaultSettings)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(name, agent.RuleOf(a) != env.NoRule)
	}
	// Output:
	// random true
	// follower true
	// oracle true
	// qlearning false
}
