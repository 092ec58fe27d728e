package agent

import (
	"math"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// Stopper is the opportunistic fast random agent of Hernández-Orallo (2010a,
// Theorem 1): it acts at random, at the test's pace, until the average of its
// rewards is positive, and then stops for good. It shows why v‖τ, the average
// reward per interaction, rewards luck: the stopper keeps the lucky average
// it stopped at. Under v̌‖τ its idle time drops that lucky end of its history
// (Theorems 2 and 3): every prefix it kept averaged at most 0.
type Stopper struct {
	Random
	sum     float64
	actions int
}

func (s *Stopper) Start(e *env.Env, rng *random.Rand) {
	s.Random.Start(e, rng)
	s.sum, s.actions = 0, 0
}

func (s *Stopper) Act(v *env.View) int {
	s.actions++
	return s.Random.Act(v)
}

// Delay keeps the pace until the average is positive, then stops.
func (s *Stopper) Delay(base, reward float64) float64 {
	if s.actions == 0 {
		return base
	}
	s.sum += reward
	if s.sum > 0 {
		return math.Inf(1)
	}
	return base
}

// ModulatorSlowdown is how many times slower the Modulator acts while its
// average is positive.
const ModulatorSlowdown = 10

// Modulator is the time-modulating random agent of Hernández-Orallo (2010a):
// it acts at random, at the test's pace while the average of its rewards is
// at most 0 and ModulatorSlowdown times slower while it is positive. It never
// stops, so v̌‖τ, which only discounts the time since the last action, does
// not take its advantage away: the one feature of its Table 1 (robustness to
// time modulation, row 11) that v̌‖τ lacks.
type Modulator struct {
	Stopper
}

// Delay slows down while the average is positive.
func (m *Modulator) Delay(base, reward float64) float64 {
	if m.actions > 0 {
		m.sum += reward
	}
	if m.sum > 0 {
		return base * ModulatorSlowdown
	}
	return base
}
