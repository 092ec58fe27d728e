package aixi

import (
	"errors"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

func load(t testing.TB, path string) *env.Env {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := lang.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestSettingsCheck(t *testing.T) {
	if err := DefaultSettings.Check(); err != nil {
		t.Fatalf("the defaults fail their check: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*Settings)
	}{
		{"depth", func(s *Settings) { s.Depth = 0 }},
		{"depth", func(s *Settings) { s.Depth = MaxDepth + 1 }},
		{"simulations", func(s *Settings) { s.Simulations = 0 }},
		{"simulations", func(s *Settings) { s.Simulations = MaxSimulations + 1 }},
		{"horizon", func(s *Settings) { s.Horizon = 0 }},
		{"horizon", func(s *Settings) { s.Horizon = MaxHorizon + 1 }},
		{"exploration", func(s *Settings) { s.Exploration = -0.1 }},
		{"exploration", func(s *Settings) { s.Exploration = math.NaN() }},
		{"exploration", func(s *Settings) { s.Exploration = math.Inf(1) }},
		{"reward levels", func(s *Settings) { s.RewardLevels = 1 }},
		{"reward levels", func(s *Settings) { s.RewardLevels = MaxRewardLevels + 1 }},
	} {
		s := DefaultSettings
		c.edit(&s)
		var se *SettingsError
		if err := s.Check(); !errors.As(err, &se) || se.Name != c.name {
			t.Errorf("%+v: error %v, want one about %s", s, err, c.name)
		}
	}
}

// An action's work is bounded as a product: each setting's own maximum
// together, accepted before at an estimated 53 minutes of CPU an action,
// is refused with its estimated cost, and so is one node visit past
// MaxWork, while MaxWork itself and the paper's scale of settings pass.
func TestWorkIsBounded(t *testing.T) {
	for _, c := range []struct {
		simulations, horizon, depth int
		says                        string // "" for accepted
	}{
		{MaxSimulations, MaxHorizon, MaxDepth, "is 100000 × 100 × 257 = 2570000000 node visits an action for each percept bit, " +
			"an estimated 53 min of CPU an action on fixture B's 62-bit percepts and 258 days for a 20-test Λ_one run (7000 actions, " +
			"at about 20 ns a visit); it must be at most 10000000 (about 12 s an action there)"},
		{10_000, 10, 100, "10000 × 10 × 101 = 10100000 node visits"},
		{10_000, 10, 99, ""},
		{1000, 12, 96, ""},
		{100, 100, 256, ""},
	} {
		s := DefaultSettings
		s.Simulations, s.Horizon, s.Depth = c.simulations, c.horizon, c.depth
		err := s.Check()
		var we *WorkError
		switch {
		case c.says == "" && err != nil:
			t.Errorf("%d × %d × %d: refused: %v", c.simulations, c.horizon, c.depth+1, err)
		case c.says != "" && (!errors.As(err, &we) || !strings.Contains(err.Error(), c.says)):
			t.Errorf("%d × %d × %d: error %v; want a WorkError saying %q", c.simulations, c.horizon, c.depth+1, err, c.says)
		}
	}
}

// Rewards are coded at their nearest level and read back as it: with 3
// levels Λ_one's −1, 0 and 1 exactly.
func TestRewardLevels(t *testing.T) {
	a := &Agent{settings: DefaultSettings}
	for _, r := range []float64{-1, 0, 1} {
		if got := a.levelReward(a.rewardLevel(r)); got != r {
			t.Errorf("reward %v comes back as %v", r, got)
		}
	}
	a.settings.RewardLevels = 5 // −1, −½, 0, ½, 1
	for r, want := range map[float64]float64{0.3: 0.5, 0.2: 0, -0.8: -1, 2: 1, -7: -1} {
		if got := a.levelReward(a.rewardLevel(r)); got != want {
			t.Errorf("5 levels: reward %v comes back as %v, want %v", r, got, want)
		}
	}
}

// actionLog records the actions an agent takes.
type actionLog struct {
	env.Agent
	actions []int
}

func (l *actionLog) Act(v *env.View) int {
	a := l.Agent.Act(v)
	l.actions = append(l.actions, a)
	return a
}

// randomAgent is agent.Random, which this package cannot import: package
// agent registers MC-AIXI-CTW, so it imports this one. It acts by the
// same rule.
type randomAgent struct{ rng *random.Rand }

func (r *randomAgent) Start(_ *env.Env, rng *random.Rand) { r.rng = rng }
func (r *randomAgent) Act(v *env.View) int                { return env.RandomAction(r.rng, v.Dest()) }
func (r *randomAgent) End(float64)                        {}

// small is a budget that learns two-cells within a few dozen interactions
// and stays fast under -race.
var small = Settings{Depth: 16, Simulations: 16, Horizon: 2, Exploration: math.Sqrt2, RewardLevels: 3}

// One seed decides every choice: the same seed gives the same actions,
// another seed others.
func TestReproducibleBySeed(t *testing.T) {
	e := load(t, "../../corpus/lambda-one/fixture-b.anynt")
	run := func(seed uint64) []int {
		l := &actionLog{Agent: New(small)}
		env.NewEpisode(e, l, seed).Run(30, nil)
		return l.actions
	}
	a, b := run(7), run(7)
	if !slices.Equal(a, b) {
		t.Fatalf("seed 7 gave %v, then %v", a, b)
	}
	if c := run(8); slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same actions %v", a)
	}
}

// On two cells with Good fixed in one (testdata/two-cells.anynt) the best
// policy scores 1 and random 0: MC-AIXI-CTW learns, within 60
// interactions, to go to Good's cell and stay, and beats random by at
// least 0.4 on every seed (it scores 0.70 to 0.83 on these, random −0.07
// to 0.13).
func TestBeatsRandomOnTwoCells(t *testing.T) {
	e := load(t, "testdata/two-cells.anynt")
	const steps = 60
	for seed := uint64(1); seed <= 5; seed++ {
		got := env.NewEpisode(e, New(small), seed).Run(steps, nil)
		base := env.NewEpisode(e, &randomAgent{}, seed).Run(steps, nil)
		if got < base+0.4 {
			t.Errorf("seed %d: MC-AIXI-CTW scores %.3f, random %.3f", seed, got, base)
		}
	}
}

// Every simulation goes through one of the root's actions, so that all of
// them inform the choice: the visits of the root's actions sum to the
// budget, and a budget of one simulation plays (it tries one action and
// takes it).
func TestEverySimulationTriesAnAction(t *testing.T) {
	e := load(t, "../../corpus/lambda-one/fixture-b.anynt")
	for _, sims := range []int{1, 2, 7} {
		s := small
		s.Simulations = sims
		a := New(s).(*Agent)
		env.NewEpisode(e, a, 3).Run(10, nil)
		root := a.planner.search()
		visits := 0
		for _, c := range root.actions {
			if c != nil {
				visits += c.visits
			}
		}
		if visits != sims {
			t.Errorf("%d simulations: the root's actions have %d visits", sims, visits)
		}
	}
}
