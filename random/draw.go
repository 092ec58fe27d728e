package random

import (
	"math/bits"
	"math/rand/v2"
)

// Rand is a stream of random numbers: a PCG and the draws anynt makes of
// it. The zero Rand is a valid stream (the PCG's with seed 0, 0). A Rand
// is a value: copying one copies its state, which is how an episode's
// state is saved. It is not safe for concurrent use.
type Rand struct {
	pcg rand.PCG
}

// New returns the stream of the given seed and stream number, as
// math/rand/v2's rand.NewPCG(seed, stream) is.
func New(seed, stream uint64) *Rand {
	r := &Rand{}
	r.Seed(seed, stream)
	return r
}

// Seed restarts r as New(seed, stream) starts.
func (r *Rand) Seed(seed, stream uint64) { r.pcg.Seed(seed, stream) }

// Uint64 returns the next 64 random bits. It makes Rand a
// math/rand/v2 Source.
func (r *Rand) Uint64() uint64 { return r.pcg.Uint64() }

// Uint32 returns the top 32 bits of the next draw.
func (r *Rand) Uint32() uint32 { return uint32(r.pcg.Uint64() >> 32) }

// IntN returns a uniform integer in [0, n). It panics if n <= 0, as a
// bound that is not one is a bug of the caller.
func (r *Rand) IntN(n int) int {
	if n <= 0 {
		panic("random: IntN of a bound that is not positive")
	}
	return int(r.uint64n(uint64(n)))
}

// Uint64N returns a uniform integer in [0, n). It panics if n == 0.
func (r *Rand) Uint64N(n uint64) uint64 {
	if n == 0 {
		panic("random: Uint64N of bound 0")
	}
	return r.uint64n(n)
}

// uint64n is Lemire's method: the high word of draw × n is uniform in
// [0, n) once the draws whose low word falls below 2⁶⁴ mod n are
// rejected, leaving exactly ⌊2⁶⁴/n⌋ draws for each result. A power of two
// takes the draw's low bits. 2⁶⁴ mod n, a division, is worked out only
// when the low word is below n, which is rare for small n.
func (r *Rand) uint64n(n uint64) uint64 {
	x := r.pcg.Uint64()
	if n&(n-1) == 0 {
		return x & (n - 1)
	}
	hi, lo := bits.Mul64(x, n)
	if lo < n {
		return r.rejecting(hi, lo, n)
	}
	return hi
}

// rejecting finishes a draw of uint64n whose low word may be one of the
// 2⁶⁴ mod n rejected, drawing again while it is.
func (r *Rand) rejecting(hi, lo, n uint64) uint64 {
	for short := -n % n; lo < short; {
		hi, lo = bits.Mul64(r.pcg.Uint64(), n)
	}
	return hi
}

// Float64 returns a uniform float64 in [0, 1): a draw's low 53 bits over
// 2⁵³.
func (r *Rand) Float64() float64 { return float64(r.pcg.Uint64()<<11>>11) / (1 << 53) }

// Perm returns a uniform permutation of [0, n): the identity shuffled by
// Fisher–Yates, from the last element down.
func (r *Rand) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := int(r.uint64n(uint64(i + 1)))
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// ExpFloat64 returns an exponentially distributed float64 of rate 1, by
// math/rand/v2's ziggurat, from r's stream.
func (r *Rand) ExpFloat64() float64 { return rand.New(r).ExpFloat64() }

// NormFloat64 returns a standard normal float64, by math/rand/v2's
// ziggurat, from r's stream.
func (r *Rand) NormFloat64() float64 { return rand.New(r).NormFloat64() }

// AppendBinary appends r's state, as the PCG's AppendBinary encodes it.
func (r *Rand) AppendBinary(b []byte) ([]byte, error) { return r.pcg.AppendBinary(b) }

// Uniform draws integers in [0, n) for one n many times, as IntN(n) does
// from the same stream, with 2⁶⁴ mod n worked out once: the Λ_one
// protocol draws a whole space's arrows with one.
type Uniform struct {
	n, short uint64
	pow2     bool
}

// NewUniform returns the Uniform of n > 0.
func NewUniform(n int) Uniform {
	if n <= 0 {
		panic("random: a Uniform of a bound that is not positive")
	}
	m := uint64(n)
	return Uniform{n: m, short: -m % m, pow2: m&(m-1) == 0}
}

// Fill sets each of dst to the next integer in [0, n) from r, in order.
// The loop is here, with the generator inlined into it, rather than in a
// method for one draw, which is too large to inline.
func (u Uniform) Fill(r *Rand, dst []int) {
	for i := range dst {
		x := r.pcg.Uint64()
		hi, lo := bits.Mul64(x, u.n)
		switch {
		case u.pow2:
			dst[i] = int(x & (u.n - 1))
		case lo < u.short: // once in 2⁶⁴/n draws at most
			dst[i] = u.redraw(r)
		default:
			dst[i] = int(hi)
		}
	}
}

func (u Uniform) redraw(r *Rand) int {
	for {
		if hi, lo := bits.Mul64(r.pcg.Uint64(), u.n); lo >= u.short {
			return int(hi)
		}
	}
}
