package env

import (
	"slices"
	"testing"

	"github.com/anynt/anynt/random"
)

// The rules as the thesis states them, with the list of the candidates
// written out: FollowAction and GreedyAction find the same action without
// the list, and must draw the same numbers, so that a seed keeps its
// trajectories.

func followByList(rng *random.Rand, dest []int, good, evil int) int {
	if a := slices.Index(dest, good); a >= 0 {
		return a
	}
	var safe []int
	for a, d := range dest {
		if d != evil {
			safe = append(safe, a)
		}
	}
	if len(safe) == 0 {
		return rng.IntN(len(dest))
	}
	return safe[rng.IntN(len(safe))]
}

func greedyByList(rng *random.Rand, dest []int, rewards []float64) int {
	var best []int
	for a, d := range dest {
		switch {
		case len(best) == 0 || rewards[d] > rewards[dest[best[0]]]:
			best = append(best[:0], a)
		case rewards[d] == rewards[dest[best[0]]]:
			best = append(best, a)
		}
	}
	return best[rng.IntN(len(best))]
}

// On many random scenes (1 to 6 actions over 1 to 5 cells, rewards from a
// few values so that they tie often, Good and Evil anywhere), each rule
// chooses what its list does, from the same draws, and leaves its stream
// where the list leaves it.
func TestRulesChooseAsTheirLists(t *testing.T) {
	scene := random.New(1, 2)
	values := []float64{-1, -0.5, 0, 0, 0.25, 1}
	for i := range 20_000 {
		cells := 1 + scene.IntN(5)
		dest := make([]int, 1+scene.IntN(6))
		for a := range dest {
			dest[a] = scene.IntN(cells)
		}
		rewards := make([]float64, cells)
		for c := range rewards {
			rewards[c] = values[scene.IntN(len(values))]
		}
		good, evil := scene.IntN(cells+1), scene.IntN(cells+1) // cells: nowhere in reach
		seed := uint64(i)
		for _, rule := range []struct {
			name       string
			fast, list func(*random.Rand) int
		}{
			{"follow", func(r *random.Rand) int { return FollowAction(r, dest, good, evil) }, func(r *random.Rand) int { return followByList(r, dest, good, evil) }},
			{"greedy", func(r *random.Rand) int { return GreedyAction(r, dest, rewards) }, func(r *random.Rand) int { return greedyByList(r, dest, rewards) }},
			{"random", func(r *random.Rand) int { return RandomAction(r, dest) }, func(r *random.Rand) int { return r.IntN(len(dest)) }},
		} {
			fast, list := random.New(seed, 3), random.New(seed, 3)
			got, want := rule.fast(fast), rule.list(list)
			if got != want {
				t.Fatalf("%s: dest %v, good %d, evil %d, rewards %v: %d, the list's %d", rule.name, dest, good, evil, rewards, got, want)
			}
			if fast.Uint64() != list.Uint64() {
				t.Fatalf("%s: dest %v, good %d, evil %d, rewards %v: the streams part", rule.name, dest, good, evil, rewards)
			}
		}
	}
}
