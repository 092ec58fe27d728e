package vm

import "strconv"

// Program is a compiled Markov algorithm. Strings are byte slices of symbol
// codes: a program and the strings it runs on use at most 256 distinct
// symbols, which keeps the machine's strings flat and lets it search them
// with the standard library's byte search.
type Program struct {
	// Symbols names each code. Codes 0..AlphabetSize-1 are the alphabet that
	// χ ranges over, in the alphabet's order; higher codes are symbols that
	// may occur in strings but that χ never matches.
	Symbols      []string
	AlphabetSize int
	Rules        []Rule
	Code         []Instr  // matcher and writer code of every rule
	Literals     []byte   // symbol runs that OpLit and OpEmit refer to
	Sets         []SymSet // exclusion sets of OpAny; Sets[0] is empty
	NumCaptures  int      // most captures any rule uses
}

// Rule is one rule of the algorithm, in priority order.
type Rule struct {
	Pos         Pos // where the rule was written
	Terminating bool
	// Plain rules have a fixed left-hand side, Literal (possibly empty);
	// the machine finds it with a byte search and runs no matcher code.
	Plain   bool
	Literal []byte
	Match   int // pc of the matcher code, when !Plain
	Write   int // pc of the writer code of the right-hand side
	// Store is the capture whose text the rule stores in memory when it
	// fires (an LHS element marked ^Δ), or -1; always -1 for a plain rule.
	Store int
	// StoreWhole stores the whole string after the rewrite (Δ on the RHS).
	StoreWhole bool
}

// Pos is where a rule was written: its file, and its line and column
// (counted in characters), both from 1. The compiler copies it from the
// parser's position; vm keeps a type of its own so that running a program
// does not link the parser in.
type Pos struct {
	File      string
	Line, Col int
}

// String is file:line:col, or line:col when the file has no name.
func (p Pos) String() string {
	lc := strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	if p.File == "" {
		return lc
	}
	return p.File + ":" + lc
}

// SymSet is a set of symbol codes.
type SymSet [4]uint64

// Has reports whether c is in the set.
func (s *SymSet) Has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Add puts c in the set.
func (s *SymSet) Add(c byte) { s[c>>6] |= 1 << (c & 63) }

func (s *SymSet) intersect(t *SymSet) {
	for i := range s {
		s[i] &= t[i]
	}
}

// Op is an instruction's operation.
type Op uint8

// Matcher instructions run at one start position of the string, with
// backtracking. The first successful path through the code is the
// lowest-ranked expansion matching there: OpSplit tries its fall-through
// branch first, so options are tried in the order of the ordered expansion
// (present before absent, alternatives in written order, χ in alphabet
// order). Every choice made on the way is recorded (0 or 1 for OpSplit, the
// symbol code for OpAny); two matches are compared by these records,
// lexicographically, to find the lowest-ranked expansion over all positions.
//
// Captures: capture k is the span between slots 2k and 2k+1; -1 is unbound.
const (
	OpSym     Op = iota // match symbol A
	OpLit               // match Literals[A:A+B]
	OpAny               // match one symbol c < AlphabetSize with !Sets[A].Has(c); record c
	OpSplit             // choice point: try pc+1 (record 0); on failure, pc A (record 1)
	OpJmp               // continue at pc A
	OpSave              // slot A = current position (undone on backtrack)
	OpBackref           // match the text of capture A again (the empty string if unbound)
	OpMatch             // success: the match ends at the current position

	// Writer instructions build the right-hand side.
	OpEmit        // write Literals[A:A+B]
	OpEmitCapture // write the text of capture A (nothing if unbound)
	OpEmitMemory  // write the memory register as it was before this step
	OpSkipUnbound // if capture A is unbound, continue at pc B
	OpDone        // end of the right-hand side
)

// Instr is one instruction.
type Instr struct {
	Op   Op
	A, B int32
}
