package exam

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// Ladder is where the adaptive test finds an environment of each level.
type Ladder interface {
	// Levels is the number of levels, from 1.
	Levels() int
	// Rung is the environment of level at step number (from 1) of the
	// test of seed: every examinee at that level at that step meets it.
	Rung(seed uint64, number, level int) (Rung, error)
	// String names the ladder for a report.
	String() string
}

// Rung is an environment of the adaptive test, with its complexity figures.
type Rung struct {
	Name    string
	Env     *env.Env
	Cells   int
	Actions int
	KApprox int     // zlib length of Good and Evil's pattern, 0 for a program
	Bits    float64 // description length (docs/complexity.md)
}

// LambdaOneLadder is the default ladder: level ℓ = 1…MaxLevel draws an
// exercise of ℓ + 2 cells as the Λ_one protocol draws it.
type LambdaOneLadder struct{}

func (LambdaOneLadder) Levels() int { return MaxLevel }

func (LambdaOneLadder) String() string {
	return fmt.Sprintf("Λ_one's cells: levels 1-%d, %d-%d cells", MaxLevel, 3, MaxLevel+2)
}

func (LambdaOneLadder) Rung(seed uint64, number, level int) (Rung, error) {
	return exerciseRung(AdaptiveExercise(seed, number, level), fmt.Sprintf("adaptive:%d/%d/%d", seed, number, level), seed)
}

// exerciseRung loads a drawn Λ_one exercise as the rung named name.
func exerciseRung(ex Exercise, name string, seed uint64) (Rung, error) {
	e, f, _, err := ex.Load(name, seed, "adaptive")
	if err != nil { // the exercise is drawn valid; this is a bug
		return Rung{}, fmt.Errorf("%s: %w", name, err)
	}
	return Rung{Name: name, Env: e, Cells: ex.Cells, Actions: ex.Actions, KApprox: ex.KApprox,
		Bits: complexity.Total(complexity.Environment(f, e))}, nil
}

// KApproxLadder is Λ_one's ladder by complexity: level ℓ = 1…7 draws an
// exercise of Λ_one, its cells uniform on 3…9, whose K_approx lies in the
// level's band (kApproxBands), so that the levels are the papers' measure of
// an exercise's complexity, not the size of its space.
type KApproxLadder struct{}

// kApproxBands are the lowest K_approx of each level of KApproxLadder: 9
// is a pattern of one action, and the bands hold about equal shares of
// Λ_one's exercises (18, 15, 11, 19, 17, 12 and 8 in a hundred, over 7,000
// drawn with 3…9 cells), so that no level is rare to draw.
var kApproxBands = []int{9, 10, 11, 12, 14, 17, 22}

func (KApproxLadder) Levels() int { return len(kApproxBands) }

func (KApproxLadder) String() string {
	return "Λ_one's K_approx: levels 1-7, K_approx 9, 10, 11, 12-13, 14-16, 17-21, 22+ bytes, 3-9 cells"
}

func (KApproxLadder) Rung(seed uint64, number, level int) (Rung, error) {
	if level < 1 || level > len(kApproxBands) {
		return Rung{}, fmt.Errorf("level %d of a ladder of %d", level, len(kApproxBands))
	}
	return exerciseRung(KApproxExercise(seed, number, level), fmt.Sprintf("adaptive-k:%d/%d/%d", seed, number, level), seed)
}

// KApproxExercise is the exercise KApproxLadder gives at step number (from
// 1) of the test of seed at level (1…7), from a stream of the seed, the
// step and the level as AdaptiveExercise's; its episode seed is
// AdaptiveEpisodeSeed's.
func KApproxExercise(seed uint64, number, level int) Exercise {
	level = min(max(level, 1), len(kApproxBands))
	hi := math.MaxInt
	if level < len(kApproxBands) {
		hi = kApproxBands[level]
	}
	return drawExerciseOfK(random.New(env.EpisodeSeed(seed, number), uint64(level)), number, kApproxBands[level-1], hi)
}

// drawExerciseOfK draws Λ_one exercises of 3…9 cells until one's K_approx
// is in [lo, hi). The pattern is drawn before the space, so that a
// refused draw costs no space (the space does not depend on the pattern):
// the exercise kept is distributed as drawExercise's exercises are,
// conditioned on its K_approx. It is so in distribution only: the draws
// take another order from the stream, so the exercise is not the one
// drawExercise would give from the same stream.
func drawExerciseOfK(rng *random.Rand, number, lo, hi int) Exercise {
	for {
		cells := lambdaOneCells[rng.IntN(len(lambdaOneCells))]
		actions := 2 + rng.IntN(cells-1)
		pattern := drawPattern(rng, cells, actions)
		if k := kApproxOf(pattern); k >= lo && k < hi {
			return Exercise{Number: number, Cells: cells, Actions: actions, Steps: 10 * (cells - 1), Pattern: pattern,
				Dest: drawSpace(rng, cells, actions), Place: drawPlace(rng, cells), KApprox: k}
		}
	}
}

// PoolLadder is a ladder cut from a pool of environments (files, folders,
// the generator): ordered by description length and cut into
// min(MaxLevel, size) levels of as equal sizes as can be, level 1 the
// simplest. A rung is drawn uniformly within its level.
type PoolLadder struct {
	pool   []PoolEnv
	levels [][]int // indices into pool, by level
}

// ErrSmallPool is NewPoolLadder's error for a pool that cannot make two
// levels: a staircase with one step measures nothing.
var ErrSmallPool = errors.New("an adaptive test needs a pool of at least two environments")

// NewPoolLadder cuts pool into levels by description length; environments
// of equal length keep the pool's order.
func NewPoolLadder(pool []PoolEnv) (*PoolLadder, error) {
	if len(pool) < 2 {
		return nil, ErrSmallPool
	}
	order := make([]int, len(pool))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(pool[a].Bits, pool[b].Bits) })
	n := min(MaxLevel, len(pool))
	l := &PoolLadder{pool: pool, levels: make([][]int, n)}
	for k := range n {
		l.levels[k] = order[k*len(pool)/n : (k+1)*len(pool)/n]
	}
	return l, nil
}

func (l *PoolLadder) Levels() int { return len(l.levels) }

func (l *PoolLadder) String() string {
	lo, hi := l.pool[l.levels[0][0]].Bits, l.pool[l.levels[len(l.levels)-1][len(l.levels[len(l.levels)-1])-1]].Bits
	return fmt.Sprintf("a pool of %d environments: levels 1-%d by description length, %.1f-%.1f bits", len(l.pool), len(l.levels), lo, hi)
}

// Rung draws uniformly among the environments of level, from a stream of
// the seed, the step and the level, as the Λ_one ladder draws.
func (l *PoolLadder) Rung(seed uint64, number, level int) (Rung, error) {
	if level < 1 || level > len(l.levels) {
		return Rung{}, fmt.Errorf("level %d of a ladder of %d", level, len(l.levels))
	}
	rng := random.New(env.EpisodeSeed(seed, number), uint64(level))
	in := l.levels[level-1]
	p := l.pool[in[rng.IntN(len(in))]]
	return Rung{Name: p.Name, Env: p.Env, Cells: p.Env.Space.Cells(), Actions: len(p.Env.Actions),
		KApprox: kApprox(p.Env), Bits: p.Bits}, nil
}
