package lang

// PlainRule is one rule of an ordered expansion: a fixed left-hand side, and
// a right-hand side of symbols and memory recalls. It is the meaning of the
// sugared rule it came from (language reference, "Meaning of the sugar"):
// the compiler writes expansions with it, and the reference interpreter
// runs them.
type PlainRule struct {
	Pos         Pos      // the sugared rule it expands
	LHS         []string // symbols
	Terminating bool
	// MarkFrom and MarkTo delimit the LHS symbols stored in memory when the
	// rule fires (an element marked ^Δ); MarkFrom < 0 when nothing is.
	MarkFrom, MarkTo int
	RHS              []PlainItem
	// StoreWhole stores the whole string after the rewrite (Δ on the RHS).
	StoreWhole bool
}

// PlainItem is a symbol of a plain right-hand side, or ∇ when Recall.
type PlainItem struct {
	Sym    string
	Recall bool
}
