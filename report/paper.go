package report

import (
	"strconv"

	"github.com/anynt/anynt/agent"
)

// PaperFigures are a published result to print beside ours.
type PaperFigures struct {
	Source string  `json:"source"`
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	R      float64 `json:"r"` // Pearson's r of score against complexity
	// Strata are Table 2's r and one-tailed p by number of cells, from 3.
	Strata []PaperStratum `json:"strata"`
}

// PaperStratum is one cell of a Table 2 row.
type PaperStratum struct {
	Cells int     `json:"cells"`
	N     int     `json:"n"`
	R     float64 `json:"r"`
	P     float64 `json:"p_one_tailed"`
}

// seed002QLearning is seed 002's machine result (§5 and Table 2):
// Q-learning with the thesis's settings on 20 Λ_one tests × 7 exercises.
var seed002QLearning = PaperFigures{
	Source: "seed 002 §5, Table 2",
	N:      140, Mean: 0.259, SD: 0.122, R: -0.444,
	Strata: []PaperStratum{
		{3, 20, -0.612, 0.002}, {4, 20, -0.538, 0.008}, {5, 20, -0.526, 0.009}, {6, 20, -0.403, 0.039},
		{7, 20, -0.442, 0.026}, {8, 20, -0.387, 0.046}, {9, 20, -0.465, 0.019},
	},
}

// paperFigures gives seed 002's figures for an agent given the paper's
// test with the paper's settings: Q-learning with the thesis's α, γ and
// Q0 on Λ_one. Another agent or protocol has none to compare with.
func paperFigures(protocol string, a Agent) *PaperFigures {
	if protocol != "lambda-one" || a.Name != "qlearning" || a.QLearning == nil || *a.QLearning != agent.DefaultSettings {
		return nil
	}
	f := seed002QLearning
	return &f
}

// stratum returns Table 2's cell for a number of cells given as a label.
func (f *PaperFigures) stratum(label string) (PaperStratum, bool) {
	if f == nil {
		return PaperStratum{}, false
	}
	for _, s := range f.Strata {
		if label == strconv.Itoa(s.Cells) {
			return s, true
		}
	}
	return PaperStratum{}, false
}
