package bigsource

import (
	"strconv"
	"strings"
)

// forms are the corpus's rule shapes, one or a few lines of a rule file
// each; $1 to $4 stand for symbols and $5 for a block name. Plain rules of a
// few symbols come most often, as in large hand-written rule files (about
// ten bytes a rule).
var forms = []string{
	"$1$2 -> $3$1",
	"$1 ->. $2",
	"$1$2 -> $3",
	"$1 (χ ∉ {a, $2, :}) -> $1 # a comment after a rule",
	"$1$2$3 -> $4",
	"$1 -> $2$3",
	"$1 ($2|$3)1 -> ($2|$3)1 $1",
	"$1$2 -> $2$1",
	"[$2|$3] $1 ($4|$2) $3 -> $3",
	"$1$2 ->",
	"S ($1|$2)^Δ -> S",
	"$1 -> $3$4",
	"π [⊙] $1 -> ∇ Φ",
	"$3$2 ->. $1",
	"Φ_I Φ_F -> H Δ",
	"$1$2 -> $1",
	`\pi \odot $2 \to $3\nabla`,
	"",
	"$4 -> $2",
	"# the rules of $5",
	"block $5 {\n$1$2 -> $3\n  $2  ->.$4\n}\nuse $5",
	"$1$3 -> $2",
	"[(χ1 ∉ {a, π})] $1 (π|⊙)2 -> (π|⊙)2 [χ1]",
	"$1 $2^Δ -> ; $3 ->. $4$4",
	"$2$1 -> $1",
	"-> $1",
}

// symbols is the pool the forms draw from: letters, letters with a
// subscript, and a few Greek letters; with the forms' own symbols the file
// has fewer than 256.
var symbols = func() []string {
	var out []string
	for _, base := range []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"} {
		for _, c := range base {
			out = append(out, string(c), string(c)+"1", string(c)+"2")
		}
	}
	return append(out, "ω1", "ω2", "ψ", "φ")
}()

// Rules returns a rule file of at least size bytes (a whole line more).
func Rules(size int) []byte {
	var b strings.Builder
	b.Grow(size + 256)
	b.WriteString("# a generated rule file (internal/bigsource)\nalphabet a b π ⊙\n\n")
	x := uint32(1)
	pick := func() string {
		x = x*1664525 + 1013904223 // a fixed LCG: the file depends on size alone
		return symbols[(x>>8)%uint32(len(symbols))]
	}
	for i := 0; b.Len() < size; i++ {
		form := forms[i%len(forms)]
		args := [...]string{pick(), pick(), pick(), pick(), "b" + strconv.Itoa(i)}
		for j := 0; j < len(form); j++ {
			if form[j] == '$' {
				j++
				b.WriteString(args[form[j]-'1'])
				continue
			}
			b.WriteByte(form[j])
		}
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// mistakes are lines a rule file must not have: syntax errors, errors of
// meaning, bad escapes and bytes, and declarations out of place.
var mistakes = []string{
	"(a -> b", "a -> χ", "a . b -> c", "x1 (y|z)2 -> (y|z)3", `\unknown -> a`,
	"(χ ∉ {a,,b}) -> ", "alphabet q", "}", "use nothing", "a -> b^Δ", "Δ -> ∇",
	"[a]^Δ b^Δ -> ", "a ->", "a -> (b|c)", "a\xff -> b", "block b0 {",
}

// Mistaken returns Rules(size) with one line in 997 replaced by a mistake,
// for tests that errors stay the same and positioned on a large file.
func Mistaken(size int) []byte {
	lines := strings.SplitAfter(string(Rules(size)), "\n")
	for i := 500; i < len(lines); i += 997 {
		lines[i] = mistakes[(i/997)%len(mistakes)] + "\n"
	}
	return []byte(strings.Join(lines, ""))
}

// Dense returns a rule file of at least size bytes of the shortest rules,
// two letters rewritten to two (ab -> ca), about nine bytes a rule: the
// densest file the front end's figures are measured on (5 MB, about
// 520,000 rules; README, Performance), at which the AST, not the text, is
// most of the memory.
func Dense(size int) []byte {
	var b strings.Builder
	b.Grow(size + 16)
	x := uint32(1)
	letter := func() byte {
		x = x*1664525 + 1013904223
		const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		return letters[(x>>8)%uint32(len(letters))]
	}
	for b.Len() < size {
		a := letter()
		b.Write([]byte{a, letter(), ' ', '-', '>', ' ', letter(), a, '\n'})
	}
	return []byte(b.String())
}
