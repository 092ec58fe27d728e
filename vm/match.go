package vm

import (
	"bytes"
	"math"
	"strconv"
)

// frame is an entry of the matcher's backtrack stack: a choice point to
// resume at when the current path fails, or an undo record that restores a
// slot saved after the choice point below it.
type frame struct {
	slot int // the slot to restore, or -1 for a choice point
	pos  int // choice point: the position to resume at; undo: the slot's old value
	pc   int // choice point: the branch not taken yet
	rec  int // choice point: the length of the choice record at the choice
}

// matchRule finds the match of the matcher code at pc that the rule's
// ordered expansion selects: the lowest choice record over all start
// positions and, among equal records, the one nearest the preferred end.
// Start positions are scanned from the preferred end, and a later one wins
// only with a strictly lower record. Only the positions that have the
// anchor at the right distance are tried. The match's record and captures
// are left in m.best and m.bestSlots. Each start position tried costs a
// unit of work; when the work runs out, nothing is found and m.workLeft is
// below zero.
func (m *Machine) matchRule(pc int, a *anchor, leftmost bool) (start, end int, found bool) {
	s := m.str.head
	m.best = m.best[:0]
	if leftmost {
		for p := 0; p <= len(s); p++ {
			if len(a.run) > 0 {
				// Skip to the first position with the anchor at most a.hi later.
				from := p + a.lo
				if from > len(s) {
					break
				}
				i := bytes.Index(s[from:], a.run)
				if i < 0 {
					break
				}
				p = max(p, from+i-a.hi)
			}
			if m.workLeft--; m.workLeft < 0 {
				return 0, 0, false
			}
			if e, better := m.matchAt(pc, p, found); better {
				start, end, found = p, e, true
				if lowest(m.best) {
					break
				}
			}
			if m.workLeft < 0 {
				return 0, 0, false
			}
		}
		return start, end, found
	}
	for p := len(s); p >= 0; p-- {
		if len(a.run) > 0 {
			// Skip to the last position with the anchor at least a.lo later.
			at := lastIndex(s[:min(p+a.hi+len(a.run), len(s))], a.run)
			if at < a.lo {
				break
			}
			p = min(p, at-a.lo)
		}
		if m.workLeft--; m.workLeft < 0 {
			return 0, 0, false
		}
		if e, better := m.matchAt(pc, p, found); better {
			start, end, found = p, e, true
			if lowest(m.best) {
				break
			}
		}
		if m.workLeft < 0 {
			return 0, 0, false
		}
	}
	return start, end, found
}

// lowest reports whether no choice record can be lower than rec: every
// choice in it is the first one (split 0, or symbol code 0). A record that
// is a proper prefix of another cannot occur, since the choices determine
// the path.
func lowest(rec []byte) bool {
	for _, c := range rec {
		if c != 0 {
			return false
		}
	}
	return true
}

// matchAt runs the matcher code at pc from position pos, depth first, and
// reports whether its first success (the lowest record at pos) is lower
// than m.best, the record of the best match found so far (when haveBest).
// If so it makes that success the best match and returns where it ends.
//
// Paths that can no longer end lower than m.best are cut: the depth-first
// search meets records in increasing order, so once the record climbs above
// m.best, nothing left at this position can win.
//
// Each choice point passed costs a unit of work (the code has no loops, so
// between two choice points the search runs at most the rule's code); when
// m.workLeft runs out the search stops, below zero, with nothing better.
func (m *Machine) matchAt(pc, pos int, haveBest bool) (end int, better bool) {
	code, lits, sets, work := m.prog.Code, m.prog.Literals, m.prog.Sets, m.workLeft
	alphabetSize, s := m.prog.AlphabetSize, m.str.head
	slots, rec, stack, best := m.slots, m.record[:0], m.stack[:0], m.best
	for i := range slots {
		slots[i] = -1
	}
	// lessAt is the index where rec became lower than best: while
	// lessAt >= len(rec), rec equals best[:len(rec)].
	lessAt := math.MaxInt
	if !haveBest {
		lessAt = -1
	}
match:
	for {
		in := code[pc]
		pc++
		ok := true
		switch in.Op {
		case OpSym:
			ok = pos < len(s) && s[pos] == byte(in.A)
			pos++
		case OpLit:
			lit := lits[in.A : in.A+in.B]
			ok = bytes.HasPrefix(s[pos:], lit)
			pos += len(lit)
		case OpAny:
			ok = pos < len(s) && int(s[pos]) < alphabetSize && !sets[in.A].Has(s[pos])
			if ok {
				rec, lessAt, ok = choose(rec, lessAt, best, s[pos])
				if !ok {
					stack = stack[:0]
				}
				pos++
			}
		case OpSplit:
			if work--; work < 0 {
				better = false
				break match
			}
			stack = append(stack, frame{slot: -1, pos: pos, pc: int(in.A), rec: len(rec)})
			rec, lessAt, ok = choose(rec, lessAt, best, 0)
			if !ok {
				stack = stack[:0]
			}
		case OpJmp:
			pc = int(in.A)
		case OpSave:
			// Without a choice point below, a failure ends the search at
			// this position, and nothing needs undoing.
			if len(stack) > 0 {
				stack = append(stack, frame{slot: int(in.A), pos: slots[in.A]})
			}
			slots[in.A] = pos
		case OpBackref:
			// An unbound capture is an absent optional group: its later
			// occurrences are absent too, and match the empty string.
			if bound(slots, int(in.A)) {
				text := s[slots[2*in.A]:slots[2*in.A+1]]
				ok = bytes.HasPrefix(s[pos:], text)
				pos += len(text)
			}
		case OpMatch:
			better = lessAt < len(rec) || len(rec) < len(best)
			if better {
				m.best = append(best[:0], rec...)
				copy(m.bestSlots, slots)
				end = pos
			}
			break match
		default:
			panic("vm: " + in.Op.String() + " in matcher code at pc " + strconv.Itoa(pc-1))
		}
		for !ok {
			if len(stack) == 0 {
				break match
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.slot >= 0 {
				slots[f.slot] = f.pos
				continue
			}
			pos, pc, rec = f.pos, f.pc, rec[:f.rec]
			rec, lessAt, ok = choose(rec, lessAt, best, 1)
			if !ok {
				stack = stack[:0]
			}
		}
	}
	m.record, m.stack, m.workLeft = rec, stack, work
	return end, better
}

// choose appends choice c to the record rec, unless the record would then
// be higher than best: it returns false when neither this path nor any path
// left on the stack can end lower than best (they all share the prefix that
// got this far and continue with higher choices).
func choose(rec []byte, lessAt int, best []byte, c byte) ([]byte, int, bool) {
	i := len(rec)
	if lessAt >= i { // rec equals best[:i]
		switch {
		case i >= len(best) || c > best[i]:
			return rec, lessAt, false
		case c < best[i]:
			lessAt = i
		default: // still equal; forget where an abandoned path became lower
			lessAt = math.MaxInt
		}
	}
	return append(rec, c), lessAt, true
}
