package vm

import "slices"

// Piece is a part of an input given in pieces (RunPieces): Text, or, when
// Text is empty, Repeat copies of Symbol.
type Piece struct {
	Text   []byte
	Symbol byte
	Repeat int
}

// AppendPieces appends the string that pieces spell to dst.
func AppendPieces(dst []byte, pieces []Piece) []byte {
	for _, p := range pieces {
		if len(p.Text) > 0 {
			dst = append(dst, p.Text...)
			continue
		}
		if p.Repeat < 16 {
			for range p.Repeat {
				dst = append(dst, p.Symbol)
			}
			continue
		}
		// The run is one symbol then copies of what is written so far,
		// doubling: a few copies of memory, not a store a symbol.
		at := len(dst)
		dst = slices.Grow(dst, p.Repeat)[:at+p.Repeat]
		run := dst[at:]
		run[0] = p.Symbol
		for k := 1; k < len(run); k *= 2 {
			copy(run[k:], run[:k])
		}
	}
	return dst
}

// RunPieces is Run on the string that pieces spell. A caller whose inputs
// are mostly long runs of one symbol with a little text between (an
// environment's observation: a ':' a cell, and the few objects and arrows)
// names them in a few pieces, and the machine counts the input's symbols
// from the pieces, a step a piece, instead of reading the string when a
// search first needs the counts: a run then costs the caller and the
// machine's bookkeeping what the pieces hold, and only the copy of the
// input and the search itself what the string's length. A string the
// scanner may serve (scanFarLen symbols or fewer) is counted as Run counts
// it, lazily, since most of its runs never read the counts.
func (m *Machine) RunPieces(pieces []Piece, opt Options) (out []byte, res Result) {
	n := 0
	for _, p := range pieces {
		n += len(p.Text)
		if len(p.Text) == 0 {
			n += max(p.Repeat, 0)
		}
	}
	m.reg.dropShadow() // before the string, which may be the register, is replaced
	m.str.head = AppendPieces(m.str.empty(n), pieces)
	m.str.copied += n
	if n <= scanFarLen {
		m.counts.stale = true
	} else {
		m.counts.countPieces(pieces)
	}
	m.runLoaded(opt)
	m.str.flatten()
	m.reg.dropShadow() // the register becomes the machine's own copy, as after Run
	return m.str.head, m.res
}
