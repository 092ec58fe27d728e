package aixi

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// Settings are MC-AIXI-CTW's knobs. The zero value of a field is not a
// default: start from DefaultSettings.
type Settings struct {
	// Depth is the context depth D of the context trees, in bits.
	Depth int
	// Simulations is the number of ρUCT simulations per action.
	Simulations int
	// Horizon is the number of interactions each simulation looks ahead.
	Horizon int
	// Exploration is UCB's constant C.
	Exploration float64
	// RewardLevels is how many evenly spaced levels of [−1, 1] a reward is
	// rounded to before it is coded in bits (3: −1, 0, 1, Λ_one's rewards
	// exactly).
	RewardLevels int
}

// DefaultSettings are the settings a sweep on Λ_one chose (doc.go says
// why); the built-in agent starts from PublishedSettings.
var DefaultSettings = Settings{Depth: 32, Simulations: 64, Horizon: 1, Exploration: math.Sqrt2, RewardLevels: 3}

// Bounds of the settings: beyond them an action costs more than a test
// can wait for (depth, simulations, horizon), or the setting means nothing.
const (
	MaxDepth        = 256
	MaxSimulations  = 100_000
	MaxHorizon      = 100
	MaxExploration  = 100
	MaxRewardLevels = 256
)

// SettingsError says which setting is out of its range.
type SettingsError struct {
	Name  string
	Value float64
	Range string
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("MC-AIXI-CTW's %s is %v; it must be %s", e.Name, e.Value, e.Range)
}

// Check validates the settings against their ranges, and their work an
// action against MaxWork.
func (s Settings) Check() error {
	switch {
	case s.Depth < 1 || s.Depth > MaxDepth:
		return &SettingsError{"depth", float64(s.Depth), fmt.Sprintf("an integer from 1 to %d", MaxDepth)}
	case s.Simulations < 1 || s.Simulations > MaxSimulations:
		return &SettingsError{"simulations", float64(s.Simulations), fmt.Sprintf("an integer from 1 to %d", MaxSimulations)}
	case s.Horizon < 1 || s.Horizon > MaxHorizon:
		return &SettingsError{"horizon", float64(s.Horizon), fmt.Sprintf("an integer from 1 to %d", MaxHorizon)}
	case !(s.Exploration >= 0 && s.Exploration <= MaxExploration):
		return &SettingsError{"exploration", s.Exploration, fmt.Sprintf("in [0, %d]", MaxExploration)}
	case s.RewardLevels < 2 || s.RewardLevels > MaxRewardLevels:
		return &SettingsError{"reward levels", float64(s.RewardLevels), fmt.Sprintf("an integer from 2 to %d", MaxRewardLevels)}
	}
	return s.CheckWork()
}

// Agent is MC-AIXI-CTW. It learns from scratch in each episode (Start
// forgets), as the other built-in learners do.
type Agent struct {
	settings Settings
	rng      *random.Rand
	planner  planner
	model    *model

	// The coding, fixed at an episode's first observation.
	actions    int // n_a
	actionLen  int // bits of an action
	symbolBits int // bits of an observation symbol
	obsLen     int // symbols of an observation
	rewardBits int

	percept []byte // the bits of the last percept, sampled or real
	action  []byte // scratch: an action's bits
}

// New returns MC-AIXI-CTW with settings s, which must pass Check.
func New(s Settings) env.Agent { return &Agent{settings: s} }

// bitsFor is the number of bits that code n values: ⌈log2 n⌉.
func bitsFor(n int) int {
	if n <= 1 {
		return 0
	}
	return bits.Len(uint(n - 1))
}

func (a *Agent) Start(e *env.Env, rng *random.Rand) {
	a.rng, a.model = rng, nil
	a.planner = planner{a: a, rng: rng}
	a.actions = len(e.Actions)
	a.actionLen = bitsFor(a.actions)
	a.symbolBits = max(1, bitsFor(len(e.BaseSymbols())))
	a.rewardBits = bitsFor(a.settings.RewardLevels)
}

// Act learns the percept (π's observation and the reward of its previous
// action), plans, and adds the chosen action to the history.
func (a *Agent) Act(v *env.View) int {
	obs := v.Observation()
	if a.model == nil {
		a.obsLen = len(obs)
		a.model = newModel(a.settings.Depth, a.obsLen*a.symbolBits+a.rewardBits)
	}
	a.percept = a.encodePercept(a.percept[:0], obs, v.Reward)
	for i, b := range a.percept {
		a.model.update(i, int(b), true)
	}
	act := a.planner.plan()
	a.model.appendAction(a.actionBits(act), true)
	return act
}

// End learns nothing: the episode is over, and the next starts afresh.
func (a *Agent) End(float64) {}

// encodePercept appends a percept's bits, most significant first: each
// observation symbol in symbolBits bits (missing symbols as 0), then the
// reward's level.
func (a *Agent) encodePercept(dst, obs []byte, reward float64) []byte {
	dst = appendBits(dst, a.rewardLevel(reward), a.rewardBits)
	for i := range a.obsLen {
		c := 0
		if i < len(obs) {
			c = int(obs[i])
		}
		dst = appendBits(dst, c, a.symbolBits)
	}
	return dst
}

// rewardLevel rounds a reward in [−1, 1] to the nearest of the levels.
func (a *Agent) rewardLevel(r float64) int {
	n := a.settings.RewardLevels - 1
	k := int(math.Round((r + 1) / 2 * float64(n)))
	return min(max(k, 0), n)
}

// levelReward is the reward a level stands for; a code past the last
// level (the bits can spell more) counts as the last.
func (a *Agent) levelReward(k int) float64 {
	n := a.settings.RewardLevels - 1
	return -1 + 2*float64(min(k, n))/float64(n)
}

func appendBits(dst []byte, x, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(x>>i&1))
	}
	return dst
}

// actionBits codes an action; the slice is valid until the next call.
func (a *Agent) actionBits(act int) []byte {
	a.action = appendBits(a.action[:0], act, a.actionLen)
	return a.action
}

// samplePercept draws a percept from the model bit by bit, teaching the
// model each bit as simulated (revert takes them back), and returns its
// bits (valid until the next call) and its reward.
func (a *Agent) samplePercept(rng *random.Rand) ([]byte, float64) {
	m := a.model
	a.percept = a.percept[:0]
	level := 0
	for i := range m.trees {
		b := 0
		if rng.Float64() < m.prob1(i) {
			b = 1
		}
		m.update(i, b, false)
		a.percept = append(a.percept, byte(b))
		if i < a.rewardBits {
			level = level<<1 | b
		}
	}
	return a.percept, a.levelReward(level)
}
