package lang

import (
	"strconv"
	"strings"
)

// Format prints a file in the canonical form: one statement a line, blocks
// indented by a tab, ASCII arrows, Unicode symbols, juxtaposed symbols where
// that reads back the same, single spaces between other elements, and the
// file's comments and single blank lines where they were. Parsing the output
// gives the same tree.
func Format(f *File) []byte {
	p := &printer{comments: f.Comments}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Alphabet:
			p.line(d.At, "", "alphabet "+joinSymbols(d.Symbols, " "))
		case *Block:
			p.line(d.At, "", blockHeader(d))
			for _, e := range d.Rules {
				p.line(e.Pos(), "\t", entryString(e))
			}
			for _, r := range d.Rows {
				p.line(r.At, "\t", rowString(r))
			}
			p.line(d.End, "", "}")
		case *Actions:
			p.line(d.At, "", "actions "+joinSymbols(d.Names, " "))
		case *SpaceCode:
			p.line(d.At, "", "space "+d.Dialect+" "+runString(d.Code, true))
		case *Pattern:
			p.line(d.At, "", "goodevil pattern "+joinSymbols(d.Actions, " "))
		case *Setting:
			p.line(d.At, "", strings.Join(append([]string{d.Key}, d.Args...), " "))
		case Entry:
			p.line(d.Pos(), "", entryString(d))
		}
	}
	p.flushComments(Pos{Line: 1 << 30}, "")
	return []byte(p.out.String())
}

type printer struct {
	out      strings.Builder
	comments []*Comment
	lastLine int // source line of the last thing printed
}

// line prints one statement that stood at pos, preceded by the comments
// before it and followed by a comment on the same source line.
func (p *printer) line(pos Pos, indent, text string) {
	p.flushComments(pos, indent)
	p.blankLineBefore(pos.Line)
	p.out.WriteString(indent + text)
	if len(p.comments) > 0 && p.comments[0].At.Line == pos.Line && pos.Line > 0 {
		p.out.WriteString(" #" + p.comments[0].Text)
		p.comments = p.comments[1:]
	}
	p.out.WriteByte('\n')
	p.lastLine = max(p.lastLine, pos.Line)
}

func (p *printer) flushComments(before Pos, indent string) {
	for len(p.comments) > 0 && p.comments[0].At.Before(before) {
		c := p.comments[0]
		p.comments = p.comments[1:]
		p.blankLineBefore(c.At.Line)
		p.out.WriteString(indent + "#" + c.Text + "\n")
		p.lastLine = c.At.Line
	}
}

func (p *printer) blankLineBefore(line int) {
	if p.lastLine > 0 && line > p.lastLine+1 {
		p.out.WriteByte('\n')
	}
}

func blockHeader(b *Block) string {
	switch b.Kind {
	case ObjectBlock:
		return "object " + SymbolString(b.Name, true) + " {"
	case GoodEvilBlock:
		return "goodevil {"
	case GeneratorBlock:
		return "space generator " + b.Dialect + " {"
	case TableBlock:
		return "space table {"
	}
	return "block " + b.Name + " {"
}

func rowString(r *Row) string {
	parts := make([]string, len(r.Dests))
	for i, d := range r.Dests {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, " ")
}

func entryString(e Entry) string {
	switch e := e.(type) {
	case *Use:
		return "use " + e.Name
	case *Rule:
		return RuleString(e)
	}
	return ""
}

// RuleString prints one rule in the canonical form.
func RuleString(r *Rule) string {
	var b strings.Builder
	if lhs := ElemsString(r.LHS, true); lhs != "" {
		b.WriteString(lhs + " ")
	}
	b.WriteString("->")
	if r.Terminating {
		b.WriteByte('.')
	}
	if rhs := ElemsString(r.RHS, true); rhs != "" {
		b.WriteString(" " + rhs)
	}
	return b.String()
}

// ElemsString prints a sequence of elements. At the top level of a rule
// side '|' is an ordinary symbol; inside a group it must be escaped.
func ElemsString(elems []Elem, topLevel bool) string {
	var parts []string
	for i := 0; i < len(elems); {
		if _, ok := elems[i].(*Symbol); ok {
			j := i
			var run []*Symbol
			for ; j < len(elems); j++ {
				s, ok := elems[j].(*Symbol)
				if !ok {
					break
				}
				run = append(run, s)
				if s.Marked {
					j++
					break
				}
			}
			parts = append(parts, runString(run, topLevel))
			i = j
			continue
		}
		parts = append(parts, elemString(elems[i]))
		i++
	}
	return strings.Join(parts, " ")
}

// runString juxtaposes symbols when the lexer reads the result back as the
// same symbols, and separates them with spaces otherwise.
func runString(run []*Symbol, topLevel bool) string {
	mark := ""
	if run[len(run)-1].Marked {
		mark = "^Δ"
	}
	names := make([]string, len(run))
	for i, s := range run {
		names[i] = SymbolString(s.Name, topLevel)
	}
	var b strings.Builder
	for i, name := range names {
		// A space after a symbol with a letter subscript (E_I H) reads
		// better than E_IH, though the lexer would split both.
		if i > 0 && strings.Contains(names[i-1], "_") {
			b.WriteByte(' ')
		}
		b.WriteString(name)
	}
	if joined := b.String(); readsBack(joined, run, topLevel) {
		return joined + mark
	}
	return strings.Join(names, " ") + mark
}

func readsBack(text string, want []*Symbol, topLevel bool) bool {
	s := newScanner("", text)
	got := s.appendRun(nil, topLevel)
	if s.off != len(text) || len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i].Name != want[i].Name {
			return false
		}
	}
	return true
}

// SymbolString spells a symbol so that the lexer reads it back: reserved
// characters get a backslash. Inside groups '|' is reserved too.
func SymbolString(name string, topLevel bool) string {
	r := []rune(name)[0]
	if isReserved(r) && !(topLevel && r == '|') {
		return `\` + name
	}
	return name
}

func joinSymbols(syms []*Symbol, sep string) string {
	names := make([]string, len(syms))
	for i, s := range syms {
		names[i] = SymbolString(s.Name, true)
	}
	return strings.Join(names, sep)
}

func elemString(e Elem) string {
	switch e := e.(type) {
	case *Group:
		open, close := "(", ")"
		if e.Optional {
			open, close = "[", "]"
		}
		alts := make([]string, len(e.Alts))
		for i, a := range e.Alts {
			alts[i] = ElemsString(a, false)
		}
		return open + strings.Join(alts, "|") + close + e.Bind + markString(e.Marked)
	case *Wildcard:
		if !e.HasExcept {
			return "χ" + e.Bind + markString(e.Marked)
		}
		return "(χ" + e.Bind + " ∉ {" + joinSymbols(e.Except, ", ") + "})" + markString(e.Marked)
	case *Store:
		return "Δ"
	case *Recall:
		return "∇"
	}
	return ""
}

func markString(marked bool) string {
	if marked {
		return "^Δ"
	}
	return ""
}
