package generate_test

import (
	"fmt"
	"testing"

	"github.com/anynt/anynt/generate"
)

// lopsided is a three-cell environment in which the random agent spends
// 0.4 of its time in cell 3 and 0.2 in cell 2 (two of cell 3's three
// actions stay, one of cell 2's), with Good and Evil still, no swaps and
// Λ_one rewards of 1/2: the random agent's mean tends to −0.1 with Evil in
// cell 3 and to +0.1 with Good there, many standard errors from 0.
func lopsided(good, evil int) string {
	return fmt.Sprintf(`actions s a b
space table {
  1 2 3
  2 1 1
  3 3 1
}
goodevil pattern s
set garbage off
set cycle off
set rewards lambda-one
place π 1
place ⊕ %d
place ⊖ %d
`, good, evil)
}

// TestUnbalancedEitherWayIsRejected: balance is two-sided. An environment
// whose random agent scores below 0 is as unbalanced as one where it
// scores above, by the sequential test and the fixed budget, on lean
// episodes and through env's machine.
func TestUnbalancedEitherWayIsRejected(t *testing.T) {
	fixed := generate.DefaultFilters
	fixed.Sequential = false
	for _, c := range []struct {
		name       string
		src        string
		randomSign float64
	}{
		{"random below 0 (Evil where it stays)", lopsided(2, 3), -1},
		{"random above 0 (Good where it stays)", lopsided(3, 2), +1},
	} {
		for _, s := range []generate.FilterSettings{generate.DefaultFilters, fixed} {
			for _, check := range []struct {
				name string
				run  func(string, string, generate.FilterSettings) (generate.Verdict, error)
			}{{"Check", generate.Check}, {"CheckPlain", generate.CheckPlain}} {
				v, err := check.run("lopsided.anynt", c.src, s)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s, %s, sequential %v", c.name, check.name, s.Sequential)
				if v.Accepted || v.Reason != generate.ReasonUnbalanced {
					t.Errorf("%s: %v (random %+.4f %v), want rejected as unbalanced", where, v, v.Random.Mean, v.Random.CI95)
				}
				if v.Random.Mean*c.randomSign < 0.03 {
					t.Errorf("%s: random's mean is %+.4f; the test's environment lost its bias", where, v.Random.Mean)
				}
			}
		}
	}
}
