package vm

import "bytes"

// A scanner finds, in one pass over a short string, the first literal of
// the expanded rules that occurs, in rule order then expansion order: an
// Aho–Corasick automaton over every literal of every expanded rule, each
// state knowing the lowest-ranked literal that ends there. On strings of a
// few dozen symbols, one pass costs less than searching for the rules one
// by one, which is what the machine does on longer strings.

// The scanner serves every string of up to scanMaxLen symbols. A scan
// resumes where the last rewrite began, so on a longer string, up to
// scanFarLen symbols, it still wins while that is at most scanResumeMax
// symbols from the end, as it is when rewrites happen at the right
// (Machine.scannable). Otherwise byte searches for each literal win: they
// skip symbols many at a time, where the automaton steps through each.
// corpus.BenchmarkLongStrings measures both sides.
const (
	scanMaxLen    = 64
	scanFarLen    = 512
	scanResumeMax = 16
)

// Building the scanner. A machine does not build its scanner when it is
// made but during a run, once its searches without it have cost about what
// building it would: until then it finds the rules one by one, as it does
// on long strings. A machine that runs little, such as that of a rule file
// of half a million rules run once on a short input, never pays for it
// (its scanner would be a third of what running a 5 MB file allocates);
// one that runs long pays at most about twice the cost of the searches or
// of the scanner, whichever is smaller, as one who rents skis until the
// rent reaches their price. The costs are counted in loose units of a few
// nanoseconds each: for the scanner, a transition of its table or a
// literal ranked (scanCost); for a search, a rule tested and a symbol of
// the string (Machine.find). Only the searches the scanner would have made
// count: those on a string it would serve (Machine.scannable: up to
// scanMaxLen symbols; up to scanFarLen at a run's first step if it would
// cover every rule, and while the scan would resume near the end, which
// the machine tracks without the scanner too). A machine that only ever
// runs long strings, which the scanner never serves, never builds it (200
// rules of 1,000 symbols run on 5,000-symbol strings would build an 8 MB
// scanner in their first run). The scanner changes how a step is found,
// not which: a run finds the same steps whether it was built before,
// during or never (TestLazyScannerAgrees), and the repeats it allows
// (repeat.go) do at once what the steps would one by one.

// scanCost is the work of building the scanner of plans, over an alphabet
// of symbols, in find's units, at least 1, as scanning.due needs; and
// whether the scanner would surely cover every rule, so that a run's first
// step on a string of up to scanFarLen symbols would be its (runShort). It
// counts a state for each symbol of a literal, as if no two shared a
// prefix: newScanner may fit more, never fewer.
func scanCost(symbols int, plans []plan) (cost int, whole bool) {
	states, literals, covered := 1, 0, 0
	for _, pl := range plans {
		if !pl.expanded || states*symbols > scanTableMax {
			break
		}
		states += symbolsIn(pl.literals)
		literals += len(pl.literals)
		covered++
	}
	whole = covered == len(plans) && symbols > 0 && states*symbols <= scanTableMax
	return min(states*symbols, scanTableMax) + literals + 1, whole
}

// noLiteral ranks below every literal.
const noLiteral = int32(1<<31 - 1)

type scanner struct {
	symbols int // the width of a row of step
	// step[row+c] is the transition from the state whose row starts at row
	// (state*symbols): the next state's row in the high 32 bits, and in the
	// low ones the lowest rank of a literal ending there, so that one load
	// and no multiply serve each symbol.
	step  []uint64
	ranks []rankRef // by rank: the rule and literal
	// empty is the lowest rank of an empty literal, which occurs everywhere.
	empty int32
	// firstUncovered is the first rule the scanner does not cover, or
	// len(rules): the rules before it are all expanded and fit the table.
	firstUncovered int
	// rankBase is the rank of the first literal of each covered rule: the
	// rank of literal j of rule i is rankBase[i]+j.
	rankBase []int32
}

// rankRef is what the scanner knows of a literal: its rule, and all a step
// that replaces it needs, in one record.
type rankRef struct {
	rule   int
	length int
	slots  []int // the literal's captures from its start; nil for a plain rule
	// rhs is the right-hand side a match of the literal writes, when the
	// writer does not read the memory register (fixedRHS): the literal and
	// its captures decide it.
	rhs                     []byte
	fixedRHS                bool
	terminating, storeWhole bool
	store                   int   // the capture stored, or -1
	write                   int32 // the writer code, when !fixedRHS
	// repeat says that a step replacing the literal can be followed at
	// once by the same step on the rest of a run of its symbol (see
	// repeat.go): the literal is one symbol, sym, repeated, the step
	// erases it, and the rule neither ends the run nor stores the whole
	// string.
	repeat bool
	sym    byte
	// before is the length of the longest literal ranked before this one.
	before int
}

// newScanner builds the scanner of a machine's expanded rules, up to the
// first rule that is not expanded or that would take the table past
// tableMax transitions; nil if there are none.
func newScanner(p *Program, plans []plan, tableMax int) *scanner {
	sc := &scanner{symbols: len(p.Symbols), empty: noLiteral, firstUncovered: len(plans)}
	for i, pl := range plans {
		if !pl.expanded {
			sc.firstUncovered = i
			break
		}
	}
	if sc.firstUncovered == 0 || sc.symbols == 0 {
		return nil
	}
	// The trie, state 0 the root: goTo[s*symbols+c] is the child of state
	// s by symbol c, 0 for none (the root is no state's child), and best[s]
	// the lowest rank of a literal ending at s. goTo has the size of the
	// final table, at most tableMax, and becomes it: a map a state made
	// the trie of one long literal cost thirty times its table. Both are
	// made once, for as many states as the literals or the bound allow.
	states := 1
	for i := range sc.firstUncovered {
		states += symbolsIn(plans[i].literals)
	}
	states = max(min(states, tableMax/sc.symbols), 1)
	zeros := make([]int32, sc.symbols)
	goTo, best := make([]int32, sc.symbols, states*sc.symbols), make([]int32, 1, states)
	best[0] = noLiteral
	literals := int32(0) // the rank of the next literal
	for i := range sc.firstUncovered {
		if grown := len(best) + symbolsIn(plans[i].literals); grown*sc.symbols > tableMax {
			sc.firstUncovered = i // the rules from here on are searched for one by one
			break
		}
		for _, lit := range plans[i].literals {
			rank := literals
			literals++
			if len(lit) == 0 {
				sc.empty = min(sc.empty, rank)
				continue
			}
			s := int32(0)
			for _, c := range lit {
				edge := int(s)*sc.symbols + int(c)
				if goTo[edge] == 0 {
					goTo[edge] = int32(len(best))
					goTo = append(goTo, zeros...)
					best = append(best, noLiteral)
				}
				s = goTo[edge]
			}
			best[s] = min(best[s], rank)
		}
	}
	sc.rankLiterals(p, plans, int(literals))
	// Breadth first: fail links, the best rank through them, and the full
	// transition table, which replaces goTo's missing edges row by row: a
	// state's fail state is shallower, so its row is complete.
	next := goTo
	fail := make([]int32, len(best))
	queue := []int32{0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for c := range sc.symbols {
			t := goTo[int(s)*sc.symbols+c]
			if t == 0 {
				if s != 0 {
					next[int(s)*sc.symbols+c] = next[int(fail[s])*sc.symbols+c]
				}
				continue
			}
			if s != 0 {
				fail[t] = next[int(fail[s])*sc.symbols+c]
			}
			best[t] = min(best[t], best[fail[t]])
			queue = append(queue, t)
		}
	}
	if sc.firstUncovered == 0 {
		return nil
	}
	sc.step = make([]uint64, len(next))
	for i, t := range next {
		sc.step[i] = uint64(int(t)*sc.symbols)<<32 | uint64(uint32(best[t]))
	}
	return sc
}

// rankLiterals makes the ranks of the literals of the rules the scanner
// covers, n of them, in one allocation: appended one by one, the ranks of
// a file of half a million rules allocated four times their size.
func (sc *scanner) rankLiterals(p *Program, plans []plan, n int) {
	sc.rankBase = make([]int32, 0, sc.firstUncovered)
	sc.ranks = make([]rankRef, 0, n)
	for i := range sc.firstUncovered {
		sc.rankBase = append(sc.rankBase, int32(len(sc.ranks)))
		for j, lit := range plans[i].literals {
			rank := int32(len(sc.ranks))
			r := &p.Rules[i]
			ref := rankRef{
				rule: i, length: len(lit), terminating: r.Terminating, storeWhole: r.StoreWhole,
				store: r.Store, write: int32(r.Write),
			}
			if !r.Plain {
				ref.slots = plans[i].literalSlots[j]
			}
			ref.rhs, ref.fixedRHS = p.literalRHS(r.Write, lit, ref.slots)
			ref.repeat = ref.fixedRHS && len(ref.rhs) == 0 && len(lit) > 0 && !r.Terminating && !r.StoreWhole &&
				bytes.Count(lit, lit[:1]) == len(lit)
			if len(lit) > 0 {
				ref.sym = lit[0]
			}
			if rank > 0 {
				ref.before = max(sc.ranks[rank-1].before, sc.ranks[rank-1].length)
			}
			sc.ranks = append(sc.ranks, ref)
		}
	}
}

// scanTableMax bounds the transitions of a machine's scanner (8 bytes
// each), so that a program with many long literals costs at most 8 MiB of
// table and its row offsets fit in 32 bits; the rules past the bound are
// searched for one by one.
const scanTableMax = 1 << 20

// symbolsIn returns the total length of literals.
func symbolsIn(literals [][]byte) int {
	n := 0
	for _, lit := range literals {
		n += len(lit)
	}
	return n
}

// scanning is the machine's scanner and what it needs between steps: the
// scanner once built, the work left before it is, and where a scan
// resumes.
type scanning struct {
	scanner *scanner // nil until built, or if the program has none
	// due is the search work the machine does without the scanner before
	// it builds it (Building the scanner, above): positive while the
	// scanner is not built, 0 once it is, or the program has none.
	due int
	// whole: the scanner, once built, covers every rule, so runShort
	// would find a run's first step with it (scanCost).
	whole bool
	used  bool // the last search used the scanner
	state scanState
}

// scanState is a scan kept from one step to the next: after a rewrite,
// the automaton's states and the best literal so far are still right up to
// where the rewrite began, and the scan resumes there.
//
// Invariant: at[i], for i up to valid, is the point a scan of the string
// from its start reaches after its first i symbols. While the scanner is
// not built, valid is kept as a scan would leave it, so that the machine
// knows whether a scan would resume near the end (Machine.scannable).
type scanState struct {
	at    []scanPoint // at[i]: the scan after s[:i]
	valid int         // the points up to and including valid are right
}

// edited keeps the points before the edit's start, which it does not
// change.
func (st *scanState) edited(start, _, _ int, _ []byte, _ int, _ bool, _ *removal) {
	st.valid = min(st.valid, start)
}

type scanPoint struct {
	row  int32 // the automaton's state, as the start of its row in step
	best int32 // the lowest rank of a literal ending within s[:i]
	end  int32 // where that literal ends
}

// scan returns the rank of the first literal that occurs in s and where it
// starts (its rightmost occurrence, or leftmost), or noLiteral; it scans
// from st.valid on.
func (sc *scanner) scan(s []byte, leftmost bool, st *scanState) (int32, int) {
	n := len(s) + 1
	if cap(st.at) < n {
		st.at = make([]scanPoint, n, 2*n)
		st.valid = 0
	}
	at := st.at[:n]
	from := min(st.valid, len(s))
	if from == 0 {
		at[0] = scanPoint{best: noLiteral}
	}
	p := at[from]
	table := sc.step // a local: the stores to at would make the loop reload a field
	for i := from; i < len(s); i++ {
		step := table[int(p.row)+int(s[i])]
		p.row = int32(step >> 32)
		if r := int32(uint32(step)); r < p.best || r == p.best && !leftmost {
			p.best, p.end = r, int32(i+1)
		}
		at[i+1] = p
	}
	best, end := p.best, p.end
	st.valid = len(s)
	if sc.empty <= best {
		// An empty literal occurs everywhere: at the end, or the start.
		if leftmost {
			return sc.empty, 0
		}
		return sc.empty, len(s)
	}
	if best == noLiteral {
		return noLiteral, 0
	}
	return best, int(end) - sc.ranks[best].length
}
