package env_test

import (
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// leanVariants are the settings a file may change that change a lean
// episode: the rewards, the cycle clause, the garbage phase, the cycle
// bound, declared cells and the reward value.
var leanVariants = []string{"", "set rewards lambda-one\n", "set cycle off\nset garbage off\n",
	"reward 1/8\nset cycle-bound 3\n", "place π 2\nplace ⊖ 1\n", "place ⊕ 2\nset cycle-bound 1\n",
	"set rewards lambda-one\nplace ⊕ 1\nreward 1\n", "set garbage off\nplace ⊕ 1\nplace ⊖ 2\n"}

// A LeanPlayer scores as an Episode of the agent does, bit for bit: on the
// corpus's environments that have a lean form and on rings of 2 to 40
// cells, each with every variant of leanVariants, for Random, Follower and
// Oracle, with many seeds and lengths (none, one, short and long), one
// LeanPlayer playing them all in turn. Package generate's tests do the
// same on thousands of enumerated environments, and its fuzzer through
// the filters.
func TestLeanPlaysAsAnEpisode(t *testing.T) {
	sources := map[string]string{}
	for _, name := range corpusEnvs {
		src, err := fs.ReadFile(corpus.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		sources[name] = string(src)
	}
	for _, n := range []int{2, 3, 5, 40} {
		sources[fmt.Sprintf("a ring of %d cells", n)] = ringSource(n) + "goodevil pattern r r l s\n"
	}
	p, lean := (*env.LeanPlayer)(nil), 0
	for name, src := range sources {
		for _, v := range leanVariants {
			e := loadSource(t, name, src+"\n"+v)
			l, ok := e.Lean()
			if !ok {
				continue
			}
			lean++
			if p == nil {
				p = env.NewLeanPlayer(l)
			}
			p.Reset(l)
			for _, who := range []string{"random", "follower", "oracle"} {
				newAgent, err := agent.Lookup(who, agent.DefaultSettings)
				if err != nil {
					t.Fatal(err)
				}
				rule, player := agent.RuleOf(newAgent()), env.NewPlayer(e)
				for i, steps := range []int{100, 0, 1, 37, 1000} {
					seed := env.EpisodeSeed(7, i)
					got := p.Episode(rule, seed, steps)
					want := player.Episode(newAgent(), seed).Run(steps, nil)
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("%s with %q, %s, seed %d, %d steps: LeanPlayer %v, Episode %v", name, v, who, seed, steps, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d environments with a lean form", lean)
	if lean < 20 {
		t.Fatalf("only %d environments have a lean form", lean)
	}
}

// Lean is the form of an environment without programs; only such
// environments have one.
func TestLeanOnlyWithoutPrograms(t *testing.T) {
	for _, tt := range []struct {
		name, decls string
		lean        bool
	}{
		{"a pattern", "goodevil pattern l\n", true},
		{"a program", "goodevil {\n\t->. l\n}\n", false},
		{"an object", "object ω1 {\n\t->. l\n}\ngoodevil pattern l\n", false},
		{"reward levels", "reward levels 1/2 1\ngoodevil pattern l\n", false},
	} {
		if _, ok := loadRing(t, 4, tt.decls).Lean(); ok != tt.lean {
			t.Errorf("%s: Lean() says %v, want %v", tt.name, ok, tt.lean)
		}
	}
}

// WithPattern refuses a pattern that is not one of the environment's
// actions, and plays as the environment loaded with that pattern does.
func TestLeanWithPattern(t *testing.T) {
	l, ok := loadRing(t, 5, "goodevil pattern r\n").Lean()
	if !ok {
		t.Fatal("no lean form")
	}
	for _, bad := range [][]int{nil, {3}, {0, -1}} {
		if _, err := l.WithPattern(bad); err == nil {
			t.Errorf("WithPattern(%v) gave no error", bad)
		}
	}
	other, err := l.WithPattern([]int{1, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := loadRing(t, 5, "goodevil pattern l l r\n").Lean()
	for i := range 20 {
		seed := env.EpisodeSeed(3, i)
		if got, want := env.NewLeanPlayer(other).Episode(env.OracleRule, seed, 50), env.NewLeanPlayer(want).Episode(env.OracleRule, seed, 50); got != want {
			t.Fatalf("seed %d: with the pattern %v, loaded %v", seed, got, want)
		}
	}
}

// A LeanPlayer plays the episodes of an environment without programs with
// an agent's rule, without the agent: here the follower's scores on a
// six-cell ring, as Evaluate gives them with agent.Follower.
func ExampleLeanPlayer() {
	src := "actions s l r\nspace thesis " + strings.Repeat("l-r+:", 5) + "l-r+\ngoodevil pattern r r l\n"
	f, err := lang.Parse("ring.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := env.Load(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	l, ok := e.Lean()
	if !ok {
		fmt.Println("no lean form")
		return
	}
	follower, err := agent.Lookup("follower", agent.DefaultSettings)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, ev := env.NewLeanPlayer(l), env.Evaluate(e, follower, 3, 100, 1, nil)
	for i, score := range ev.Scores {
		fmt.Printf("episode %d: %+.4f %+.4f\n", i, p.Episode(agent.RuleOf(follower()), env.EpisodeSeed(1, i), 100), score)
	}
	// Output:
	// episode 0: +0.4699 +0.4699
	// episode 1: +0.4875 +0.4875
	// episode 2: +0.4800 +0.4800
}

// The rules choose from π's row of the space (where each action leads),
// here actions s, l and r from cell 1 of a ring: the follower steps to
// Good's cell when it is in reach, else away from Evil; the greedy choice
// takes the cell that holds the most.
func ExampleFollowAction() {
	rng := random.New(1, 2)
	// s stays in cell 1, l leads to cell 0, r to cell 2.
	row := []int{1, 0, 2}
	// Good in cell 2: r.
	fmt.Println(env.FollowAction(rng, row, 2, 0))
	// Good out of reach, Evil in cell 0: anything but l.
	fmt.Println(env.FollowAction(rng, row, 5, 0) != 1)
	// Cell 0 holds the most: l.
	fmt.Println(env.GreedyAction(rng, row, []float64{0.5, -0.25, 0.125}))
	// Output:
	// 2
	// true
	// 1
}
