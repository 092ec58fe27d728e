package lang

// File is a parsed rule file: its declarations in source order. The
// top-level rules and uses are the main algorithm, in priority order; an
// alphabet and named rule blocks may stand among them.
type File struct {
	Name     string
	Decls    []Decl
	Comments []*Comment // kept so that the formatter can print them again
}

// Decl is a top-level declaration: *Alphabet, *Block, *Rule, *Use, or one
// of an environment's: *Actions, *SpaceCode, *Pattern, *Setting.
type Decl interface{ Pos() Pos }

// Comment is a `#` comment, Text without the '#'.
type Comment struct {
	At   Pos
	Text string
}

// Alphabet returns the alphabet declaration, or nil.
func (f *File) Alphabet() *Alphabet {
	for _, d := range f.Decls {
		if a, ok := d.(*Alphabet); ok {
			return a
		}
	}
	return nil
}

// Rules returns the main algorithm: the top-level rules and uses in order.
func (f *File) Rules() []Entry {
	n := 0
	for _, d := range f.Decls {
		switch d.(type) {
		case *Rule, *Use:
			n++
		}
	}
	out := make([]Entry, 0, n)
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Rule, *Use:
			out = append(out, d)
		}
	}
	return out
}

// Block returns the shared block named name, or nil.
func (f *File) Block(name string) *Block {
	for _, d := range f.Decls {
		if b, ok := d.(*Block); ok && b.Kind == SharedBlock && b.Name == name {
			return b
		}
	}
	return nil
}

// Alphabet lists the symbols χ ranges over, in the order the expansion uses.
type Alphabet struct {
	At      Pos
	Symbols []*Symbol
}

// Block is a braced list: a shared rule list that other rule lists include
// with `use` (block NAME), an object's behaviour (object NAME), the Good/Evil
// behaviour (goodevil), a space generator (space generator) or a space's
// arrow table (space table).
type Block struct {
	At      Pos
	End     Pos // of the closing brace
	Kind    BlockKind
	Name    string  // of a shared block or an object
	Dialect string  // of the code a generator writes: "thesis" or "paper"
	Rules   []Entry // of every kind but a table
	Rows    []*Row  // of a table
}

// BlockKind says what a block is.
type BlockKind uint8

const (
	SharedBlock BlockKind = iota
	ObjectBlock
	GoodEvilBlock
	GeneratorBlock
	TableBlock
)

// Row is one cell of a space table: the destinations of its arrows, in
// action order, as cell numbers from 1.
type Row struct {
	At    Pos
	Dests []int
}

// Actions declares an environment's actions, the stay action first.
type Actions struct {
	At    Pos
	Names []*Symbol
}

// SpaceCode gives a space as a code in one of the papers' dialects: "thesis"
// (cells separated by ':', an action followed by its offset in signs) or
// "paper" (a sign followed by the action repeated offset times).
type SpaceCode struct {
	At      Pos
	Dialect string
	Code    []*Symbol
}

// Pattern gives Good and Evil a cyclic action pattern instead of a
// program, as in the Λ_one experiments: action names or indices from 0.
type Pattern struct {
	At      Pos
	Actions []*Symbol
}

// Setting is `reward …`, `place …` or `set …`, with its words.
type Setting struct {
	At   Pos
	Key  string
	Args []string
}

// Entry is one line of a rule list: a *Rule or a *Use.
type Entry interface{ Pos() Pos }

// Use includes the rules of a named block (of this file or of the standard
// library) at this point of a rule list.
type Use struct {
	At   Pos
	Name string
}

// Rule is LHS -> RHS, or LHS ->. RHS when Terminating.
type Rule struct {
	At          Pos
	LHS, RHS    []Elem
	Terminating bool
}

// Elem is one element of a rule side: *Symbol, *Group, *Wildcard, *Store or
// *Recall.
type Elem interface{ Pos() Pos }

// Symbol is one symbol: a character with an optional subscript, as in `ω1`,
// `A12`, `E_I`. Name is the canonical spelling (Unicode, subscript of digits
// without underscore). Marked is the LHS mark `^Δ`.
type Symbol struct {
	At     Pos
	Name   string
	Marked bool
}

// Group is `( a | b )` or, when Optional, `[ a | b ]`. Bind is the subscript
// written right after the closing bracket ("" when none): every occurrence
// with the same subscript is the same choice.
type Group struct {
	At       Pos
	Alts     [][]Elem
	Optional bool
	Bind     string
	Marked   bool
}

// Wildcard is χ, any one symbol of the alphabet, or `(χ ∉ {…})`, any one but
// those in Except. Bind is its subscript ("" when none).
type Wildcard struct {
	At        Pos
	Bind      string
	HasExcept bool
	Except    []*Symbol
	Marked    bool
}

// Store is Δ on a right-hand side: after the rewrite, the whole string is
// stored in the machine's memory.
type Store struct{ At Pos }

// Recall is ∇ on a right-hand side: it writes the last stored string.
type Recall struct{ At Pos }

func (n *Alphabet) Pos() Pos  { return n.At }
func (n *Actions) Pos() Pos   { return n.At }
func (n *SpaceCode) Pos() Pos { return n.At }
func (n *Pattern) Pos() Pos   { return n.At }
func (n *Setting) Pos() Pos   { return n.At }
func (n *Block) Pos() Pos     { return n.At }
func (n *Use) Pos() Pos       { return n.At }
func (n *Rule) Pos() Pos      { return n.At }
func (n *Symbol) Pos() Pos    { return n.At }
func (n *Group) Pos() Pos     { return n.At }
func (n *Wildcard) Pos() Pos  { return n.At }
func (n *Store) Pos() Pos     { return n.At }
func (n *Recall) Pos() Pos    { return n.At }
