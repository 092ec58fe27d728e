package aixi

import (
	"math"
	"testing"

	"github.com/anynt/anynt/random"
)

// UCB by hand (Veness et al. 2011, §4, the action's value normalised to
// [0, 1] over the m steps to go): at a node visited 10 times with one
// step to go, C = √2, an action tried 5 times worth +½ and one tried 5
// times worth −½ score 0.75 + √2·√(ln 10 / 5) = 1.71 and 0.25 + 0.96 =
// 1.21: the better one is picked. An action worth 1 tried 9 times and
// one worth 0 tried once score 1 + √2·√(ln 10 / 9) = 1.72 and
// 0.5 + √2·√(ln 10) = 2.65: the one tried least is picked, as UCB
// explores. With C = 0 the one worth 1 is. An action never tried goes
// first.
func TestUCBByHand(t *testing.T) {
	p := &planner{a: &Agent{settings: small}, rng: random.New(1, 2)}
	node := func(visits int, values []float64, tried []int) *decision {
		d := &decision{visits: visits}
		for i, v := range values {
			var c *chance
			if tried[i] > 0 {
				c = &chance{visits: tried[i], value: v}
			}
			d.actions = append(d.actions, c)
		}
		return d
	}
	for _, c := range []struct {
		what        string
		exploration float64
		d           *decision
		want        int
	}{
		{"the better of two tried as often", math.Sqrt2, node(10, []float64{-0.5, 0.5}, []int{5, 5}), 1},
		{"the one tried least", math.Sqrt2, node(10, []float64{1, 0}, []int{9, 1}), 1},
		{"the better without exploration", 0, node(10, []float64{1, 0}, []int{9, 1}), 0},
		{"the one never tried", math.Sqrt2, node(10, []float64{1, 0, 0}, []int{5, 5, 0}), 2},
	} {
		p.a.settings.Exploration = c.exploration
		if got := p.selectAction(c.d, 1); got != c.want {
			t.Errorf("%s: UCB picks action %d, want %d", c.what, got, c.want)
		}
	}
}

// A rollout sums the rewards the model samples: a model that has seen
// reward +1 after every one of 100 actions samples +1 again, so a
// rollout of 3 steps sums to 3 (at least 2 allows one unlikely sample;
// a rollout that subtracted or dropped the rewards would give −3 or 0).
func TestRolloutSumsTheSampledRewards(t *testing.T) {
	a := &Agent{settings: small, actions: 2, actionLen: 1, symbolBits: 1, obsLen: 1, rewardBits: bitsFor(small.RewardLevels)}
	a.planner = planner{a: a, rng: random.New(3, 4)}
	a.model = newModel(small.Depth, a.obsLen*a.symbolBits+a.rewardBits)
	for k := range 100 {
		a.model.appendAction(a.actionBits(k%2), true)
		for i, b := range a.encodePercept(nil, []byte{0}, 1) {
			a.model.update(i, int(b), true)
		}
	}
	if got := a.planner.rollout(3); got < 2 {
		t.Errorf("a rollout of 3 steps after rewards of +1 sums to %v", got)
	}
}
