package agent

import (
	"math"
	"testing"
)

// Q-learning's update is the thesis's, on rewards shifted by 1:
// Q(s,a) += α (r + 1 + γ max Q(s',·) − Q(s,a)). From Q0 = 2, reward 0 and
// max Q(s') = 2: 2 + 0.05 (1 + 0.35·2 − 2) = 1.985.
func TestQLearningUpdate(t *testing.T) {
	q := &QLearning{Settings: DefaultSettings}
	q.prev, q.prevA = []float64{2, 2, 2}, 1
	q.update(0, 2)
	if got := q.prev[1]; math.Abs(got-1.985) > 1e-12 {
		t.Errorf("Q after the update is %v, want 1.985", got)
	}
	q.update(1, 2) // a reward of +1 pulls it up: 1.985 + 0.05 (2 + 0.7 − 1.985)
	if got, want := q.prev[1], 1.985+0.05*(2+0.7-1.985); math.Abs(got-want) > 1e-12 {
		t.Errorf("Q after a reward is %v, want %v", got, want)
	}
	if q.prev[0] != 2 || q.prev[2] != 2 {
		t.Errorf("other actions changed: %v", q.prev)
	}
}

// A new state starts at Q0 for every action, and the table keeps it.
func TestQLearningStates(t *testing.T) {
	q := &QLearning{Settings: DefaultSettings, q: map[string][]float64{}}
	v := q.values([]byte{1, 2}, 3)
	v[0] = 5
	if again := q.values([]byte{1, 2}, 3); again[0] != 5 || again[1] != 2 {
		t.Errorf("state values %v", again)
	}
}
