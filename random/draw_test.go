package random

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bounds are the n the draws are checked at: small ones, powers of two
// and their neighbours, and large ones whose 2⁶⁴ mod n rejects up to
// half of all draws, so that the rejecting path runs often.
var bounds = func() []uint64 {
	b := []uint64{1, 2, 3, 5, 6, 7, 10, 100, 1000, 12345}
	for k := 2; k < 64; k++ {
		b = append(b, 1<<k-1, 1<<k, 1<<k+1)
	}
	return append(b, math.MaxInt64, 1<<63+1, 1<<63+1<<62, math.MaxUint64)
}()

// TestSameDrawsAsRand checks every draw against math/rand/v2's Rand over
// the same PCG: each seed keeps the draws it gave when anynt drew from the
// library, draw for draw, on the same stream interleaved.
func TestSameDrawsAsRand(t *testing.T) {
	for seed := range uint64(20) {
		ours, lib := New(seed, seed*7+1), rand.New(rand.NewPCG(seed, seed*7+1))
		for _, n := range bounds {
			for range 50 {
				if n <= math.MaxInt64 {
					if a, b := ours.IntN(int(n)), lib.IntN(int(n)); a != b {
						t.Fatalf("seed %d: IntN(%d) = %d, the library's %d", seed, n, a, b)
					}
				}
				if a, b := ours.Uint64N(n), lib.Uint64N(n); a != b {
					t.Fatalf("seed %d: Uint64N(%d) = %d, the library's %d", seed, n, a, b)
				}
			}
		}
		for range 100 {
			if a, b := ours.Float64(), lib.Float64(); a != b {
				t.Fatalf("seed %d: Float64 = %v, the library's %v", seed, a, b)
			}
			if a, b := ours.Uint32(), lib.Uint32(); a != b {
				t.Fatalf("seed %d: Uint32 = %v, the library's %v", seed, a, b)
			}
			if a, b := ours.ExpFloat64(), lib.ExpFloat64(); a != b {
				t.Fatalf("seed %d: ExpFloat64 = %v, the library's %v", seed, a, b)
			}
			if a, b := ours.NormFloat64(), lib.NormFloat64(); a != b {
				t.Fatalf("seed %d: NormFloat64 = %v, the library's %v", seed, a, b)
			}
		}
		for n := range 40 {
			if a, b := ours.Perm(n), lib.Perm(n); !slices.Equal(a, b) {
				t.Fatalf("seed %d: Perm(%d) = %v, the library's %v", seed, n, a, b)
			}
		}
		if a, b := ours.Uint64(), lib.Uint64(); a != b {
			t.Fatalf("seed %d: the streams parted: %d and %d", seed, a, b)
		}
	}
}

// TestUniformIsIntN checks that a Uniform's Fill draws what IntN draws.
func TestUniformIsIntN(t *testing.T) {
	for _, n := range bounds {
		if n > math.MaxInt64 {
			continue
		}
		ours, ref := New(uint64(n), 3), New(uint64(n), 3)
		got := make([]int, 200)
		NewUniform(int(n)).Fill(ours, got)
		for i, g := range got {
			if w := ref.IntN(int(n)); g != w {
				t.Fatalf("Uniform(%d) draw %d = %d, IntN's %d", n, i, g, w)
			}
		}
	}
}

// TestRejectingIsUniform draws from a bound that rejects half the draws
// and checks that both halves of [0, n) come up equally: a rejection
// that kept its draw would put three quarters of them in the lower half.
func TestRejectingIsUniform(t *testing.T) {
	const n = 1<<63 + 1<<62 // 2⁶⁴ mod n = 2⁶², a quarter of the draws rejected
	r, low := New(1, 2), 0
	const draws = 100000
	for range draws {
		if r.Uint64N(n) < n/2 {
			low++
		}
	}
	// 50% ± 5 standard errors (0.16%).
	if f := float64(low) / draws; math.Abs(f-0.5) > 0.008 {
		t.Errorf("%.4f of the draws in the lower half, not 0.5", f)
	}
}

// TestCopyingKeepsTheStream checks that a Rand is a value: a copy draws
// what the original draws next.
func TestCopyingKeepsTheStream(t *testing.T) {
	r := New(5, 6)
	r.Uint64()
	c := *r
	for range 10 {
		if a, b := r.IntN(1000), c.IntN(1000); a != b {
			t.Fatalf("the copy drew %d, the original %d", b, a)
		}
	}
}

// TestBoundsThatAreNoBoundsPanic checks that a bound that is not one is
// refused, as the library refuses it, rather than drawing from nothing.
func TestBoundsThatAreNoBoundsPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"IntN(0)":       func() { New(1, 1).IntN(0) },
		"IntN(-1)":      func() { New(1, 1).IntN(-1) },
		"Uint64N(0)":    func() { New(1, 1).Uint64N(0) },
		"NewUniform(0)": func() { NewUniform(0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

// BenchmarkIntN compares a draw of this package with the library's over
// the same PCG, at a bound like an action's (6):
//
//	go test ./draw -run '^$' -bench '^BenchmarkIntN' -benchmem
func BenchmarkIntN(b *testing.B) {
	b.Run("draw", func(b *testing.B) {
		r, s := New(1, 2), 0
		for b.Loop() {
			s += r.IntN(6)
		}
		sink = s
	})
	b.Run("math-rand-v2", func(b *testing.B) {
		r, s := rand.New(rand.NewPCG(1, 2)), 0
		for b.Loop() {
			s += r.IntN(6)
		}
		sink = s
	})
}

var sink int
