package exam

import (
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// TestSurelyInvalidOnlyRefusesInvalid draws 200,000 spaces of 2 to 9
// cells as drawSpace does, and some that break the stay rule too: every
// space surelyInvalid refuses env.Space.Check refuses, so the quick test
// changes no draw, and it refuses most of the invalid ones.
func TestSurelyInvalidOnlyRefusesInvalid(t *testing.T) {
	rng := random.New(13, 5)
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
