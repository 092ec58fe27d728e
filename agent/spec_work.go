package agent

import "github.com/anynt/anynt/agent/aixi"

// jointChecks are the limits on a learner's settings taken together,
// beyond each setting's range: MC-AIXI-CTW's work an action is the
// product of three of them (aixi.MaxWork).
var jointChecks = map[string]func(x map[string]float64) error{
	"mc-aixi-ctw": func(x map[string]float64) error {
		return aixi.Settings{Simulations: int(x["simulations"]), Horizon: int(x["horizon"]), Depth: int(x["depth"])}.CheckWork()
	},
}
