package env_test

import (
	"fmt"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// Evaluate plays episodes of an agent in an environment, spread over the
// cores, and summarises the scores; the seed decides every random choice.
// Here a six-cell ring where Good and Evil follow the pattern r r l, and the
// random agent, whose mean score is close to 0, as balance requires.
func ExampleEvaluate() {
	src := `actions s l r
space thesis lr+:l-r+:l-r+:l-r+:l-r+:l-r
goodevil pattern r r l
`
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
	random, err := agent.Lookup("random", agent.DefaultSettings)
	if err != nil {
		fmt.Println(err)
		return
	}
	ev := env.Evaluate(e, random, 200, 100, 1, nil)
	fmt.Printf("%d episodes, mean %+.3f, 95%% CI [%+.3f, %+.3f]\n", len(ev.Scores), ev.Mean, ev.CI95[0], ev.CI95[1])
	// Output:
	// 200 episodes, mean -0.002, 95% CI [-0.006, +0.002]
}

// Check checks a parsed file as anynt check does: here an environment that
// loads, whose Good/Evil writes the marker R where the action r was meant,
// which the lint warns about.
func ExampleCheck() {
	src := `actions s l r
space thesis lr+:l-r+:l-r
goodevil {
	χ ->. R
}
`
	f, err := lang.Parse("marker.anynt", []byte(src))
	isEnv, warns, err := env.Check(f, err)
	fmt.Println(isEnv, err)
	for _, w := range warns {
		fmt.Println(w)
	}
	// Output:
	// true <nil>
	// marker.anynt:4:8: Good/Evil writes R, the observation marker of action r, and never an action: did you mean r?
}

// LoadUnit makes one behaviour of an environment a rule file of its own,
// with the alphabet prefix the environment compiles it with: the markers,
// π ⊕ ⊖ ⊙, the objects, ':', the actions.
func ExampleLoadUnit() {
	src := `actions s l r
space thesis lr+:l-r+:l-r
object ω1 {
	π ->. l
}
goodevil pattern r l
`
	f, err := lang.Parse("unit.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	var block *lang.Block
	for _, d := range f.Decls {
		if b, ok := d.(*lang.Block); ok && b.Kind == lang.ObjectBlock {
			block = b
		}
	}
	u, err := env.LoadUnit(f, block)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Prefix, len(u.File.Rules()))
	// Output:
	// [S L R π ⊕ ⊖ ⊙ ω1 : s l r] 1
}

// Observe builds the observation an object is given with everything in
// chosen cells, as an episode builds it, and Decide reads a run's output
// as an episode does: here ω1, in cell 2 of a ring of three, sees π with
// Good in the cell its action l leads to, runs its behaviour, and moves.
func ExampleEnv_Observe() {
	src := `actions s l r
space thesis l-r+:l-r+:l-r+
object ω1 {
	π [⊙] L ->. l
	->. s
}
goodevil pattern r
`
	f, err := lang.Parse("chase.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := env.Load(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	ω1 := 3                  // π, ⊕, ⊖, then the objects
	pos := []int{0, 0, 2, 1} // cells from 0: π and ⊕ in cell 1, ⊖ in 3, ω1 in 2
	obs, err := e.Observe(pos, ω1)
	if err != nil {
		fmt.Println(err)
		return
	}
	prog := e.Program(ω1)
	out, res := vm.New(prog).Run(obs, e.RunOptions())
	d := e.Decide(ω1, pos[ω1], out)
	fmt.Println(prog.Text(obs))
	fmt.Println(prog.Text(out), res.Halt)
	fmt.Println(e.Actions[d.Action], "to cell", d.Dest+1)
	// Output:
	// π⊙L:ω1S:⊙R:
	// l:ω1S:⊙R: terminated
	// l to cell 1
}
