package vm

// Programs shared by the tests and benchmarks. Each comment gives the rules
// in the language's notation.

// binaryToUnary converts a binary number to unary, in leftmost mode:
//
//	| 0 -> 0 | |
//	1 -> 0 |
//	0 ->
func binaryToUnary(a *asm) {
	a.plain("| 0", "0 | |")
	a.plain("1", "0 |")
	a.plain("0", "")
}

// alternation prefers its first alternative wherever it occurs:
//
//	(x|y)1 a ->. z (x|y)1
func alternation(a *asm) {
	a.sugared(
		code(save(0), split(4), a.sym("x"), jmp(5), a.sym("y"), save(1), a.sym("a"), match()),
		code(a.emit("z"), emitCap(0), done()),
		terminating)
}

// thesisFixture is the example of the ordered expansion in the design notes,
// over the alphabet A1 A2 π ⊙:
//
//	[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]
func thesisFixture(a *asm) {
	a.sugared(
		code(
			split(4), save(0), a.any("A1 π"), save(1), // [(χ1 ∉ {A1, π})]
			a.sym("A1"),
			save(2), split(9), a.sym("π"), jmp(10), a.sym("⊙"), save(3), // (π|⊙)2
			match()),
		code(emitCap(1), skipUnbound(0, 3), emitCap(0), done()))
}

// thesisFixtureExpansion is thesisFixture's ordered expansion, as the notes
// list it.
func thesisFixtureExpansion(a *asm) {
	a.plain("A2 A1 π", "π A2")
	a.plain("A2 A1 ⊙", "⊙ A2")
	a.plain("⊙ A1 π", "π ⊙")
	a.plain("⊙ A1 ⊙", "⊙ ⊙")
	a.plain("A1 π", "π")
	a.plain("A1 ⊙", "⊙")
}

// boundChoice repeats a bound choice around an optional part, over the
// alphabet x y z w:
//
//	(x|y)1 [z] (x|y)1 -> w (x|y)1
//	z -> x z
//
// The second rule makes runs long, and step-limited.
func boundChoice(a *asm) {
	a.sugared(
		code(
			save(0), split(4), a.sym("x"), jmp(5), a.sym("y"), save(1),
			split(8), a.sym("z"),
			backref(0), match()),
		code(a.emit("w"), emitCap(0), done()))
	a.plain("z", "x z")
}

func boundChoiceExpansion(a *asm) {
	a.plain("x z x", "w x")
	a.plain("x x", "w x")
	a.plain("y z y", "w y")
	a.plain("y y", "w y")
	a.plain("z", "x z")
}

// sortABC sorts a string of a, b, c, one swap per step:
//
//	(b|c)1 a -> a (b|c)1
//	c b -> b c
func sortABC(a *asm) {
	a.sugared(
		code(save(0), split(4), a.sym("b"), jmp(5), a.sym("c"), save(1), a.sym("a"), match()),
		code(a.emit("a"), emitCap(0), done()))
	a.plain("c b", "b c")
}

func sortABCExpansion(a *asm) {
	a.plain("b a", "a b")
	a.plain("c a", "a c")
	a.plain("c b", "b c")
}

// sortAny sorts by the alphabet's order with χ, storing each symbol it moves
// and writing the memory at the end, over the alphabet p q r and the
// terminator $ (not in the alphabet):
//
//	(χ1 ∉ {p})^Δ p -> p χ1
//	(χ1 ∉ {p, q})^Δ q -> q χ1
//	$ ->. ∇ $
func sortAny(a *asm) {
	a.sugared(
		code(save(0), a.any("p"), save(1), a.sym("p"), match()),
		code(a.emit("p"), emitCap(0), done()),
		store(0))
	a.sugared(
		code(save(0), a.any("p q"), save(1), a.sym("q"), match()),
		code(a.emit("q"), emitCap(0), done()),
		store(0))
	a.plain("$", "∇ $", terminating)
}

// overlapping has alternatives that overlap, of different lengths, and an
// optional part after them, over the alphabet a b c d:
//
//	(a b|a|b a b)1 [c] -> d (a b|a|b a b)1
func overlapping(a *asm) {
	a.sugared(
		code(
			save(0), split(4), a.lit("a b"), jmp(8), // (a b
			split(7), a.sym("a"), jmp(8), //           |a
			a.lit("b a b"), save(1), //                |b a b)1
			split(11), a.sym("c"), //                  [c]
			match()),
		code(a.emit("d"), emitCap(0), done()))
}

func overlappingExpansion(a *asm) {
	a.plain("a b c", "d a b")
	a.plain("a b", "d a b")
	a.plain("a c", "d a")
	a.plain("a", "d a")
	a.plain("b a b c", "d b a b")
	a.plain("b a b", "d b a b")
}

// twoWildcards has a fixed symbol after two χ, over the alphabet a b c:
//
//	χ1 χ2 a [b] -> χ2 b χ1
func twoWildcards(a *asm) {
	a.sugared(
		code(
			save(0), a.any(""), save(1), save(2), a.any(""), save(3),
			a.sym("a"), split(9), a.sym("b"),
			match()),
		code(emitCap(1), a.emit("b"), emitCap(0), done()))
}

func twoWildcardsExpansion(a *asm) {
	for _, x := range []string{"a", "b", "c"} {
		for _, y := range []string{"a", "b", "c"} {
			a.plain(x+" "+y+" a b", y+" b "+x)
			a.plain(x+" "+y+" a", y+" b "+x)
		}
	}
}
