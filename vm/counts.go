package vm

// symbolCounts counts the string's symbols, so that find can skip a rule
// that needs a symbol the string lacks (ruleNeeds) and a literal whose key
// symbol is absent (plan.literalKeys) without searching.
//
// Invariant: unless stale, n[c] is the number of c's in the string. Stale
// counts are recounted (recountAll) when a search first reads them; a run
// starts with them stale (Run) or counted from its pieces (RunPieces), and
// the machine lets them go stale while nothing reads them (Machine.commit).
type symbolCounts struct {
	n     [256]int32
	stale bool
}

// edited updates the counts for the edit, unless they are stale.
func (c *symbolCounts) edited(start, end, _ int, added []byte, _ int, _ bool, removed *removal) {
	if !c.stale {
		c.recount(end-start, added, removed)
	}
}

// recount takes the n symbols removed out of the counts, and adds added.
func (c *symbolCounts) recount(n int, added []byte, removed *removal) {
	if removed.run {
		c.n[removed.sym] -= int32(n)
	} else {
		for _, s := range removed.text {
			c.n[s]--
		}
	}
	for _, s := range added {
		c.n[s]++
	}
}

// recountAll counts the string's symbols afresh.
func (c *symbolCounts) recountAll(str *gapBuffer) {
	c.n = [256]int32{}
	for _, s := range str.head {
		c.n[s]++
	}
	for _, s := range str.tailBytes() {
		c.n[s]++
	}
	c.stale = false
}

// countPieces counts the symbols of the string that pieces spell, a step a
// piece.
func (c *symbolCounts) countPieces(pieces []Piece) {
	c.n = [256]int32{}
	for _, p := range pieces {
		for _, s := range p.Text {
			c.n[s]++
		}
		if len(p.Text) == 0 && p.Repeat > 0 {
			c.n[p.Symbol] += int32(p.Repeat)
		}
	}
	c.stale = false
}

// hasAll reports whether the string holds every one of syms. The counts
// must not be stale.
func (c *symbolCounts) hasAll(syms []byte) bool {
	for _, s := range syms {
		if c.n[s] == 0 {
			return false
		}
	}
	return true
}
