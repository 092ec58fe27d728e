package env_test

import (
	"fmt"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
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
