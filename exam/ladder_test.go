package exam_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/anynt/anynt/exam"
)

// poolOfPatterns loads n ring environments with Λ_one's rewards whose
// Good/Evil patterns grow longer, so that their description lengths
// increase with their index.
func poolOfPatterns(t *testing.T, n int) []exam.PoolEnv {
	t.Helper()
	var srcs []exam.Source
	for i := range n {
		pattern := "l"
		for k := range i {
			pattern += []string{" r", " l", " s"}[k%3]
		}
		text := "actions s l r\nspace table {\n\t1 3 2\n\t2 1 3\n\t3 2 1\n}\ngoodevil pattern " + pattern +
			"\nreward 1\nset rewards lambda-one\nset cycle off\nset garbage off\n"
		srcs = append(srcs, exam.Source{Name: fmt.Sprintf("p%02d.anynt", n-1-i), Text: []byte(text)})
	}
	pool, err := exam.LoadPool(srcs)
	if err != nil {
		t.Fatal(err)
	}
	return pool
}

// A pool is cut into at most MaxLevel levels of equal sizes by description
// length, simplest first; a rung is drawn within its level, the same for
// the same seed, step and level.
func TestPoolLadder(t *testing.T) {
	pool := poolOfPatterns(t, 20)
	l, err := exam.NewPoolLadder(pool)
	if err != nil {
		t.Fatal(err)
	}
	if l.Levels() != exam.MaxLevel {
		t.Fatalf("%d levels from 20 environments, want %d", l.Levels(), exam.MaxLevel)
	}
	bits := map[string]float64{}
	for _, p := range pool {
		bits[p.Name] = p.Bits
	}
	seen := make([]map[string]bool, l.Levels()+1)
	for level := 1; level <= l.Levels(); level++ {
		seen[level] = map[string]bool{}
		for number := 1; number <= 200; number++ {
			r, err := l.Rung(5, number, level)
			if err != nil {
				t.Fatal(err)
			}
			seen[level][r.Name] = true
			if again, _ := l.Rung(5, number, level); again.Name != r.Name {
				t.Fatalf("level %d, step %d: %s then %s", level, number, r.Name, again.Name)
			}
			if r.Bits != bits[r.Name] || r.Cells != 3 || r.Actions != 3 {
				t.Errorf("rung %+v does not describe %s", r, r.Name)
			}
		}
		if n := len(seen[level]); n < 2 || n > 3 { // 20 into 7: sizes 2 and 3
			t.Errorf("level %d drew %d environments; its share of 20 is 2 or 3", level, n)
		}
	}
	for level := 2; level <= l.Levels(); level++ {
		var below, here []float64
		for name := range seen[level-1] {
			below = append(below, bits[name])
		}
		for name := range seen[level] {
			here = append(here, bits[name])
		}
		if slices.Max(below) > slices.Min(here) {
			t.Errorf("level %d holds an environment of %v bits, below level %d's %v", level, slices.Min(here), level-1, slices.Max(below))
		}
	}
	if _, err := l.Rung(5, 1, l.Levels()+1); err == nil {
		t.Error("a rung above the top level was given")
	}
	three, err := exam.NewPoolLadder(pool[:3])
	if err != nil || three.Levels() != 3 {
		t.Errorf("a pool of 3: %v levels, %v; want 3", three, err)
	}
	if _, err := exam.NewPoolLadder(pool[:1]); !errors.Is(err, exam.ErrSmallPool) {
		t.Errorf("a pool of one: %v, want ErrSmallPool", err)
	}
}

// The adaptive test climbs a pool's ladder as it climbs Λ_one's: on
// patterns the oracle, which sees where Good goes, rises above the first
// level and the random agent does not.
func TestAdaptiveOnAPool(t *testing.T) {
	l, err := exam.NewPoolLadder(poolOfPatterns(t, 14))
	if err != nil {
		t.Fatal(err)
	}
	s := exam.DefaultAdaptive
	s.Tau, s.Ladder = 1000, l
	rs, err := exam.TakeAdaptive(builtIns(t, "random", "oracle"), s, 2)
	if err != nil {
		t.Fatal(err)
	}
	random, oracle := rs[0], rs[1]
	if oracle.MeanLevel <= 2 || random.MeanLevel >= oracle.MeanLevel || random.Score >= oracle.Score {
		t.Errorf("random: level %.2f, score %+.3f; oracle: level %.2f, score %+.3f", random.MeanLevel, random.Score, oracle.MeanLevel, oracle.Score)
	}
	for _, st := range oracle.Steps {
		if st.Level > l.Levels() || st.Cells != 3 {
			t.Errorf("step %+v is not a rung of the pool", st)
		}
	}
}

// Λ_one's ladder by K_approx: every rung of level ℓ has a K_approx in the
// level's band (9, 10, 11, 12-13, 14-16, 17-21, 22 and more) whatever its
// cells, which span 3…9 at every level; the same seed, step and level give
// the same exercise; and higher levels are more complex on average, the
// thing the cells ladder only assumes.
func TestKApproxLadder(t *testing.T) {
	bands := [][2]int{{9, 9}, {10, 10}, {11, 11}, {12, 13}, {14, 16}, {17, 21}, {22, 1 << 30}}
	var l exam.Ladder = exam.KApproxLadder{}
	if l.Levels() != len(bands) {
		t.Fatalf("%d levels, want %d", l.Levels(), len(bands))
	}
	for level := 1; level <= l.Levels(); level++ {
		cells := map[int]bool{}
		for number := 1; number <= 60; number++ {
			r, err := l.Rung(4, number, level)
			if err != nil {
				t.Fatal(err)
			}
			if r.KApprox < bands[level-1][0] || r.KApprox > bands[level-1][1] || r.Cells < 3 || r.Cells > 9 || r.Env.Space.Cells() != r.Cells {
				t.Errorf("level %d, step %d: K_approx %d, %d cells; want K_approx in %v and 3-9 cells", level, number, r.KApprox, r.Cells, bands[level-1])
			}
			if again, _ := l.Rung(4, number, level); again.Name != r.Name || again.KApprox != r.KApprox || again.Bits != r.Bits {
				t.Errorf("level %d, step %d: two draws differ", level, number)
			}
			cells[r.Cells] = true
		}
		if len(cells) < 4 {
			t.Errorf("level %d drew %d sizes of space in 60 rungs; the cells are not its measure", level, len(cells))
		}
	}
	if _, err := l.Rung(4, 1, 8); err == nil {
		t.Error("a rung above the top level was given")
	}
}

// Λ_one's ladder by K_approx: the first step's rung at each level, its
// K_approx in the level's band whatever its cells.
func ExampleKApproxLadder() {
	var l exam.KApproxLadder
	for level := 1; level <= l.Levels(); level++ {
		r, _ := l.Rung(1, 1, level)
		fmt.Printf("level %d: %s, K_approx %d, %d cells\n", level, r.Name, r.KApprox, r.Cells)
	}
	// Output:
	// level 1: adaptive-k:1/1/1, K_approx 9, 5 cells
	// level 2: adaptive-k:1/1/2, K_approx 10, 8 cells
	// level 3: adaptive-k:1/1/3, K_approx 11, 4 cells
	// level 4: adaptive-k:1/1/4, K_approx 12, 6 cells
	// level 5: adaptive-k:1/1/5, K_approx 16, 9 cells
	// level 6: adaptive-k:1/1/6, K_approx 20, 8 cells
	// level 7: adaptive-k:1/1/7, K_approx 22, 6 cells
}
