package vm

import (
	"bytes"
	"math"
	"slices"
)

// maxExpansion is the most literals of a sugared rule's ordered expansion
// that the machine searches for one by one. Searching for a literal costs a
// fraction of a nanosecond per symbol, running the matcher tens of
// nanoseconds per start position tried. BenchmarkExpansionLimit puts the
// break-even at about 20 literals for a rule whose matcher has an anchor
// right after a χ, its best case; without an anchor the matcher is over ten
// times slower. A rule with a larger expansion runs its matcher.
const maxExpansion = 32

// expansionWork bounds the instructions New walks to expand one rule, paths
// that fail included.
const expansionWork = 1 << 16

// plan is how the machine looks for a rule's match, decided by New.
type plan struct {
	// expanded rules are found by searching for their literals, in order:
	// a plain rule's one literal, or the ordered expansion of a sugared
	// rule, without repeats.
	expanded bool
	literals [][]byte
	// literalSlots are the captures of each literal of a sugared rule,
	// relative to its start: the lowest-ranked expansion that occurs is the
	// matcher's first success where it occurs, so these are the captures
	// the matcher would find, without running it.
	literalSlots [][]int
	// The matcher of a rule that is not expanded is only started where its
	// anchor occurs at the right distance.
	anchor anchor
	// needs holds symbols every match contains (Machine.needs): a rule
	// needing a symbol the string lacks is skipped without a search.
	// literalKeys holds, for each literal, one of its symbols beyond all
	// that every match contains (or -1): a literal whose key is absent is
	// skipped too. One symbol is a weaker test than all, but it costs one
	// load, and it is the symbol that tells the literals of a χ apart.
	needs       ruleNeeds
	literalKeys []int
	// byFirst lists the literals by their first symbol, in order:
	// byFirst[firstStart[c]:firstStart[c+1]] are those that start with c.
	// It is set for a rule of several non-empty literals, and lets a rule
	// known absent be checked position by position near a rewrite.
	byFirst    []int16
	firstStart []uint16
	longest    int
	// factBase numbers the facts of the literals of an expanded rule (see
	// long.go): literal j's is factBase+j.
	factBase int
	// rhs is the right-hand side when it is a fixed run of symbols, which
	// the machine then writes without running the writer code.
	rhs      []byte
	fixedRHS bool
}

// planRule decides how to search for r, expanding it if its expansion has at
// most limit literals.
func (p *Program) planRule(r *Rule, limit int) plan {
	pl := p.searchPlan(r, limit)
	pl.rhs, pl.fixedRHS = p.fixedRHS(r.Write)
	return pl
}

func (p *Program) searchPlan(r *Rule, limit int) plan {
	if r.Plain {
		return withNeeds(plan{expanded: true, literals: [][]byte{r.Literal}})
	}
	if literals, slots, ok := p.expansion(r.Match, limit); ok {
		return withNeeds(plan{expanded: true, literals: literals, literalSlots: slots})
	}
	pl := plan{anchor: p.findAnchor(r.Match)}
	needs := symbolsOf(pl.anchor.run)
	pl.needs = firstNeeds(&needs)
	return pl
}

// fixedRHS returns the right-hand side written by the writer code at pc
// when it is only literals.
func (p *Program) fixedRHS(pc int) ([]byte, bool) {
	var rhs []byte
	for ; ; pc++ {
		switch in := p.Code[pc]; in.Op {
		case OpEmit:
			rhs = append(rhs, p.Literals[in.A:in.A+in.B]...)
		case OpDone:
			return rhs, true
		default:
			return nil, false
		}
	}
}

// literalRHS returns the right-hand side that the writer code at pc writes
// for a match of lit with the captures slots (from its start; nil for none),
// or false if the writer reads the memory register, which changes from run
// to run.
func (p *Program) literalRHS(pc int, lit []byte, slots []int) ([]byte, bool) {
	rhs := []byte{}
	isBound := func(k int32) bool { return slots != nil && bound(slots, int(k)) }
	for {
		switch in := p.Code[pc]; in.Op {
		case OpEmit:
			rhs = append(rhs, p.Literals[in.A:in.A+in.B]...)
		case OpEmitCapture:
			if isBound(in.A) {
				rhs = append(rhs, lit[slots[2*in.A]:slots[2*in.A+1]]...)
			}
		case OpSkipUnbound:
			if !isBound(in.A) {
				pc = int(in.B)
				continue
			}
		case OpDone:
			return rhs, true
		default:
			return nil, false
		}
		pc++
	}
}

// withNeeds fills in the symbols an expanded plan's literals need.
func withNeeds(pl plan) plan {
	var needs SymSet
	for i, lit := range pl.literals {
		set := symbolsOf(lit)
		if i == 0 {
			needs = set
		} else {
			needs.intersect(&set)
		}
	}
	for _, lit := range pl.literals {
		key := -1
		for _, c := range lit {
			if !needs.Has(c) {
				key = int(c)
				break
			}
		}
		pl.literalKeys = append(pl.literalKeys, key)
	}
	pl.needs = firstNeeds(&needs)
	indexByFirst(&pl)
	return pl
}

// indexByFirst fills in byFirst, firstStart and longest.
func indexByFirst(pl *plan) {
	if len(pl.literals) < 2 || len(pl.literals) > math.MaxInt16 {
		return
	}
	var count [257]int
	for _, lit := range pl.literals {
		if len(lit) == 0 {
			return
		}
		count[int(lit[0])+1]++
		pl.longest = max(pl.longest, len(lit))
	}
	pl.firstStart = make([]uint16, 257)
	for c := 1; c <= 256; c++ {
		count[c] += count[c-1]
		pl.firstStart[c] = uint16(count[c])
	}
	pl.byFirst = make([]int16, len(pl.literals))
	for j, lit := range pl.literals {
		c := lit[0]
		pl.byFirst[count[c]] = int16(j)
		count[c]++
	}
}

func symbolsOf(run []byte) SymSet {
	var set SymSet
	for _, c := range run {
		set.Add(c)
	}
	return set
}

// expansion returns the literals of the ordered expansion of the matcher
// code at pc, in order and without repeats (a repeat never applies, its
// first occurrence always does), with the captures of each, or false if
// there are more than limit.
func (p *Program) expansion(pc, limit int) ([][]byte, [][]int, bool) {
	e := expander{p: p, limit: limit, work: expansionWork}
	slots := make([]int, 2*p.NumCaptures)
	for i := range slots {
		slots[i] = -1
	}
	e.walk(pc, nil, slots)
	return e.literals, e.slots, !e.overflow
}

// expander walks every path through matcher code in the order of the
// backtracking search, writing down the text each path matches.
type expander struct {
	p        *Program
	limit    int
	work     int // instructions left to walk
	literals [][]byte
	slots    [][]int // the captures of each literal, from its start
	overflow bool
}

// walk follows the paths from pc, where text has been matched with the
// captures in slots. Branches get their own copies of both.
func (e *expander) walk(pc int, text []byte, slots []int) {
	for !e.overflow {
		if e.work--; e.work < 0 {
			e.overflow = true
			return
		}
		in := e.p.Code[pc]
		pc++
		switch in.Op {
		case OpSym:
			text = append(text, byte(in.A))
		case OpLit:
			text = append(text, e.p.Literals[in.A:in.A+in.B]...)
		case OpAny:
			for c := range e.p.AlphabetSize {
				if !e.p.Sets[in.A].Has(byte(c)) {
					e.walk(pc, append(slices.Clip(text), byte(c)), slices.Clone(slots))
				}
			}
			return
		case OpSplit:
			e.walk(pc, slices.Clip(text), slices.Clone(slots))
			pc = int(in.A)
		case OpJmp:
			pc = int(in.A)
		case OpSave:
			slots[in.A] = len(text)
		case OpBackref:
			if bound(slots, int(in.A)) { // unbound: an absent group, repeated as absent
				text = append(text, text[slots[2*in.A]:slots[2*in.A+1]]...)
			}
		case OpMatch:
			if slices.ContainsFunc(e.literals, func(l []byte) bool { return bytes.Equal(l, text) }) {
				return
			}
			if len(e.literals) == e.limit {
				e.overflow = true
				return
			}
			e.literals = append(e.literals, slices.Clone(text))
			e.slots = append(e.slots, slices.Clone(slots))
			return
		}
	}
}

// anchor is a run of symbols that every match of a rule contains, starting
// lo to hi symbols after the start of the match.
type anchor struct {
	run    []byte
	lo, hi int
}

// findAnchor finds the longest anchor of the matcher code at start, or none.
// Code only jumps forward, so a path visits increasing pcs, and every path
// passes through a pc unless an edge jumps over it or a match ends before
// it. The offsets of each pc from the start of the match are propagated
// forward as ranges.
func (p *Program) findAnchor(start int) anchor {
	end := p.blockEnd(start)
	const unknown = math.MaxInt // after a back-reference, whose length varies
	reached := make([]bool, end-start)
	lo, hi := make([]int, end-start), make([]int, end-start)
	reach := func(pc, from, to int) {
		i := pc - start
		if !reached[i] {
			reached[i], lo[i], hi[i] = true, from, to
		}
		lo[i], hi[i] = min(lo[i], from), max(hi[i], to)
	}
	reach(start, 0, 0)
	var best, run anchor
	farthest, matched := start, false // farthest pc an edge reaches; a match ended
	for pc := start; pc < end; pc++ {
		i := pc - start
		if !reached[i] {
			run = anchor{}
			continue
		}
		in := p.Code[pc]
		everyPath := farthest <= pc && !matched
		// The offsets after the instruction: a back-reference may match
		// nothing or anything.
		width, fixed := 0, true
		switch in.Op {
		case OpSym, OpAny:
			width = 1
		case OpLit:
			width = int(in.B)
		case OpBackref:
			fixed = false
		}
		nextLo, nextHi := lo[i]+width, unknown
		if fixed && hi[i] != unknown {
			nextHi = hi[i] + width
		}
		switch {
		case in.Op == OpSave && everyPath && len(run.run) > 0:
		case (in.Op == OpSym || in.Op == OpLit) && everyPath && hi[i] != unknown:
			if len(run.run) == 0 {
				run = anchor{lo: lo[i], hi: hi[i]}
			}
			if in.Op == OpSym {
				run.run = append(run.run, byte(in.A))
			} else {
				run.run = append(run.run, p.Literals[in.A:in.A+in.B]...)
			}
		default:
			run = anchor{}
		}
		if len(run.run) > len(best.run) {
			best = anchor{run: slices.Clone(run.run), lo: run.lo, hi: run.hi}
		}
		var successors []int
		switch in.Op {
		case OpMatch:
			matched = true
		case OpJmp:
			successors = []int{int(in.A)}
		case OpSplit:
			successors = []int{pc + 1, int(in.A)}
		default:
			successors = []int{pc + 1}
		}
		for _, to := range successors {
			reach(to, nextLo, nextHi)
			farthest = max(farthest, to)
		}
	}
	return best
}

// blockEnd returns the end of the code reachable from start. Code only
// jumps forward, so it is contiguous up to the farthest pc that a
// fall-through or a jump reaches.
func (p *Program) blockEnd(start int) int {
	end := start + 1
	for pc := start; pc >= 0 && pc < end && pc < len(p.Code); pc++ {
		in := p.Code[pc]
		switch in.Op {
		case OpSplit, OpJmp:
			end = max(end, int(in.A)+1)
		case OpSkipUnbound:
			end = max(end, int(in.B)+1)
		}
		if in.Op != OpMatch && in.Op != OpDone && in.Op != OpJmp {
			end = max(end, pc+2)
		}
	}
	return min(end, len(p.Code))
}
