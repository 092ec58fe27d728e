package lsp

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/lang"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// text is a document's content with the byte offset of each line's start,
// converting between the protocol's positions (a line from 0 and a
// character counted in UTF-16 code units, as the protocol's default
// position encoding is) and the language's (a line from 1 and a column
// counted in characters), and byte offsets. The symbols of the papers are
// characters beyond ASCII (π ⊕ ⊖ ⊙ Δ ∇ χ: one UTF-16 unit each, but two or
// three bytes), and a symbol beyond the Basic Multilingual Plane takes two
// units, so none of the three counts may stand for another.
type text struct {
	s      string
	starts []int // byte offset of each line's start; lines end at '\n'
	bom    int   // 1 when s starts with a byte-order mark, which lang skips
}

func newText(s string) *text {
	t := &text{s: s, starts: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	if strings.HasPrefix(s, "\uFEFF") {
		t.bom = 1
	}
	return t
}

// line is line i (from 0) without its line break, "" past the end.
func (t *text) line(i int) string {
	if i < 0 || i >= len(t.starts) {
		return ""
	}
	end := len(t.s)
	if i+1 < len(t.starts) {
		end = t.starts[i+1] - 1
	}
	return strings.TrimSuffix(t.s[t.starts[i]:end], "\r")
}

// offset is the byte offset of a protocol position; a character past the
// end of its line means the line's end, as the protocol says, and a line
// past the end the end of the text.
func (t *text) offset(p protocol.Position) int {
	if int(p.Line) >= len(t.starts) {
		return len(t.s)
	}
	start := t.starts[p.Line]
	line := t.line(int(p.Line))
	units := 0
	for i, r := range line {
		if units >= int(p.Character) {
			return start + i
		}
		units += utf16Len(r)
	}
	return start + len(line)
}

// position is the protocol position of a byte offset.
func (t *text) position(off int) protocol.Position {
	off = min(max(off, 0), len(t.s))
	line := sort.Search(len(t.starts), func(i int) bool { return t.starts[i] > off }) - 1
	units := 0
	for _, r := range t.s[t.starts[line]:off] {
		units += utf16Len(r)
	}
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(units)}
}

// langOffset is the byte offset of a language position (line from 1,
// column in characters from 1), clamped to its line.
func (t *text) langOffset(p lang.Pos) int {
	i := p.Line - 1
	if i < 0 {
		return 0
	}
	if i >= len(t.starts) {
		return len(t.s)
	}
	line := t.line(i)
	col := p.Col - 1
	if i == 0 {
		col += t.bom
	}
	n := 0
	for j := range line {
		if n == col {
			return t.starts[i] + j
		}
		n++
	}
	return t.starts[i] + len(line)
}

// langPos is the language position of a byte offset of the text.
func (t *text) langPos(file string, off int) lang.Pos {
	p := t.position(off)
	line := int(p.Line)
	col := utf8.RuneCountInString(t.s[t.starts[line]:min(max(off, t.starts[line]), len(t.s))]) + 1
	if line == 0 {
		col -= t.bom
	}
	return lang.Pos{File: file, Line: line + 1, Col: col}
}

// rangeOf is the protocol range from byte offset from to byte offset to.
func (t *text) rangeOf(from, to int) protocol.Range {
	return protocol.Range{Start: t.position(from), End: t.position(to)}
}

// wordEnd is where the word that starts at byte offset off ends: the run of
// characters up to white space, the line's end or a comment, so that a
// diagnostic underlines the symbol or keyword it is about rather than one
// character of it.
func (t *text) wordEnd(off int) int {
	for i, r := range t.s[off:] {
		if r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '#' {
			return off + i
		}
	}
	return len(t.s)
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
