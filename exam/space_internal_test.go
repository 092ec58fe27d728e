package exam

import (
	"math/rand/v2"
	"testing"

	"github.com/anynt/anynt/env"
)

// TestSurelyInvalidOnlyRefusesInvalid draws 200,000 spaces of 2 to 9
// cells as drawSpace does, and some that break the stay rule too: every
// space surelyInvalid refuses env.Space.Check refuses, so the quick test
// changes no draw, and it refuses most of the invalid ones.
func TestSurelyInvalidOnlyRefusesInvalid(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 5))
	refused, invalid := 0, 0
	for range 200_000 {
		cells := 2 + rng.IntN(8)
		actions := 2 + rng.IntN(cells-1)
		dest := make([][]int, cells)
		for c := range dest {
			dest[c] = make([]int, actions)
			for a := range dest[c] {
				dest[c][a] = rng.IntN(cells)
			}
			if rng.IntN(10) > 0 {
				dest[c][0] = c
			}
		}
		s := env.Space{Dest: dest}
		bad := len(s.Check()) > 0
		if surelyInvalid(dest) {
			refused++
			if !bad {
				t.Fatalf("surelyInvalid refuses %v, which Check accepts", dest)
			}
		}
		if bad {
			invalid++
		}
	}
	if refused < invalid/2 {
		t.Errorf("surelyInvalid refused %d of %d invalid spaces; it should catch most", refused, invalid)
	}
	t.Logf("surelyInvalid refused %d of %d invalid spaces", refused, invalid)
}

// A uniform's fill draws what the Rand's IntN draws from the same
// generator, arrow after arrow: for small n, for powers of two (masked),
// and for n just above 2⁶³, where half of all draws are refused and drawn
// again.
func TestUniformIsRandIntN(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 5, 7, 8, 9, 10, 64, 1000, 1 << 40, 1<<40 + 3, 1<<63 + 1, 1<<63 + 12345} {
		src, ref := rand.NewPCG(n, 77), rand.New(rand.NewPCG(n, 77))
		u := newUniform(int(n))
		dest := make([][]int, 50)
		for c := range dest {
			dest[c] = make([]int, 1+c%7)
		}
		for round := range 40 {
			u.fill(src, dest)
			for c, row := range dest {
				if row[0] != c {
					t.Fatalf("n %d: cell %d stays at %d", n, c, row[0])
				}
				for a, d := range row[1:] {
					var want uint64
					if n < 1<<63 {
						want = uint64(ref.IntN(int(n)))
					} else {
						want = ref.Uint64N(n) // IntN's algorithm, past int's range
					}
					if uint64(d) != want {
						t.Fatalf("n %d, round %d, cell %d, arrow %d: %d, IntN draws %d", n, round, c, a+1, d, want)
					}
				}
			}
		}
	}
}

// FuzzUniform holds a uniform's fill to the Rand's Uint64N (IntN's
// algorithm) for any n and stream.
func FuzzUniform(f *testing.F) {
	f.Add(uint64(9), uint64(1), uint64(2))
	f.Add(uint64(1<<63+1), uint64(3), uint64(4))
	f.Fuzz(func(t *testing.T, n, seed, seq uint64) {
		if n == 0 {
			return
		}
		src, ref := rand.NewPCG(seed, seq), rand.New(rand.NewPCG(seed, seq))
		dest := [][]int{make([]int, 17), make([]int, 3)}
		newUniform(int(n)).fill(src, dest)
		for c, row := range dest {
			for a, d := range row[1:] {
				if want := ref.Uint64N(n); uint64(d) != want {
					t.Fatalf("n %d, cell %d, arrow %d: %d, Uint64N draws %d", n, c, a+1, d, want)
				}
			}
		}
	})
}
