package vm

import "math"

// logLen is how many splices the machine remembers: a fact older than that
// is forgotten, and its literal searched for in the whole string again.
const logLen = 1024

// fact says where a literal's occurrences can start: every occurrence
// starts in [lo, hi] (none does if lo > hi), in the string as it was after
// the machine's splice number at.
type fact struct {
	lo, hi, at int
}

// spliceRec is one rewrite, for facts to follow: str[start:end] became
// n symbols, and the string newLen long.
type spliceRec struct {
	start, end, n, newLen int
}

// shift carries [lo, hi], the possible starts of a literal of the given
// length, across the splice r. An occurrence afterwards either lies wholly
// before the rewritten span (it was there before), or wholly after it (it
// was there before, at a position r's change of length away, at or after
// the old span's end), or overlaps the new span (or, if that is empty,
// straddles where it was). The result is the smallest interval that holds
// all three kinds.
func (r *spliceRec) shift(lo, hi, length int) (int, int) {
	nlo, nhi := math.MaxInt, -1
	if h := min(hi, r.start-length); lo <= h {
		nlo, nhi = lo, h
	}
	if l := max(lo, r.end); l <= hi {
		d := r.n - (r.end - r.start)
		nlo, nhi = min(nlo, l+d), max(nhi, hi+d)
	}
	if l, h := max(r.start-length+1, 0), min(r.start+r.n-1, r.newLen-length); l <= h {
		nlo, nhi = min(nlo, l), max(nhi, h)
	}
	return nlo, nhi
}

// factLog keeps a fact for every literal of every expanded rule
// (plan.factBase+j is literal j), from the machine's first search of a long
// string on (start), and the log of the last logLen splices, which carries
// a fact to the string as it is when it is read (of). Machines that only
// ever see short strings never pay for it.
//
// Invariant: for every literal, of gives an interval that holds the start
// of every occurrence of the literal in the string. A search that sets a
// fact (set) keeps it so; a fact set before the run's first splice number
// (from), or more than logLen splices ago, is void, and of gives the whole
// string.
type factLog struct {
	facts []fact
	num   int // the literals of the expanded rules
	log   *[logLen]spliceRec
	// splices numbers the splices done (and runs started, each a new
	// version of the string that no splice leads to); from is the run's
	// first.
	splices, from int
}

// edited logs the edit, once the log is kept.
func (f *factLog) edited(start, end, newLen int, added []byte, _ int, _ bool, _ *removal) {
	if f.log != nil {
		f.log[f.splices%logLen] = spliceRec{start: start, end: end, n: len(added), newLen: newLen}
		f.splices++
	}
}

// newRun voids the facts of earlier runs: a run starts a new version of
// the string, which no splice of the log leads to.
func (f *factLog) newRun() {
	f.splices++
	f.from = f.splices
}

// start makes the log keep facts, none known yet.
func (f *factLog) start() {
	f.log = new([logLen]spliceRec)
	f.facts = make([]fact, f.num)
	for i := range f.facts {
		f.facts[i].at = -1
	}
	f.from = f.splices
}

// of returns where literal id, of the given length, can start in the
// string, of length n: its fact carried across the splices since, or the
// whole string if there is none (an earlier run's, or older than the log).
func (f *factLog) of(id, length, n int) (lo, hi int) {
	ft := &f.facts[id]
	if ft.at < f.from || f.splices-ft.at > logLen {
		return 0, n - length
	}
	lo, hi = ft.lo, ft.hi
	for v := ft.at; v < f.splices; v++ {
		lo, hi = f.log[v%logLen].shift(lo, hi, length)
	}
	return lo, hi
}

// set records where literal id can start now.
func (f *factLog) set(id, lo, hi int) { f.facts[id] = fact{lo: lo, hi: hi, at: f.splices} }
