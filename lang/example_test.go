package lang_test

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/lang"
)

// Parse reads a rule file into its tree; every node keeps its position.
// This is ω1's behaviour in the thesis's worked example
// (corpus/thesis/omega1.anynt).
func ExampleParse() {
	src := `S (L|R)^Δ -> S
π [⊙] ω1 -> ∇ Φ
π (χ ∉ {L, R, :}) -> π
π (L|R)^Δ ->
RΦ ->. l
LΦ ->. r
->. s
`
	f, err := lang.Parse("omega1.anynt", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range f.Rules() {
		fmt.Printf("%s  %s\n", e.Pos(), lang.RuleString(e.(*lang.Rule)))
	}
	// Output:
	// omega1.anynt:1:1  S (L|R)^Δ -> S
	// omega1.anynt:2:1  π [⊙] ω1 -> ∇ Φ
	// omega1.anynt:3:1  π (χ ∉ {L, R, :}) -> π
	// omega1.anynt:4:1  π (L|R)^Δ ->
	// omega1.anynt:5:1  RΦ ->. l
	// omega1.anynt:6:1  LΦ ->. r
	// omega1.anynt:7:1  ->. s
}

// A syntax error is positioned.
func ExampleParse_error() {
	_, err := lang.Parse("bad.anynt", []byte("a -> (b\n"))
	fmt.Println(err)
	// Output:
	// bad.anynt:1:6: ( is not closed
}

// Spellings lists the ASCII spellings of the special characters, which a
// rule file may use instead of them (\pi for π); here those of the
// papers' special symbols.
func ExampleSpellings() {
	for _, s := range lang.Spellings() {
		if strings.ContainsRune("π⊕⊖⊙Δ∇χ∉", s.Char) {
			fmt.Printf("\\%s %c\n", s.Name, s.Char)
		}
	}
	// Output:
	// \Delta Δ
	// \chi χ
	// \nabla ∇
	// \notin ∉
	// \odot ⊙
	// \ominus ⊖
	// \oplus ⊕
	// \pi π
}
