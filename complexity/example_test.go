package complexity_test

import (
	"fmt"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// The description length of an environment, part by part: the source and
// what the loader made of it are all the code needs. Kt^max would also need
// a run, which the caller makes and hands over (complexity.Run).
func ExampleEnvironment() {
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
	parts := complexity.Environment(f, e)
	for _, p := range parts {
		fmt.Printf("%s: %.2f\n", p.Name, p.Bits)
	}
	fmt.Printf("total: %.2f bits\n", complexity.Total(parts))
	// Output:
	// actions: 4.00
	// space: 108.62
	// objects: 1.00
	// good/evil: 9.75
	// shared blocks: 1.00
	// rewards: 1.00
	// placement: 3.00
	// settings: 1.00
	// total: 129.38 bits
}

// A bare rule file is charged its alphabet and its rules.
func ExampleOfRuleFile() {
	f, err := lang.Parse("flee.anynt", []byte("RΦ ->. l\nLΦ ->. r\n->. s\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	r := complexity.OfRuleFile(f, []string{"R", "Φ", "l", "L", "r", "s"}, complexity.Run{MaxSteps: 1, Interactions: 1})
	fmt.Printf("%s: %.2f bits, Kt^max %.2f\n", r.File, r.Bits, r.KtBits)
	// Output:
	// flee.anynt: 67.09 bits, Kt^max 67.09
}
