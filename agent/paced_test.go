package agent_test

import (
	"math"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
)

// The agents of the theorems of Hernández-Orallo (2010a) choose their delays
// from the running sum of their rewards, as a test in physical time asks them
// before each action: the stopper keeps the pace until the sum is positive,
// then stops (+Inf); the modulator acts ModulatorSlowdown times slower while
// the sum is positive and at the pace otherwise. The first delay, before any
// reward, is the pace's.
func TestPacedAgentsChooseTheirDelays(t *testing.T) {
	e := line(t, 1, 2, 3, "set rewards lambda-one\n")
	const base = 0.5
	for _, name := range []string{"stopper", "modulator"} {
		var slowed, stopped int
		for seed := range uint64(40) {
			a, err := agent.New(name, agent.DefaultSettings)
			if err != nil {
				t.Fatal(err)
			}
			paced, ok := a.(agent.Paced)
			if !ok {
				t.Fatalf("%s is not Paced", name)
			}
			ep := env.NewEpisode(e, a, seed)
			sum, reward := 0.0, 0.0
			for i := range 60 {
				want := base
				switch {
				case sum > 0 && name == "stopper":
					want = math.Inf(1)
				case sum > 0:
					want = base * agent.ModulatorSlowdown
				}
				d := paced.Delay(base, reward)
				if d != want {
					t.Fatalf("%s, seed %d, before action %d (sum of rewards %v): delay %v, want %v", name, seed, i+1, sum, d, want)
				}
				if math.IsInf(d, 1) {
					stopped++
					break
				}
				if d != base {
					slowed++
				}
				reward = ep.Interact()
				sum += reward
			}
			ep.End()
		}
		if stopped == 0 && slowed == 0 {
			t.Errorf("%s: no episode's sum turned positive; the test shows nothing", name)
		}
	}
}
