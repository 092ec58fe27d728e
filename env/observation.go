package env

import (
	"math"

	"github.com/anynt/anynt/vm"
)

// observe appends the observation of an object in cell from ([P] §4.3),
// written whole: every run of ':' in the text.
func (ep *Episode) observe(buf []byte, from int, isPi bool) []byte {
	text, _ := ep.write(buf, from, isPi, math.MaxInt)
	return text
}

// observation returns the observation of an object in cell from in
// pieces, for the VM (vm.Machine.RunPieces). Between the few cells that
// show something, the observation is runs of ':', each one piece however
// long (when it is longRun or longer): the pieces are at most twice as
// many as the objects and actions, and their text at most longRun times,
// whatever the number of cells, and so is the work of writing them. The
// slice and the text it holds are valid until the next call.
func (ep *Episode) observation(from int, isPi bool) []vm.Piece {
	text, pieces := ep.write(ep.shownText[:0], from, isPi, longRun)
	ep.shownText = text
	return pieces
}

// longRun is the fewest empty cells that observation gives a piece of
// their own: shorter runs of ':' are written into the text around them,
// so that a small space's observation is one piece, written as fast as a
// walk over its cells.
const longRun = 16

// write appends the observation of an object in cell from ([P] §4.3) to
// text, but for the runs of ':' of long or more empty cells, and returns
// it with the pieces it makes, in order: the text, and those runs. The
// observation is, for each cell in order, its objects (π, then ⊕ and ⊖,
// then ω1…), then the markers of the actions leading there from cell
// from, then ':'. π sees ⊕ and ⊖; every other object sees both as ⊙.
func (ep *Episode) write(text []byte, from int, isPi bool, long int) ([]byte, []vm.Piece) {
	t := &ep.env.symbols
	good, evil := t.odot, t.odot
	if isPi {
		good, evil = t.good, t.evil
	}
	// What each cell shows, as (cell, code) pairs sorted stably by cell:
	// the objects in their order, then the arrows in action order.
	objects := append(ep.shownObjects[:0],
		placed{ep.pos[Pi], t.pi}, placed{ep.pos[Good], good}, placed{ep.pos[Evil], evil})
	for i, code := range t.object {
		objects = append(objects, placed{ep.pos[3+i], code})
	}
	arrows := ep.shownArrows[:0]
	for a, d := range ep.env.Space.Dest[from] {
		arrows = append(arrows, placed{d, t.marker[a]})
	}
	ep.shownObjects, ep.shownArrows = objects, arrows
	sortByCell(objects)
	sortByCell(arrows)
	pieces := ep.shownPieces[:0]
	// next is the first cell not shown yet, and text[done:] the text not
	// in a piece yet; the pieces take it before each run of ':' and at the
	// end (a slice taken then is right even if append moved text).
	next, done, n := 0, len(text), len(ep.cellReward)
	for len(objects) > 0 || len(arrows) > 0 {
		c := n
		if len(objects) > 0 {
			c = objects[0].cell
		}
		if len(arrows) > 0 {
			c = min(c, arrows[0].cell)
		}
		if c-next >= long {
			if done < len(text) {
				pieces = append(pieces, vm.Piece{Text: text[done:]})
			}
			pieces = append(pieces, vm.Piece{Symbol: t.colon, Repeat: c - next})
			next, done = c, len(text)
		}
		for ; next < c; next++ { // a short run of empty cells
			text = append(text, t.colon)
		}
		for len(objects) > 0 && objects[0].cell == c {
			text = append(text, objects[0].code)
			objects = objects[1:]
		}
		for len(arrows) > 0 && arrows[0].cell == c {
			text = append(text, arrows[0].code)
			arrows = arrows[1:]
		}
		text = append(text, t.colon)
		next = c + 1
	}
	if n-next < long {
		for ; next < n; next++ {
			text = append(text, t.colon)
		}
	}
	if done < len(text) {
		pieces = append(pieces, vm.Piece{Text: text[done:]})
	}
	if n > next {
		pieces = append(pieces, vm.Piece{Symbol: t.colon, Repeat: n - next})
	}
	ep.shownPieces = pieces
	return text, pieces
}

// placed is a symbol shown in a cell of an observation.
type placed struct {
	cell int
	code byte
}

// sortByCell sorts a few placed symbols by cell, keeping the order of those
// in one cell (an insertion sort: stable, and fastest on a handful).
func sortByCell(s []placed) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].cell < s[j-1].cell; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
