package lsp

import (
	"testing"
	"unicode/utf8"

	"github.com/anynt/anynt/lang"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Positions convert both ways between the protocol's (UTF-16 units), the
// language's (characters) and byte offsets, on symbols of one, two and
// four bytes, one of two UTF-16 units, after a byte-order mark (which lang
// skips, so its column 1 is the character after it) and on CRLF lines.
func TestPositions(t *testing.T) {
	src := "\uFEFFπ⊙𝔸x\r\nab ∇y\n"
	tx := newText(src)
	cases := []struct {
		lang       lang.Pos
		line, char int
		rest       string // the text from the position on
	}{
		{lang.Pos{Line: 1, Col: 1}, 0, 1, "π⊙𝔸x\r\nab ∇y\n"},
		{lang.Pos{Line: 1, Col: 3}, 0, 3, "𝔸x\r\nab ∇y\n"},
		{lang.Pos{Line: 1, Col: 4}, 0, 5, "x\r\nab ∇y\n"},
		{lang.Pos{Line: 2, Col: 4}, 1, 3, "∇y\n"},
		{lang.Pos{Line: 2, Col: 5}, 1, 4, "y\n"},
	}
	for _, c := range cases {
		off := tx.langOffset(c.lang)
		if got := src[off:]; got != c.rest {
			t.Errorf("%v: offset at %q, want %q", c.lang, got, c.rest)
		}
		if p := tx.position(off); p != pos(c.line, c.char) {
			t.Errorf("%v: protocol position %+v, want %d:%d", c.lang, p, c.line, c.char)
		}
		if got := tx.offset(pos(c.line, c.char)); got != off {
			t.Errorf("%d:%d: offset %d, want %d", c.line, c.char, got, off)
		}
		if got := tx.langPos("", off); got != c.lang {
			t.Errorf("offset %d: language position %v, want %v", off, got, c.lang)
		}
	}
	// Past a line's end is its end (the CR is not on the line); past the
	// last line, the text's end.
	if got := src[tx.offset(pos(0, 99)):]; got != "\r\nab ∇y\n" {
		t.Errorf("past the first line's end: %q", got)
	}
	if got := tx.offset(pos(9, 0)); got != len(src) {
		t.Errorf("past the last line: %d, want %d", got, len(src))
	}
}

// Any text and any protocol position: the offset is on a character's
// boundary within the text, and converting it back gives a position that
// converts to the same offset. Any text: its diagnostics lie within it.
func FuzzPositions(f *testing.F) {
	f.Add("\uFEFFπ⊙𝔸x\r\nab ∇y\n", uint32(0), uint32(3))
	f.Add("a -> (b\n\\foo\n", uint32(1), uint32(9))
	f.Add("", uint32(5), uint32(5))
	f.Fuzz(func(t *testing.T, s string, line, char uint32) {
		if !utf8.ValidString(s) {
			return // a document comes as a JSON string: always valid UTF-8
		}
		tx := newText(s)
		off := tx.offset(pos(int(line%64), int(char%256)))
		if off < 0 || off > len(s) || off < len(s) && !utf8.RuneStart(s[off]) {
			t.Fatalf("offset %d of %d:%d in %q", off, line, char, s)
		}
		// Right after a CR (in a CRLF, or a CR that ends the text) is in a
		// line break, which no protocol position names.
		if off > 0 && s[off-1] == '\r' {
			return
		}
		if back := tx.offset(tx.position(off)); back != off {
			t.Fatalf("offset %d → %+v → %d in %q", off, tx.position(off), back, s)
		}
		if lp := tx.langPos("", off); tx.langOffset(lp) != off {
			t.Fatalf("offset %d → %v → %d in %q", off, lp, tx.langOffset(lp), s)
		}
		for _, d := range diagnose("fuzz.anynt", tx) {
			for _, p := range []protocol.Position{d.Range.Start, d.Range.End} {
				if int(p.Line) >= len(tx.starts) {
					t.Fatalf("diagnostic %+v past the text %q", d, s)
				}
			}
		}
	})
}
