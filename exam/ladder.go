package exam

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
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
	ex := AdaptiveExercise(seed, number, level)
	name := fmt.Sprintf("adaptive:%d/%d/%d", seed, number, level)
	e, f, _, err := ex.Load(name, seed, "adaptive")
	if err != nil { // the exercise is drawn valid; this is a bug
		return Rung{}, fmt.Errorf("%s: %w", name, err)
	}
	return Rung{Name: name, Env: e, Cells: ex.Cells, Actions: ex.Actions, KApprox: ex.KApprox,
		Bits: complexity.Total(complexity.Environment(f, e))}, nil
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
	rng := rand.New(rand.NewPCG(env.EpisodeSeed(seed, number), uint64(level)))
	in := l.levels[level-1]
	p := l.pool[in[rng.IntN(len(in))]]
	return Rung{Name: p.Name, Env: p.Env, Cells: p.Env.Space.Cells(), Actions: len(p.Env.Actions),
		KApprox: kApprox(p.Env), Bits: p.Bits}, nil
}
