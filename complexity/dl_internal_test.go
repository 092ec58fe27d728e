package complexity

import (
	"testing"

	"github.com/anynt/anynt/random"
)

type arrows [][]int

func (a arrows) Arrows() [][]int { return a }

// canonicalLength counts the symbols CanonicalCode writes, on random
// spaces of 1 to 12 cells with arrows that stay, leave, and go either way
// round.
func TestCanonicalLengthCountsTheCode(t *testing.T) {
	rng := random.New(5, 5)
	names := []string{"a0", "a1", "a2", "a3", "a4", "a5"}
	for range 20_000 {
		cells, actions := 1+rng.IntN(12), 1+rng.IntN(len(names))
		dest := make(arrows, cells)
		for c := range dest {
			dest[c] = make([]int, actions)
			for a := range dest[c] {
				dest[c][a] = rng.IntN(cells)
			}
		}
		if got, want := canonicalLength(dest), len(CanonicalCode(dest, names[:actions])); got != want {
			t.Fatalf("%v: canonicalLength %d, the code has %d symbols", dest, got, want)
		}
	}
}
