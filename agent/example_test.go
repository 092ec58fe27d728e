package agent_test

import (
	"fmt"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
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
	// epsilon=0.05
	// gamma=0.9
	// q0=0
	// agent hlq: lambda (the trace and visit-count decay λ) is 0; it must be in (0, 1]
}
