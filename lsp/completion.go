package lsp

import (
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// completion offers the ASCII spellings of the language (lang.Spellings)
// after a backslash: the word \pi, or its beginning, becomes π. Anywhere
// else it offers nothing: a symbol is any character, so there are no words
// to complete.
func (s *server) completion(_ *glsp.Context, p *protocol.CompletionParams) (any, error) {
	t := s.doc(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	at := t.offset(p.Position)
	from := at
	for from > 0 && isASCIILetter(t.s[from-1]) {
		from--
	}
	if from == 0 || t.s[from-1] != '\\' {
		return []protocol.CompletionItem{}, nil
	}
	typed := t.s[from:at]
	to := at
	for to < len(t.s) && isASCIILetter(t.s[to]) {
		to++
	}
	// The backslash and the whole name, so that completing inside \omega
	// leaves no letters behind.
	replace := t.rangeOf(from-1, to)
	items := []protocol.CompletionItem{}
	for _, sp := range lang.Spellings() {
		if !strings.HasPrefix(sp.Name, typed) {
			continue
		}
		label := `\` + sp.Name
		items = append(items, protocol.CompletionItem{
			Label:      label,
			Kind:       ptr(protocol.CompletionItemKindText),
			Detail:     ptr(string(sp.Char)),
			FilterText: &label,
			SortText:   &sp.Name,
			TextEdit:   protocol.TextEdit{Range: replace, NewText: string(sp.Char)},
		})
	}
	return items, nil
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
