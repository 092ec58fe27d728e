package lsp

import (
	"github.com/anynt/anynt/lang"
)

// located is an entry of a rule list (a *lang.Rule or a *lang.Use) with
// the block that holds it: nil for the main algorithm of a rule file.
type located struct {
	entry lang.Entry
	block *lang.Block
}

// entryAt finds the entry a language position is on. Every statement ends
// at a line's end, so an entry is on one line; of several on a line (cut by
// ';') it is the last that starts at or before the column, else the first.
func entryAt(f *lang.File, p lang.Pos) (located, bool) {
	var found located
	ok := false
	consider := func(e lang.Entry, b *lang.Block) {
		at := e.Pos()
		if at.Line != p.Line {
			return
		}
		if !ok || at.Col <= p.Col && found.entry.Pos().Col < at.Col {
			found, ok = located{e, b}, true
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *lang.Rule:
			consider(d, nil)
		case *lang.Use:
			consider(d, nil)
		case *lang.Block:
			for _, e := range d.Rules {
				consider(e, d)
			}
		}
	}
	return found, ok
}
