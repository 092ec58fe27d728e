package generate

// Seeking: a shard of the enumeration starts at its own candidate without
// walking the ones before it. The stream is a sequence of blocks (one
// space, one pattern length, one cost), popped from the block queue in a
// fixed order; within a block the patterns come in lexicographic order,
// those that are primitive and canonical on the space kept. Both kinds of
// skip are counted rather than walked:
//
//   - a whole block: its size is the number of kept patterns of its length,
//     counted by a small automaton (below) with Möbius inversion for the
//     primitivity, in microseconds however many patterns the block holds;
//   - the start inside a block: the pattern at offset k is found digit by
//     digit, each digit the first whose count of kept completions exceeds
//     what is left of k (unranking).
//
// Kept, for a pattern p of length L on a space, is: every digit the lowest
// action of its class (classes), p not u^k for a shorter u (primitive),
// and no symmetry g of the space maps p to a lexicographically smaller
// pattern (canonicalOn). The last two are read digit by digit: a symmetry
// g is undecided while it fixes every digit so far, passed at the first
// digit x with g(x) > x and failed at the first with g(x) < x; so the
// automaton's state is the set of undecided symmetries. Primitivity is
// global, but "kept apart from primitivity" (call it P) holds of u^k
// exactly when it holds of u (the first digit a symmetry moves is in the
// first copy of u), so the kept patterns of length L are
//
//	Σ_{d | L} μ(L/d) · #{u of length d : P(u)}
//
// and with a prefix q given, the patterns u^(L/d) that begin with q are
// counted the same way: completions of q to length d when |q| ≤ d, else
// the single u = q[:d] when q repeats it and P(u).

// blockCounter counts the kept patterns of one space's blocks: the
// automaton of its symmetries and the completions from each of its
// states, by length.
type blockCounter struct {
	na       int
	digits   []int   // the lowest action of each class, in order
	moves    [][]int // the distinct symmetries, each an action map
	complete [][]int // complete[n][state]: kept completions of n digits
}

func newBlockCounter(s spaceEntry, na int) *blockCounter {
	bc := &blockCounter{na: na}
	for a := range na {
		if s.classes[a] == a {
			bc.digits = append(bc.digits, a)
		}
	}
	seen := map[string]bool{}
	for _, g := range s.symmetries {
		key := string(rune(len(g)))
		identity := true
		for a, b := range g {
			key += string(rune(b))
			identity = identity && a == b
		}
		if !identity && !seen[key] {
			seen[key] = true
			bc.moves = append(bc.moves, g)
		}
	}
	return bc
}

// dead is the automaton's state after a symmetry has failed: no
// completion is kept.
const dead = -1

// step is the state after digit x from state (a set of undecided
// symmetries, one bit each).
func (bc *blockCounter) step(state, x int) int {
	if state == dead {
		return dead
	}
	for i, g := range bc.moves {
		if state&(1<<i) == 0 {
			continue
		}
		switch {
		case g[x] < x:
			return dead
		case g[x] > x:
			state &^= 1 << i
		}
	}
	return state
}

// completions is the number of n-digit completions from state that are
// kept apart from primitivity.
func (bc *blockCounter) completions(n, state int) int {
	if state == dead {
		return 0
	}
	for len(bc.complete) <= n {
		m := len(bc.complete)
		row := make([]int, 1<<len(bc.moves))
		for s := range row {
			if m == 0 {
				row[s] = 1
				continue
			}
			for _, x := range bc.digits {
				if t := bc.step(s, x); t != dead {
					row[s] = addCount(row[s], bc.complete[m-1][t])
				}
			}
		}
		bc.complete = append(bc.complete, row)
	}
	return bc.complete[n][state]
}

// kept reports whether u is kept apart from primitivity: its digits are
// the classes' lowest and no symmetry maps it lower.
func (bc *blockCounter) kept(u []int) bool {
	state := 1<<len(bc.moves) - 1
	for _, x := range u {
		if !bc.isDigit(x) {
			return false
		}
		if state = bc.step(state, x); state == dead {
			return false
		}
	}
	return true
}

func (bc *blockCounter) isDigit(x int) bool {
	for _, d := range bc.digits {
		if d == x {
			return true
		}
	}
	return false
}

// count is the number of kept patterns of length L that begin with
// prefix.
func (bc *blockCounter) count(L int, prefix []int) int {
	all := 1<<len(bc.moves) - 1
	total := 0
	for d := 1; d <= L; d++ {
		if L%d != 0 {
			continue
		}
		mu := möbius(L / d)
		if mu == 0 {
			continue
		}
		var f int
		if len(prefix) <= d {
			if bc.kept(prefix) {
				state := all
				for _, x := range prefix {
					state = bc.step(state, x)
				}
				f = bc.completions(d-len(prefix), state)
			}
		} else if repeats(prefix, d) && bc.kept(prefix[:d]) {
			f = 1
		}
		total += mu * f
	}
	return total
}

// repeats reports whether p is a prefix of (p[:d])^∞.
func repeats(p []int, d int) bool {
	for i := d; i < len(p); i++ {
		if p[i] != p[i-d] {
			return false
		}
	}
	return true
}

// unrank returns the kept pattern of length L at offset k (from 0) in
// lexicographic order; k is below count(L, nil).
func (bc *blockCounter) unrank(L, k int) []int {
	p := make([]int, 0, L)
	for len(p) < L {
		for x := 0; ; x++ {
			if x == bc.na {
				panic("generate: unrank past the block's end")
			}
			c := bc.count(L, append(p, x))
			if k < c {
				p = append(p, x)
				break
			}
			k -= c
		}
	}
	return p
}

// addCount adds two counts of patterns, saturating rather than wrapping:
// a block that holds more patterns than an int counts is far beyond any
// bound the enumeration can reach (maxTables refuses those first).
func addCount(a, b int) int {
	if s := a + b; s >= a {
		return s
	}
	return int(^uint(0) >> 1)
}

// möbius is μ(n): 0 if a square divides n, else (−1)^(its prime factors).
func möbius(n int) int {
	mu := 1
	for p := 2; p*p <= n; p++ {
		if n%p == 0 {
			n /= p
			if n%p == 0 {
				return 0
			}
			mu = -mu
		}
	}
	if n > 1 {
		mu = -mu
	}
	return mu
}
