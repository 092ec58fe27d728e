package lang

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format prints a file in the canonical form: one statement a line, blocks
// indented by a tab, ASCII arrows, Unicode symbols, juxtaposed symbols where
// that reads back the same, single spaces between other elements, and the
// file's comments and single blank lines where they were. Parsing the output
// gives the same tree.
func Format(f *File) []byte {
	p := &printer{comments: f.Comments, scan: &scanner{slab: true}}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *Alphabet:
			p.line(d.At, "", "alphabet "+joinSymbols(d.Symbols, " "))
		case *Block:
			p.line(d.At, "", blockHeader(d))
			for _, e := range d.Rules {
				p.entry(e, "\t")
			}
			for _, r := range d.Rows {
				p.line(r.At, "\t", rowString(r))
			}
			p.line(d.End, "", "}")
		case *Actions:
			p.line(d.At, "", "actions "+joinSymbols(d.Names, " "))
		case *SpaceCode:
			p.begin(d.At, "")
			p.out = append(p.out, "space "+d.Dialect+" "...)
			code := make([]Elem, len(d.Code))
			for i, c := range d.Code {
				code[i] = c
			}
			p.symbolRun(code, true)
			p.end(d.At)
		case *Pattern:
			p.line(d.At, "", "goodevil pattern "+joinSymbols(d.Actions, " "))
		case *Setting:
			p.begin(d.At, "")
			p.out = append(p.out, d.Key...)
			for _, w := range d.Args {
				p.out = append(p.out, ' ')
				p.out = appendWord(p.out, w)
			}
			p.end(d.At)
		case Entry:
			p.entry(d, "")
		}
	}
	p.flushComments(Pos{Line: 1 << 30}, "")
	return p.out
}

// printer writes the canonical form into one buffer: a rule is written in
// place, not built as strings and joined, so that formatting a large file
// allocates little beyond its output.
type printer struct {
	out      []byte
	comments []*Comment
	lastLine int // source line of the last thing printed
	// scan reads runs back (readsBack); Format's reuses its symbols, a
	// printer of one rule (RuleString) has none and makes its own.
	scan *scanner
	run  []*Symbol // what scan read, reused
}

// line prints one statement that stood at pos, preceded by the comments
// before it and followed by a comment on the same source line.
func (p *printer) line(pos Pos, indent, text string) {
	p.begin(pos, indent)
	p.out = append(p.out, text...)
	p.end(pos)
}

// entry prints a rule or a use as a line.
func (p *printer) entry(e Entry, indent string) {
	p.begin(e.Pos(), indent)
	switch e := e.(type) {
	case *Use:
		p.out = append(p.out, "use "...)
		p.out = append(p.out, e.Name...)
	case *Rule:
		p.rule(e)
	}
	p.end(e.Pos())
}

// begin starts the line of a statement at pos: the comments before it, a
// blank line if there was one, the indent.
func (p *printer) begin(pos Pos, indent string) {
	p.flushComments(pos, indent)
	p.blankLineBefore(pos.Line)
	p.out = append(p.out, indent...)
}

// end ends the line of a statement at pos, with the comment on its line.
func (p *printer) end(pos Pos) {
	if len(p.comments) > 0 && p.comments[0].At.Line == pos.Line && pos.Line > 0 {
		p.out = append(p.out, " #"...)
		p.out = append(p.out, p.comments[0].Text...)
		p.comments = p.comments[1:]
	}
	p.out = append(p.out, '\n')
	p.lastLine = max(p.lastLine, pos.Line)
}

func (p *printer) flushComments(before Pos, indent string) {
	for len(p.comments) > 0 && p.comments[0].At.Before(before) {
		c := p.comments[0]
		p.comments = p.comments[1:]
		p.blankLineBefore(c.At.Line)
		p.out = append(p.out, indent...)
		p.out = append(p.out, '#')
		p.out = append(p.out, c.Text...)
		p.out = append(p.out, '\n')
		p.lastLine = c.At.Line
	}
}

func (p *printer) blankLineBefore(line int) {
	if p.lastLine > 0 && line > p.lastLine+1 {
		p.out = append(p.out, '\n')
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

// RuleString prints one rule in the canonical form.
func RuleString(r *Rule) string {
	p := &printer{}
	p.rule(r)
	return string(p.out)
}

func (p *printer) rule(r *Rule) {
	start := len(p.out)
	if p.elems(r.LHS, true); len(p.out) > start {
		p.out = append(p.out, ' ')
	}
	p.out = append(p.out, "->"...)
	if r.Terminating {
		p.out = append(p.out, '.')
	}
	p.out = append(p.out, ' ')
	start = len(p.out)
	if p.elems(r.RHS, true); len(p.out) == start {
		p.out = p.out[:start-1] // no right-hand side: no space before it
	}
}

// ElemsString prints a sequence of elements. At the top level of a rule
// side '|' is an ordinary symbol; inside a group it must be escaped.
func ElemsString(elems []Elem, topLevel bool) string {
	p := &printer{}
	p.elems(elems, topLevel)
	return string(p.out)
}

// elems prints a sequence: runs of symbols (a run ends at a marked one) and
// other elements, separated by single spaces.
func (p *printer) elems(elems []Elem, topLevel bool) {
	for i := 0; i < len(elems); {
		if i > 0 {
			p.out = append(p.out, ' ')
		}
		if _, ok := elems[i].(*Symbol); ok {
			j := i
			for ; j < len(elems); j++ {
				s, ok := elems[j].(*Symbol)
				if !ok {
					break
				}
				if s.Marked {
					j++
					break
				}
			}
			p.symbolRun(elems[i:j], topLevel)
			i = j
			continue
		}
		p.elem(elems[i])
		i++
	}
}

// symbolRun juxtaposes symbols (elems, all *Symbol) when the lexer reads
// the result back as the same symbols, and separates them with spaces
// otherwise.
func (p *printer) symbolRun(run []Elem, topLevel bool) {
	start := len(p.out)
	prev := ""
	for i, e := range run {
		name := e.(*Symbol).Name
		// A space after a symbol with a letter subscript (E_I H) reads
		// better than E_IH, though the lexer would split both.
		if i > 0 && strings.Contains(prev, "_") {
			p.out = append(p.out, ' ')
		}
		p.out = appendSymbol(p.out, name, topLevel)
		prev = name
	}
	if !p.readsBack(string(p.out[start:]), run, topLevel) {
		p.out = p.out[:start]
		for i, e := range run {
			if i > 0 {
				p.out = append(p.out, ' ')
			}
			p.out = appendSymbol(p.out, e.(*Symbol).Name, topLevel)
		}
	}
	if run[len(run)-1].(*Symbol).Marked {
		p.out = append(p.out, "^Δ"...)
	}
}

// readsBack reports whether the lexer reads text as the symbols of want.
func (p *printer) readsBack(text string, want []Elem, topLevel bool) bool {
	s := p.scan
	if s == nil {
		s = &scanner{}
	}
	*s = scanner{src: text, line: 1, col: 1, slab: s.slab, symbols: s.symbols[:0]}
	p.run = s.appendRun(p.run[:0], topLevel, math.MaxInt)
	if s.off != len(text) || len(p.run) != len(want) {
		return false
	}
	for i := range p.run {
		if p.run[i].Name != want[i].(*Symbol).Name {
			return false
		}
	}
	return true
}

// SymbolString spells a symbol so that the lexer reads it back: reserved
// characters get a backslash. Inside groups '|' is reserved too.
func SymbolString(name string, topLevel bool) string {
	return string(appendSymbol(nil, name, topLevel))
}

func appendSymbol(b []byte, name string, topLevel bool) []byte {
	r, _ := utf8.DecodeRuneInString(name)
	if isReserved(r) && !(topLevel && r == '|') {
		b = append(b, '\\')
	}
	return append(b, name...)
}

// appendWord spells a word of a setting so that it reads back: its
// characters with a meaning of their own get a backslash, but for the
// tokens a setting's words are made of (., ·, | and ,), and so does a '-'
// before '>', which would make an arrow. The words of the papers' settings
// (0.5, π, cycle) need none.
func appendWord(b []byte, w string) []byte {
	for i, r := range w {
		switch {
		case r == '.' || r == '·' || r == '|' || r == ',':
		case isReserved(r), r == '-' && strings.HasPrefix(w[i+1:], ">"):
			b = append(b, '\\')
		}
		b = utf8.AppendRune(b, r)
	}
	return b
}

func joinSymbols(syms []*Symbol, sep string) string {
	return string(appendSymbols(nil, syms, sep))
}

func appendSymbols(b []byte, syms []*Symbol, sep string) []byte {
	for i, s := range syms {
		if i > 0 {
			b = append(b, sep...)
		}
		b = appendSymbol(b, s.Name, true)
	}
	return b
}

// elem prints an element other than a symbol.
func (p *printer) elem(e Elem) {
	switch e := e.(type) {
	case *Group:
		open, close := byte('('), byte(')')
		if e.Optional {
			open, close = '[', ']'
		}
		p.out = append(p.out, open)
		for i, a := range e.Alts {
			if i > 0 {
				p.out = append(p.out, '|')
			}
			p.elems(a, false)
		}
		p.out = append(p.out, close)
		p.out = append(p.out, e.Bind...)
		p.mark(e.Marked)
	case *Wildcard:
		if !e.HasExcept {
			p.out = append(p.out, "χ"...)
			p.out = append(p.out, e.Bind...)
			p.mark(e.Marked)
			return
		}
		p.out = append(p.out, "(χ"...)
		p.out = append(p.out, e.Bind...)
		p.out = append(p.out, " ∉ {"...)
		p.out = appendSymbols(p.out, e.Except, ", ")
		p.out = append(p.out, "})"...)
		p.mark(e.Marked)
	case *Store:
		p.out = append(p.out, "Δ"...)
	case *Recall:
		p.out = append(p.out, "∇"...)
	}
}

func (p *printer) mark(marked bool) {
	if marked {
		p.out = append(p.out, "^Δ"...)
	}
}
