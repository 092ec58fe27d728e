package env_test

import (
	"fmt"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// Evaluate plays episodes of an agent in an environment, spread over the
// cores, and summarises the scores; the seed decides every random choice.
// Here a six-cell ring where Good and Evil follow the pattern r r l, and the
// random agent, whose mean score is close to 0, as balance requires.
func ExampleEvaluate() {
	src := `actions s l r
space thesis lr+:l-r+:l-r+:l-r+:l-r+:l-r
goodevil pattern r r l
`
	f, err := lang.Parse("ring.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := env.Load(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	random, err := agent.Lookup("random", agent.DefaultSettings)
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := env.Evaluate(e, random, 200, 100, 1, nil)
	fmt.Printf("%d episodes, mean %+.3f, 95%% CI [%+.3f, %+.3f]\n", len(ev.Scores), ev.Mean, ev.CI95[0], ev.CI95[1])
	// Output:
	// 200 episodes, mean -0.002, 95% CI [-0.006, +0.002]
}
