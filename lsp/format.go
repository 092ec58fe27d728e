package lsp

import (
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// formatting answers with anynt fmt's canonical form (lang.Format) as one
// edit that spans the lines that differ, so that an editor keeps the
// cursor and marks of the lines around them. A document with syntax errors
// is left as it is (no edits), as fmt refuses it: its diagnostics say why.
func (s *server) formatting(_ *glsp.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	t := s.doc(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	f, err := lang.Parse(fileName(p.TextDocument.URI), []byte(t.s))
	if err != nil {
		return nil, nil
	}
	e, ok := lineEdit(t, string(lang.Format(f)))
	if !ok {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{e}, nil
}

// lineEdit is the one edit that turns t into want, replacing whole lines
// between the lines both share at the start and those at the end; false
// when they are equal.
func lineEdit(t *text, want string) (protocol.TextEdit, bool) {
	if t.s == want {
		return protocol.TextEdit{}, false
	}
	// SplitAfter keeps each line's '\n' and gives a last element, "" when
	// the text ends with a line break, so that element i starts line i.
	old, new := strings.SplitAfter(t.s, "\n"), strings.SplitAfter(want, "\n")
	pre := 0
	for pre < len(old) && pre < len(new) && old[pre] == new[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(new)-pre && old[len(old)-1-suf] == new[len(new)-1-suf] {
		suf++
	}
	from := t.starts[pre]
	to := len(t.s)
	if suf > 0 {
		to = t.starts[len(old)-suf]
	}
	return protocol.TextEdit{
		Range:   t.rangeOf(from, to),
		NewText: strings.Join(new[pre:len(new)-suf], ""),
	}, true
}
