package aggregate_test

import (
	"fmt"

	"github.com/anynt/anynt/aggregate"
)

// A run of four interactions, read at two test times: at τ = 10 s the last
// action was at 8 s, so v̌‖τ keeps only the first ⌊4 × 8/10⌋ = 3 rewards.
func ExampleRun_Anytime() {
	run := aggregate.Run{{T: 1, Reward: 1}, {T: 2, Reward: -1}, {T: 4, Reward: 1}, {T: 8, Reward: 1}}
	values, err := run.Anytime([]float64{4, 10}, 0.9)
	if err != nil {
		panic(err)
	}
	for _, v := range values {
		fmt.Printf("τ=%g n=%d V↑=%g ω‖=%.2f v‖=%.3f V|γ|=%.3f v̌‖=%.3f\n",
			v.Tau, v.Count, v.Sum, v.PerSecond, v.PerCycle, v.Discounted, v.Diminishing)
	}
	// Output:
	// τ=4 n=3 V↑=1 ω‖=0.25 v‖=0.333 V|γ|=0.336 v̌‖=0.333
	// τ=10 n=4 V↑=2 ω‖=0.20 v‖=0.500 V|γ|=0.477 v̌‖=0.333
}
