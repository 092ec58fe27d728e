package agentproto_test

import (
	"fmt"
	"time"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
)

// An agent outside anynt plays an exercise of Λ_one as any env.Agent
// does; its answers are timed.
func ExampleStart() {
	p, err := agentproto.Start("python3 testdata/random_agent.py", agentproto.Options{Timeout: 10 * time.Second, Tool: "anynt example"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	items, _ := exam.LambdaOneItems(1, 1, "example")
	it := items[0]
	ep := p.Episode(agentproto.Exercise{Name: it.Name, Steps: it.Steps, Seed: it.Seed})
	fmt.Println(p.Name, env.NewPlayer(it.Env).Episode(ep, 7).Run(it.Steps, nil), ep.Times().Actions, ep.Fault())
	// Output: random.py 0.15 20 <nil>
}

func ExampleSplit() {
	words, _ := agentproto.Split(`python3 "my agents/q.py" --alpha 0.05 'it''s'`)
	fmt.Printf("%q\n", words)
	// Output: ["python3" "my agents/q.py" "--alpha" "0.05" "its"]
}
