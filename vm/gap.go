package vm

import (
	"bytes"
	"encoding/binary"
)

// gapBuffer is the string being rewritten. A string of up to longLen
// symbols is contiguous, head; a longer one is a gap buffer, the head
// followed by a tail of tail symbols kept at the end of head's capacity,
// the gap between them where the last rewrite ended, so that the next
// rewrite nearby moves only the symbols between the two (see the package
// doc, Long strings).
//
// Invariant: the string is head followed by tailBytes(); tail is 0 while
// the string is at most longLen symbols long, or while whole is set (a
// trace reads the string after every step), so that the scanner, the
// matcher and a trace can read head as the string; cap(head) is at least
// shortCap. Whatever reads the string whole calls flatten first.
type gapBuffer struct {
	head []byte
	tail int
	// longLen is the length beyond which a string is long: longLen, but
	// tests set it to compare the long path with the plain one.
	longLen int
	whole   bool
	// junction holds the symbols around the gap, for a search across it.
	junction []byte
	// copied counts the symbols copied within the buffer and into the
	// junction, for tests to bound a step's cost.
	copied int
}

// shortCap is the least capacity of the string buffer: a short string's
// tail is moved in whole 8-byte words (edited), which may read and write a
// few bytes past the string's end.
const shortCap = 2 * scanMaxLen

// load makes the string input, contiguous.
func (g *gapBuffer) load(input []byte) {
	g.head = append(g.empty(len(input)), input...)
	g.copied += len(input)
}

// empty returns the buffer emptied, with room for n symbols, for the
// caller to fill and make the head.
func (g *gapBuffer) empty(n int) []byte {
	if cap(g.head) < shortCap {
		g.head = make([]byte, 0, max(shortCap, n))
	}
	g.tail = 0
	return g.head[:0]
}

// length is the length of the string.
func (g *gapBuffer) length() int { return len(g.head) + g.tail }

// tailBytes returns the tail.
func (g *gapBuffer) tailBytes() []byte { return gapTail(g.head, g.tail) }

// flatten closes the gap, moving the tail next to the head.
func (g *gapBuffer) flatten() {
	if g.tail == 0 {
		return
	}
	h, c := len(g.head), cap(g.head)
	buf := g.head[:c]
	g.copied += copy(buf[h:], buf[c-g.tail:])
	g.head, g.tail = buf[:h+g.tail], 0
}

// edited applies the edit. A string that stays short, the machine's
// commonest and cheapest step, has its tail moved a word at a time
// (forward when it moves left, backward when it moves right, so that no
// word is overwritten before it is read), which is faster on such strings
// than memmove, whose calls and size dispatch cost more than the few
// bytes; it may read and write a few bytes past the string's end, within
// shortCap. An erasure (repeat's runs, mostly) is one memmove, which
// measured faster for it than the words (corpus.BenchmarkMachines,
// Good/Evil). A string that stays long, unless read whole, has the gap moved
// to the end of the rewritten span (spliceGap). Any other edit is
// editFlat's.
func (g *gapBuffer) edited(start, end, newLen int, rhs []byte, _ int, _ bool, _ *removal) {
	if g.tail != 0 || len(g.head) > scanMaxLen || newLen > scanMaxLen {
		if newLen > g.longLen && !g.whole {
			var moved int
			g.head, g.tail, moved = spliceGap(g.head, g.tail, start, end, rhs)
			g.copied += moved
			return
		}
		g.editFlat(start, end, newLen, rhs)
		return
	}
	if len(rhs) == 0 {
		g.copied += copy(g.head[start:], g.head[end:])
		g.head = g.head[:newLen]
		return
	}
	buf := g.head[:shortCap]
	tail, to := len(g.head)-end, start+len(rhs)
	if to <= end {
		for k := 0; k < tail; k += 8 {
			binary.LittleEndian.PutUint64(buf[to+k:], binary.LittleEndian.Uint64(buf[end+k:]))
		}
	} else {
		for k := (tail + 7) &^ 7; k > 0; k -= 8 {
			binary.LittleEndian.PutUint64(buf[to+k-8:], binary.LittleEndian.Uint64(buf[end+k-8:]))
		}
	}
	for i, c := range rhs {
		buf[start+i] = c
	}
	g.head = g.head[:newLen] // the same array: only the length is stored
	g.copied += tail + len(rhs)
}

// editFlat is edited for a string longer than scanMaxLen before or after
// the edit that is not kept gapped: it is made contiguous and spliced, in
// place when the buffer has room.
func (g *gapBuffer) editFlat(start, end, newLen int, rhs []byte) {
	g.flatten()
	s, n := g.head, newLen
	if n > cap(s) {
		grown := make([]byte, n, 2*n)
		copy(grown, s[:start])
		copy(grown[start:], rhs)
		copy(grown[start+len(rhs):], s[end:])
		g.head = grown
		g.copied += n
		return
	}
	t := s[:n]
	// copy is a memmove: the spans may overlap. An erasure, repeat's
	// say, has no right-hand side to copy.
	copy(t[start+len(rhs):], s[end:])
	if len(rhs) > 0 {
		copy(t[start:], rhs)
	}
	g.head = t
	g.copied += len(s) - end + len(rhs)
}

// spliceGap replaces str[start:end] by rhs in any gap buffer, head and
// tail (the string and the memory's shadow are both kept so), moving the
// gap to the end of the rewritten span unless the length does not change:
// it returns the new head and tail, and how many symbols it copied.
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
		if r == 0 && start == g { // an erasure just after the gap: the tail shrinks
			return head, t - (end - g), 0
		}
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

// gapTail returns the tail, tail symbols long, of a gap buffer whose head
// is head.
func gapTail(head []byte, tail int) []byte {
	c := cap(head)
	return head[:c][c-tail:]
}

// search returns the rightmost (leftmost) start in [lo, hi] of an
// occurrence of lit, which is not empty, or -1. It searches the side of the
// gap it prefers first, then the occurrences that straddle the gap (copied
// out, at most 2·len(lit)-2 symbols), then the other side.
func (g *gapBuffer) search(lit []byte, lo, hi int, leftmost bool) int {
	head, tail, l := g.head, g.tailBytes(), len(lit)
	h := len(head)
	lo, hi = max(lo, 0), min(hi, h+len(tail)-l)
	if lo > hi {
		return -1
	}
	// The starts of occurrences in the head, across the gap, and in the tail.
	hLo, hHi := lo, min(hi, h-l)
	jLo, jHi := max(lo, h-l+1), min(hi, h-1)
	tLo, tHi := max(lo, h), hi
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
			g.junction = append(append(g.junction[:0], head[jLo:]...), tail[:jHi+l-h]...)
			g.copied += len(g.junction)
			at = index(g.junction, lit, leftmost, jLo)
		case part == 2 && tLo <= tHi:
			at = index(tail[tLo-h:tHi+l-h], lit, leftmost, tLo)
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
