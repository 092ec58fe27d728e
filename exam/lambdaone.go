package exam

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
)

// Exercise is one environment of a Λ_one test.
type Exercise struct {
	Number  int     // 1…7, in the order they are given
	Cells   int     // n_c
	Actions int     // n_a; action 0 stays
	Steps   int     // m, the interactions of the exercise
	Dest    [][]int // Dest[c][a]: the cell action a leads to from c, from 0
	Pattern []int   // Good and Evil's cyclic actions
	// Place holds the starting cells of π, Good and Evil, from 0.
	Place [3]int
	// KApprox is the zlib length, in bytes, of the pattern's digits.
	KApprox int
}

// lambdaOneCells are the cell counts of the seven exercises (Table 1 of
// seeds 002 and 003).
var lambdaOneCells = []int{3, 4, 5, 6, 7, 8, 9}

// LambdaOne draws the seven exercises of the Λ_one test of seed.
func LambdaOne(seed uint64) []Exercise {
	rng := rand.New(rand.NewPCG(seed, 0x4c616d6264614f6e)) // "LambdaOn"
	out := make([]Exercise, len(lambdaOneCells))
	for i, cells := range lambdaOneCells {
		out[i] = drawExercise(rng, i+1, cells)
	}
	return out
}

// drawExercise draws one exercise of cells cells from rng, in the order
// the protocol fixes: actions, space, pattern, placement. The adaptive test
// draws its environments with it too, one level at a time.
func drawExercise(rng *rand.Rand, number, cells int) Exercise {
	x := Exercise{Number: number, Cells: cells, Steps: 10 * (cells - 1)}
	x.Actions = 2 + rng.IntN(cells-1)
	x.Dest = drawSpace(rng, cells, x.Actions)
	x.Pattern = drawPattern(rng, cells, x.Actions)
	x.Place[0] = rng.IntN(cells)
	x.Place[1] = rng.IntN(cells)
	x.Place[2] = rng.IntN(cells - 1)
	if x.Place[2] >= x.Place[1] { // Evil apart from Good, uniformly
		x.Place[2]++
	}
	x.KApprox = complexity.ZlibLength(digits(x.Pattern), 6)
	return x
}

// drawSpace draws destinations uniformly, action 0 staying, until the
// space is valid for the class.
func drawSpace(rng *rand.Rand, cells, actions int) [][]int {
	dest := make([][]int, cells) // refilled at each draw: most are refused
	for c := range dest {
		dest[c] = make([]int, actions)
	}
	entered := make([]bool, cells)
	for {
		for c := range dest {
			dest[c][0] = c
			for a := 1; a < actions; a++ {
				dest[c][a] = rng.IntN(cells)
			}
		}
		if !surelyInvalid(dest, entered) {
			if s := (env.Space{Dest: dest}); len(s.Check()) == 0 {
				return dest
			}
		}
	}
}

// surelyInvalid is a quick test that a space fails env.Space.Check, so
// that most refused draws cost no allocation: a cell whose arrows all loop,
// or that no other cell leads to, is refused by Check too (every arrow
// loops, or the space is not strongly connected). It decides nothing
// else; a space it lets through goes to Check. entered is scratch, a flag
// a cell.
func surelyInvalid(dest [][]int, entered []bool) bool {
	clear(entered)
	for c, row := range dest {
		leaves := false
		for _, d := range row {
			if d != c {
				leaves, entered[d] = true, true
			}
		}
		if !leaves {
			return true
		}
	}
	return slices.Contains(entered, false)
}

// drawPattern draws actions uniformly, stopping after each with
// probability 1/cells: a geometric length of mean cells.
func drawPattern(rng *rand.Rand, cells, actions int) []int {
	var p []int
	for {
		p = append(p, rng.IntN(actions))
		if rng.IntN(cells) == 0 {
			return p
		}
	}
}

func digits(p []int) []byte {
	b := make([]byte, len(p))
	for i, a := range p {
		b[i] = byte('0' + a)
	}
	return b
}

// Source writes the exercise as an environment file: actions a0…, the space
// as a table, Good and Evil's pattern, the placements and the Λ_one
// settings. Its header names the test's seed, the exercise, its steps
// and K_approx, and the toolchain version that wrote it.
func (x Exercise) Source(seed uint64, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Λ_one test of seed %d, exercise %d of %d (anynt %s): %d cells, %d actions,\n",
		seed, x.Number, len(lambdaOneCells), version, x.Cells, x.Actions)
	fmt.Fprintf(&b, "# %d interactions, pattern %s (K_approx %d bytes of zlib).\n", x.Steps, digits(x.Pattern), x.KApprox)
	b.WriteString("actions")
	for a := range x.Actions {
		fmt.Fprintf(&b, " a%d", a)
	}
	b.WriteString("\nspace table {\n")
	for _, row := range x.Dest {
		b.WriteString("\t")
		for a, d := range row {
			if a > 0 {
				b.WriteString(" ")
			}
			fmt.Fprintf(&b, "%d", d+1)
		}
		b.WriteString("\n")
	}
	b.WriteString("}\ngoodevil pattern")
	for _, a := range x.Pattern {
		fmt.Fprintf(&b, " %d", a)
	}
	fmt.Fprintf(&b, "\nreward 1\nplace π %d\nplace ⊕ %d\nplace ⊖ %d\nset rewards lambda-one\nset cycle off\nset garbage off\n",
		x.Place[0]+1, x.Place[1]+1, x.Place[2]+1)
	return b.String()
}
