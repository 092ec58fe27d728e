package vm

import (
	"bytes"
	"math"
)

// Long strings. A string longer than longLen symbols is rewritten so that
// a step costs time in proportion to what changes, not to the string's
// length, wherever the rules are expanded (see the package doc, Long
// strings): the machine remembers where each literal can still occur, and
// keeps the string in a gap buffer.

// longLen is the length beyond which a string is long. Up to it the
// scanner and whole-string searches are cheap enough, and the string is
// always contiguous (Machine.str), as runShort and the scanner need.
const longLen = scanFarLen

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

// startFacts makes the machine keep facts, from the first search of a long
// string on: machines that only ever see short strings never pay for them.
func (m *Machine) startFacts() {
	m.log = new([logLen]spliceRec)
	m.facts = make([]fact, m.numFacts)
	for i := range m.facts {
		m.facts[i].at = -1
	}
	m.factsFrom = m.splices
}

// logSplice records a rewrite for the facts to follow.
func (m *Machine) logSplice(start, end, n, newLen int) {
	m.log[m.splices%logLen] = spliceRec{start: start, end: end, n: n, newLen: newLen}
	m.splices++
}

// factOf returns where literal id, of the given length, can start in the
// string, of length n: its fact carried across the splices since, or the
// whole string if there is none (an earlier run's, or older than the log).
func (m *Machine) factOf(id, length, n int) (lo, hi int) {
	f := &m.facts[id]
	if f.at < m.factsFrom || m.splices-f.at > logLen {
		return 0, n - length
	}
	lo, hi = f.lo, f.hi
	for v := f.at; v < m.splices; v++ {
		lo, hi = m.log[v%logLen].shift(lo, hi, length)
	}
	return lo, hi
}

// setFact records where literal id can start now.
func (m *Machine) setFact(id, lo, hi int) { m.facts[id] = fact{lo: lo, hi: hi, at: m.splices} }

// findLong is findLiteral for a long string: each literal is searched for
// only where its fact says it can start (and, in a rule known absent, only
// around the rewritten span), and the search leaves a new fact: none
// occurs, or none beyond the one found.
func (m *Machine) findLong(plan *plan, knownAbsent, leftmost bool) (int, int) {
	n := m.length()
	for j, lit := range plan.literals {
		if len(lit) == 0 { // it occurs everywhere: at the end, or the start
			if leftmost {
				return j, 0
			}
			return j, n
		}
		id := plan.factBase + j
		if key := plan.literalKeys[j]; key >= 0 && m.counts[key] == 0 {
			m.setFact(id, 1, 0)
			continue
		}
		lo, hi := m.factOf(id, len(lit), n)
		if knownAbsent {
			lo, hi = max(lo, m.changedFrom-len(lit)+1), min(hi, m.changedTo-1)
		}
		at := m.searchGapped(lit, lo, hi, leftmost)
		if at < 0 {
			m.setFact(id, 1, 0)
			continue
		}
		if leftmost {
			lo = at
		} else {
			hi = at
		}
		m.setFact(id, lo, hi)
		return j, at
	}
	return -1, 0
}

// The gap buffer: while m.tail > 0, the string is m.str (its head) followed
// by the last m.tail bytes of m.str's capacity (its tail), and the gap
// between them is where the last rewrite ended, so that the next rewrite
// nearby moves only the symbols between the two.

// length is the length of the string.
func (m *Machine) length() int { return len(m.str) + m.tail }

// flatten closes the gap, moving the tail next to the head.
func (m *Machine) flatten() {
	if m.tail == 0 {
		return
	}
	g, c := len(m.str), cap(m.str)
	buf := m.str[:c]
	m.copied += copy(buf[g:], buf[c-m.tail:])
	m.str, m.tail = buf[:g+m.tail], 0
}

// tailBytes returns the tail.
func (m *Machine) tailBytes() []byte { return gapTail(m.str, m.tail) }

// spliceGapped replaces str[start:end] by rhs, moving the gap to the end of
// the rewritten span unless the length does not change.
func (m *Machine) spliceGapped(start, end int, rhs []byte) {
	var moved int
	m.str, m.tail, moved = spliceGap(m.str, m.tail, start, end, rhs)
	m.copied += moved
}

// spliceGap is spliceGapped for any gap buffer, head and tail (the string
// and the memory's shadow are both kept so): it returns the new head and
// tail, and how many symbols it copied.
func spliceGap(head []byte, tail, start, end int, rhs []byte) ([]byte, int, int) {
	c, r := cap(head), len(rhs)
	buf, g, t := head[:c], len(head), tail
	if r == end-start { // in place: the part before the gap, then the part after
		k := min(max(g-start, 0), r)
		copy(buf[start:], rhs[:k])
		if k < r {
			copy(buf[c-t+start+k-g:], rhs[k:])
		}
		return head, tail, r
	}
	moved := r
	if g < end { // the gap moves right: symbols move from the tail to the head
		copy(buf[g:end], buf[c-t:])
		t -= end - g
		moved += end - g
	} else if g > end { // it moves left: from the head to the tail
		copy(buf[c-t-(g-end):], buf[end:g])
		t += g - end
		moved += g - end
	}
	if start+r > c-t {
		grown := make([]byte, 2*(start+r+t))
		copy(grown, buf[:start])
		copy(grown[len(grown)-t:], buf[c-t:])
		buf = grown
		moved += start + t
	}
	copy(buf[start:], rhs)
	return buf[:start+r], t, moved
}

// searchGapped returns the rightmost (leftmost) start in [lo, hi] of an
// occurrence of lit, which is not empty, or -1. It searches the side of the
// gap it prefers first, then the occurrences that straddle the gap (copied
// out, at most 2·len(lit)-2 symbols), then the other side.
func (m *Machine) searchGapped(lit []byte, lo, hi int, leftmost bool) int {
	head, tail, l := m.str, m.tailBytes(), len(lit)
	g := len(head)
	lo, hi = max(lo, 0), min(hi, g+len(tail)-l)
	if lo > hi {
		return -1
	}
	// The starts of occurrences in the head, across the gap, and in the tail.
	hLo, hHi := lo, min(hi, g-l)
	jLo, jHi := max(lo, g-l+1), min(hi, g-1)
	tLo, tHi := max(lo, g), hi
	for i := range 3 {
		part := i // head, across, tail when leftmost; the other way round if not
		if !leftmost {
			part = 2 - i
		}
		at := -1
		switch {
		case part == 0 && hLo <= hHi:
			at = index(head[hLo:hHi+l], lit, leftmost, hLo)
		case part == 1 && jLo <= jHi:
			m.junction = append(append(m.junction[:0], head[jLo:]...), tail[:jHi+l-g]...)
			m.copied += len(m.junction)
			at = index(m.junction, lit, leftmost, jLo)
		case part == 2 && tLo <= tHi:
			at = index(tail[tLo-g:tHi+l-g], lit, leftmost, tLo)
		}
		if at >= 0 {
			return at
		}
	}
	return -1
}

// index returns the leftmost (rightmost) occurrence of lit in s, plus
// offset, or -1.
func index(s, lit []byte, leftmost bool, offset int) int {
	var at int
	if leftmost {
		at = bytes.Index(s, lit)
	} else {
		at = lastIndex(s, lit)
	}
	if at < 0 {
		return -1
	}
	return at + offset
}
