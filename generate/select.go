package generate

import (
	"cmp"
	"slices"
	"strings"

	"github.com/anynt/anynt/random"
)

// breed makes one child: a tournament winner, crossed with a second one a
// third of the time, mutated once or twice. It tries a few times for a
// child that no candidate was before.
func (r *evolution) breed(rng *random.Rand) *genome {
	var child *genome
	for range 8 {
		child = r.tournament(rng).genome.clone()
		if rng.IntN(3) == 0 {
			child.crossover(rng, r.tournament(rng).genome)
		}
		child.mutate(rng, 1+rng.IntN(2))
		if !r.seen[child.canonicalSource()] {
			break
		}
	}
	return child
}

func (r *evolution) tournament(rng *random.Rand) Individual {
	return r.pop[min(rng.IntN(len(r.pop)), rng.IntN(len(r.pop)))]
}

// keepBest keeps the best of the population and the accepted children.
func (r *evolution) keepBest(accepted []Individual) {
	all := append(slices.Clone(r.pop), accepted...)
	slices.SortStableFunc(all, func(a, b Individual) int {
		if c := cmp.Compare(b.Verdict.Fitness, a.Verdict.Fitness); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Verdict.Bits, b.Verdict.Bits); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Born, b.Born); c != 0 {
			return c
		}
		return strings.Compare(a.Source, b.Source)
	})
	r.pop = all[:min(len(all), r.settings.Population)]
}
