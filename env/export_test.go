package env

import (
	"time"

	"github.com/anynt/anynt/vm"
)

// ObservationOf spells the observation object i (π 0, ⊕ 1, ⊖ 2, ω1 3, …)
// would see now, for tests.
func ObservationOf(ep *Episode, i int) string {
	return ep.env.Text(ep.observe(nil, ep.pos[i], i == Pi))
}

// Ring is a ring of n cells with the stay action, a step left and a step
// right, for tests of large spaces.
func Ring(n int) *Space {
	s := &Space{Dest: make([][]int, n)}
	for c := range n {
		s.Dest[c] = []int{c, (c + n - 1) % n, (c + 1) % n}
	}
	return s
}

// Halved is halved, for tests.
var Halved = halved

// SetMemoRuns makes every memo hold at most n runs before it forgets them,
// until the returned function restores the default, for tests.
func SetMemoRuns(n int) (restore func()) {
	memoRuns = n
	return func() { memoRuns = memoSize }
}

// ClockRuns makes p's episodes add up the time their behaviours spend
// inside the VM; the returned function reads the sum, for benchmarks.
func ClockRuns(p *Player) (inVM func() time.Duration) {
	p.b.clocked = true
	return func() time.Duration { return p.b.vmTime }
}

// ObservationPieces is the observation object i would see now in the
// pieces the machine hands the VM, for tests.
func ObservationPieces(ep *Episode, i int) []vm.Piece {
	return ep.observation(ep.pos[i], i == Pi)
}

// Draw takes a number from ep's random stream, for tests of State.
func Draw(ep *Episode) { ep.rng.Uint64() }

// MemoryIDs gives the memory id of each behaviour runner, in State order,
// and SetMemoryID sets runner i's, for tests of State.
func MemoryIDs(ep *Episode) []uint32 {
	var ids []uint32
	_ = ep.runners(func(r *behaviourRunner) error { ids = append(ids, r.mem); return nil })
	return ids
}

func SetMemoryID(ep *Episode, i int, id uint32) {
	_ = ep.runners(func(r *behaviourRunner) error {
		if i == 0 {
			r.mem, r.loaded = id, false
		}
		i--
		return nil
	})
}

// ObservationPairs reports, for tests, whether the lint's observation
// language lets b stand just after a in an observation of who (Good for
// Good and Evil, 3+i for object i); "^" is the start of the string and "$"
// its end.
func ObservationPairs(e *Env, who int) func(a, b string) bool {
	r := newReach(e.BaseSymbols())
	r.freeze()
	r.observationPairs(e, who)
	return func(a, b string) bool {
		i, j := reachStart, reachEnd
		if a != "^" {
			i = r.index[a]
		}
		if b != "$" {
			j = r.index[b]
		}
		return r.has(i, j)
	}
}
