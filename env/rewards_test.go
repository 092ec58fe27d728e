package env_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// eagerRewards is the rule of [P] §4.4 written as it reads, every cell
// halved every interaction, as the machine did before it halved lazily:
// the oracle the lazy cell rewards are checked against.
type eagerRewards struct {
	inner env.Agent
	cells []float64
	t     *testing.T
	step  int
	eaten bool // π has moved since the cells were last checked
	// lambdaOne is set for Λ_one rewards without the cycle clause.
	lambdaOne bool
	last      float64 // the reward the model says π got
	checks    int
}

func (m *eagerRewards) Start(e *env.Env, rng *random.Rand) {
	m.cells = make([]float64, e.Space.Cells())
	m.inner.Start(e, rng)
}

// Act runs after Good and Evil gave this interaction's rewards: it first
// completes the model's last interaction (π eats, every cell halves),
// checks π's reward, gives the model Good's and Evil's rewards, then
// compares every cell, bit for bit.
func (m *eagerRewards) Act(v *env.View) int {
	m.step++
	pos := v.Positions()
	if m.eaten {
		// After the moves of a Λ_one interaction Good's cell holds +1 and
		// Evil's −1, every other cell 0; with no cycle clause, the cells
		// are still where the moves left them.
		if m.lambdaOne {
			clear(m.cells)
			m.cells[pos[env.Good]], m.cells[pos[env.Evil]] = 1, -1
		}
		m.eatAndHalve(pos[env.Pi])
		if math.Float64bits(v.Reward) != math.Float64bits(m.last) {
			m.t.Fatalf("interaction %d: π got %v, the eager rule gives %v", m.step, v.Reward, m.last)
		}
	}
	if !m.lambdaOne {
		if g := pos[env.Good]; g != pos[env.Pi] {
			m.cells[g] = 0.5 // the ω1-blocker's reward
		}
		if e := pos[env.Evil]; e != pos[env.Pi] {
			m.cells[e] = -0.5
		}
	}
	for c, r := range v.CellRewards() {
		if math.Float64bits(r) != math.Float64bits(m.cells[c]) {
			m.t.Fatalf("interaction %d: cell %d holds %v (%#x), the eager rule gives %v (%#x)", m.step, c+1, r, math.Float64bits(r), m.cells[c], math.Float64bits(m.cells[c]))
		}
		m.checks++
	}
	m.eaten = true
	return m.inner.Act(v)
}

func (m *eagerRewards) eatAndHalve(pi int) {
	if m.lambdaOne {
		m.last = m.cells[pi]
		return
	}
	m.last, m.cells[pi] = m.cells[pi], 0
	for c := range m.cells {
		m.cells[c] /= 2
	}
}

func (m *eagerRewards) End(reward float64) { m.inner.End(reward) }

// Cell rewards halved only when read are the rewards halved every
// interaction, bit for bit, through the subnormal numbers down to zero:
// on rings of 60 cells, where most cells go unvisited for far more than
// the 1,075 halvings that take 1/2 to zero, over episodes of 5,000
// interactions (without start-up garbage, whose rewards the model would
// not see).
func TestLazyHalvingIsEagerHalving(t *testing.T) {
	blocker := loadCorpus(t, "thesis/omega1-blocker.anynt")
	blocker.Settings.Garbage = false // the model starts with every cell at 0
	ring := ringCopy(blocker, 60)
	for _, e := range []*env.Env{blocker, ring} {
		for seed := range uint64(3) {
			inner, _ := agent.New("random", agent.DefaultSettings)
			m := &eagerRewards{inner: inner, t: t}
			env.NewEpisode(e, m, seed).Run(5000, nil)
			if m.checks != 5000*e.Space.Cells() {
				t.Fatalf("%d cells checked, want %d", m.checks, 5000*e.Space.Cells())
			}
		}
	}
}

// A Λ_one interaction clears only the two cells it rewarded last, and the
// cells hold what clearing every cell would leave: Good's +1, Evil's −1
// and 0 elsewhere (Λ_one fixture B, whose Good and Evil move every
// interaction).
func TestLambdaOneRewardsClearEveryCell(t *testing.T) {
	e := loadCorpus(t, "lambda-one/fixture-b.anynt")
	for seed := range uint64(5) {
		inner, _ := agent.New("random", agent.DefaultSettings)
		m := &eagerRewards{inner: inner, t: t, lambdaOne: true}
		env.NewEpisode(e, m, seed).Run(2000, nil)
	}
}

// halved gives what k halvings one after another give, whatever the
// value: normal numbers, subnormals, the smallest subnormal and zeros of
// both signs, for k up to past every value's way to zero.
func TestHalvedIsRepeatedHalving(t *testing.T) {
	rng := random.New(1, 2)
	values := []float64{0.5, -0.5, 1, 0.3, -1.0 / 3, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
		3 * math.SmallestNonzeroFloat64, math.Float64frombits(0x000fffffffffffff), 0x1p-1022, 0x1.8p-1022, 0, math.Copysign(0, -1)}
	for range 200 {
		values = append(values, math.Ldexp(rng.Float64()*2-1, -rng.IntN(1100)))
	}
	for _, r := range values {
		want := r
		for k := range uint64(2200) {
			if got := env.Halved(r, k); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("halved(%v, %d) = %v (%#x), want %v (%#x)", r, k, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			want /= 2
		}
	}
}

// A reward is exact: Good's or Evil's value (here 1/2) halved once for
// each interaction since it was left, and a halving is exact in binary
// down to 2^−1022. The case below is anynt serve-env's answer
// "reward":3.469446951953614e-18 for the ω1-blocker reset with seed 1 and
// stepped with action 1: π steps into a cell where Good left 1/2
// fifty-seven interactions before, in the start-up garbage, so the reward
// is 2^−58 exactly, which is the number printed (strconv's shortest form
// of a float64 is read back as the same float64).
func TestARewardIsTheValueHalvedExactly(t *testing.T) {
	e := loadCorpus(t, "thesis/omega1-blocker.anynt")
	player := env.NewPlayer(e)
	ep := player.Episode(outsideAgent{}, env.EpisodeSeed(1, 0)) // as serve-env plays it
	v, err := ep.Begin()
	if err != nil {
		t.Fatal(err)
	}
	to := v.Dest()[1]
	held := v.CellRewards()[to]
	reward, err := ep.Finish(1)
	if err != nil {
		t.Fatal(err)
	}
	if want := math.Ldexp(1, -58); reward != want || held != want {
		t.Fatalf("reward %v (cell %d held %v), want 2^-58 = %v exactly", reward, to+1, held, want)
	}
	if got := strconv.FormatFloat(reward, 'g', -1, 64); got != "3.469446951953614e-18" {
		t.Fatalf("reward printed %s", got)
	}
	if back, _ := strconv.ParseFloat("3.469446951953614e-18", 64); back != math.Ldexp(1, -58) {
		t.Fatalf("3.469446951953614e-18 reads as %v, not 2^-58", back)
	}
}

// outsideAgent stands for an agent outside the process, which answers
// through Begin and Finish, as serve-env's does.
type outsideAgent struct{}

func (outsideAgent) Start(*env.Env, *random.Rand) {}
func (outsideAgent) Act(*env.View) int            { return 0 }
func (outsideAgent) End(float64)                  {}

// BenchmarkHalved measures a cell's reward as a planner's key and a
// trace's observation read it: a normal result, and one that sinks into
// subnormals (k past 1022), where each halving rounds.
func BenchmarkHalved(b *testing.B) {
	for _, k := range []uint64{10, 1030, 1100} {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			sum := 0.0
			for b.Loop() {
				sum += env.Halved(0.5, k)
			}
			if sum < 0 {
				b.Fatal(sum)
			}
		})
	}
}
