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
	// TestSD is the paper's sd, 0.122 for Q-learning. The paper does not
	// say over what it is taken; it matches the spread of the tests'
	// mean scores (our sd of test means, 0.11–0.14 over five seeds), not
	// that of the exercises (0.30–0.36), so it is printed as the former.
	TestSD float64 `json:"sd_of_test_means"`
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

// paperQLearning is the machine result of Insa-Cabrera et al. (2011, §5 and
// Table 2): Q-learning with the thesis's settings on 20 Λ_one tests × 7
// exercises.
var paperQLearning = PaperFigures{
	Source: "Insa-Cabrera et al. 2011 §5, Table 2",
	N:      140, Mean: 0.259, TestSD: 0.122, R: -0.444,
	Strata: []PaperStratum{
		{3, 20, -0.612, 0.002}, {4, 20, -0.538, 0.008}, {5, 20, -0.526, 0.009}, {6, 20, -0.403, 0.039},
		{7, 20, -0.442, 0.026}, {8, 20, -0.387, 0.046}, {9, 20, -0.465, 0.019},
	},
}

// People is the examinee that stands for the participants of a study
// with people (anynt results): its scores are theirs, one test each.
const People = "people"

// paperHumans is the human result of Insa-Cabrera et al. (2011, §5 and Table
// 2): 20 people, each given one of the 20 Λ_one tests of 7 exercises.
var paperHumans = PaperFigures{
	Source: "Insa-Cabrera et al. 2011 §5, Table 2",
	N:      140, Mean: 0.237, TestSD: 0.150, R: -0.257,
	Strata: []PaperStratum{
		{3, 20, -0.474, 0.017}, {4, 20, -0.134, 0.286}, {5, 20, -0.367, 0.056}, {6, 20, -0.515, 0.010},
		{7, 20, -0.282, 0.114}, {8, 20, -0.189, 0.213}, {9, 20, -0.146, 0.270},
	},
}

// paperFigures gives the figures of Insa-Cabrera et al. (2011) for an
// examinee given the paper's test: Q-learning with the thesis's α, γ and Q0,
// or people, on Λ_one. Another agent or protocol has none to compare with.
func paperFigures(protocol string, a Agent) *PaperFigures {
	if protocol != "lambda-one" || a.Command != "" {
		return nil
	}
	var f PaperFigures
	switch {
	case a.Name == "qlearning" && a.QLearning != nil && *a.QLearning == agent.DefaultSettings:
		f = paperQLearning
	case a.Name == People && a.QLearning == nil:
		f = paperHumans
	default:
		return nil
	}
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
