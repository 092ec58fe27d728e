package vm

// Long strings. A string longer than longLen symbols is rewritten so that
// a step costs time in proportion to what changes, not to the string's
// length, wherever the rules are expanded (see the package doc, Long
// strings): the machine remembers where each literal can still occur
// (factLog, facts.go), and keeps the string in a gap buffer (gapBuffer,
// gap.go).

// longLen is the length beyond which a string is long. Up to it the
// scanner and whole-string searches are cheap enough, and the string is
// always contiguous, as runShort and the scanner need.
const longLen = scanFarLen

// findLong is findLiteral for a long string: each literal is searched for
// only where its fact says it can start (and, in a rule known absent, only
// around the last edit), and the search leaves a new fact: none occurs, or
// none beyond the one found.
func (m *Machine) findLong(plan *plan, knownAbsent, leftmost bool) (int, int) {
	n := m.str.length()
	for j, lit := range plan.literals {
		if len(lit) == 0 { // it occurs everywhere: at the end, or the start
			if leftmost {
				return j, 0
			}
			return j, n
		}
		id := plan.factBase + j
		if key := plan.literalKeys[j]; key >= 0 && m.counts.n[key] == 0 {
			m.facts.set(id, 1, 0)
			continue
		}
		lo, hi := m.facts.of(id, len(lit), n)
		if knownAbsent {
			from, to := m.recent.starts(len(lit))
			lo, hi = max(lo, from), min(hi, to)
		}
		at := m.str.search(lit, lo, hi, leftmost)
		if at < 0 {
			m.facts.set(id, 1, 0)
			continue
		}
		if leftmost {
			lo = at
		} else {
			hi = at
		}
		m.facts.set(id, lo, hi)
		return j, at
	}
	return -1, 0
}
