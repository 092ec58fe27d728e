package complexity

import (
	"math"
	"math/bits"
)

// Version names the code below. Any change to what it charges changes the
// version, and the golden tests show the difference.
const Version = "anynt-dl/1"

// natural is the length in bits of the Elias delta code of n+1, the
// universal prefix-free code used for every natural number (n ≥ 0): about
// log2 n + 2 log2 log2 n bits.
func natural(n int) float64 {
	m := uint64(n) + 1
	l := bits.Len64(m) - 1 // ⌊log2 m⌋
	return float64(l + 2*(bits.Len64(uint64(l+1))-1) + 1)
}

// choice is the cost of naming one of n equally likely things: log2 n bits
// (0 when there is one).
func choice(n int) float64 {
	if n <= 1 {
		return 0
	}
	return math.Log2(float64(n))
}
