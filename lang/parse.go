package lang

import (
	"errors"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parse reads a rule file in the notation. It returns every error of the
// file, each positioned, sorted, as an ErrorList; with errors it still
// returns what it could parse.
//
// The lexer turns the whole file into tokens; the tokens are cut into
// statements (a line, or `;`); each statement is parsed on its own, so that
// one mistake does not hide the next.
func Parse(filename string, src []byte) (*File, error) {
	lx, errs := lex(filename, string(src))
	p := &parser{lexed: lx, errs: errs, file: &File{Name: filename, Comments: lx.comments}}
	p.statements()
	return p.file, p.errs.Err()
}

type parser struct {
	*lexed
	errs  ErrorList
	file  *File
	block *Block // the block being read, if any
}

// statements cuts the tokens into statements and parses each one.
func (p *parser) statements() {
	var stmt []lexer.Token
	depth := 0 // of ( and [, where braces are those of a symbol set
	flush := func() {
		if len(stmt) > 0 {
			p.statement(stmt)
		}
		stmt = nil
	}
	for _, tok := range p.tokens {
		switch tok.Type {
		case tokEOF:
			flush()
		case tokEOL:
			depth = 0
			flush()
		case tokLParen, tokLBrack:
			depth++
			stmt = append(stmt, tok)
		case tokRParen, tokRBrack:
			depth = max(depth-1, 0)
			stmt = append(stmt, tok)
		case tokLBrace:
			stmt = append(stmt, tok)
			if depth == 0 {
				flush()
			}
		case tokRBrace:
			if depth == 0 {
				flush()
				stmt = append(stmt, tok)
				flush()
			} else {
				stmt = append(stmt, tok)
			}
		default:
			stmt = append(stmt, tok)
		}
	}
	if p.block != nil {
		p.errs.Add(p.block.At, "block %s is not closed with }", p.block.Name)
	}
}

func (p *parser) statement(toks []lexer.Token) {
	end := lexer.Token{Type: tokEOF, Pos: toks[len(toks)-1].Pos}
	end.Pos.Column += len([]rune(toks[len(toks)-1].Value))
	if !p.balanced(toks) {
		return
	}
	stream := &tokenStream{tokens: append(toks, end)}
	if isRule(toks) {
		syn, err := ruleParser.ParseFromLexer(mustUpgrade(stream))
		if err != nil {
			p.syntaxError(err)
			return
		}
		p.addEntry(p.rule(syn))
		return
	}
	syn, err := declParser.ParseFromLexer(mustUpgrade(stream))
	if err != nil {
		if toks[0].Type == tokRun && !isKeyword(toks[0].Value) {
			p.errs.Add(posOf(toks[0].Pos), "a rule needs an arrow (-> or ->.)")
			return
		}
		p.syntaxError(err)
		return
	}
	p.decl(syn)
}

// balanced checks the brackets of a statement and reports the first
// mistake: participle would only say that the whole statement failed.
func (p *parser) balanced(toks []lexer.Token) bool {
	closer := map[lexer.TokenType]string{tokLParen: ")", tokLBrack: "]", tokLBrace: "}"}
	var open []lexer.Token
	for _, t := range toks {
		switch t.Type {
		case tokLParen, tokLBrack:
			open = append(open, t)
		case tokLBrace:
			if len(open) > 0 { // a symbol set; at the top level, a block
				open = append(open, t)
			}
		case tokRParen, tokRBrack, tokRBrace:
			if len(open) == 0 {
				if t.Type == tokRBrace {
					continue // closes a block
				}
				p.errs.Add(posOf(t.Pos), "%s closes no group", t.Value)
				return false
			}
			last := open[len(open)-1]
			if want := closer[last.Type]; want != t.Value {
				p.errs.Add(posOf(last.Pos), "%s is closed by %s at %d:%d; close it with %s", last.Value, t.Value, t.Pos.Line, t.Pos.Column, want)
				return false
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		last := open[len(open)-1]
		p.errs.Add(posOf(last.Pos), "%s is not closed", last.Value)
		return false
	}
	return true
}

func isKeyword(s string) bool { return s == "alphabet" || s == "block" || s == "use" }

// isRule reports whether a statement has an arrow outside brackets: rules
// do, declarations never.
func isRule(toks []lexer.Token) bool {
	for _, t := range toks {
		if t.Type == tokArrow {
			return true
		}
	}
	return false
}

func mustUpgrade(s *tokenStream) *lexer.PeekingLexer {
	pl, err := lexer.Upgrade(s)
	if err != nil { // tokenStream never fails
		panic(err)
	}
	return pl
}

func (p *parser) syntaxError(err error) {
	var perr participle.Error
	if errors.As(err, &perr) {
		p.errs.Add(posOf(perr.Position()), "%s", perr.Message())
		return
	}
	p.errs.Add(Pos{File: p.file.Name, Line: 1, Col: 1}, "%s", err.Error())
}

func posOf(p lexer.Position) Pos { return Pos{File: p.Filename, Line: p.Line, Col: p.Column} }

func (p *parser) addEntry(e Entry) {
	if p.block != nil {
		p.block.Rules = append(p.block.Rules, e)
		return
	}
	p.file.Decls = append(p.file.Decls, e)
}

func (p *parser) decl(syn *declSyntax) {
	at := posOf(syn.Pos)
	switch {
	case syn.Alphabet != nil:
		if p.block != nil {
			p.errs.Add(at, "an alphabet is declared at the top level, not inside a block")
			return
		}
		if p.file.Alphabet() != nil {
			p.errs.Add(at, "the alphabet is already declared at %s", p.file.Alphabet().At)
			return
		}
		a := &Alphabet{At: at}
		for _, s := range syn.Alphabet.Symbols {
			a.Symbols = append(a.Symbols, p.setSymbols(s)...)
		}
		p.file.Decls = append(p.file.Decls, a)
	case syn.Block != nil:
		if p.block != nil {
			p.errs.Add(at, "blocks do not nest: block %s is still open", p.block.Name)
			return
		}
		p.block = &Block{At: at, Name: syn.Block.Name}
		p.file.Decls = append(p.file.Decls, p.block)
	case syn.Use != nil:
		p.addEntry(&Use{At: at, Name: syn.Use.Name})
	case syn.Close:
		if p.block == nil {
			p.errs.Add(at, "} closes no block")
			return
		}
		p.block.End = at
		p.block = nil
	}
}

func (p *parser) setSymbols(s *setSyntax) []*Symbol {
	if s.Pipe {
		return []*Symbol{{At: posOf(s.Pos), Name: "|"}}
	}
	return p.runs[s.Pos.Offset]
}

func (p *parser) rule(syn *ruleSyntax) *Rule {
	return &Rule{
		At:          posOf(syn.Pos),
		LHS:         p.side(syn.LHS),
		RHS:         p.side(syn.RHS),
		Terminating: syn.Terminating,
	}
}

func (p *parser) side(items []*topSyntax) []Elem {
	var out []Elem
	for _, it := range items {
		if it.Pipe {
			out = append(out, &Symbol{At: posOf(it.Pos), Name: "|"})
			continue
		}
		out = append(out, p.elem(it.Elem)...)
	}
	return out
}

func (p *parser) elems(items []*elemSyntax) []Elem {
	var out []Elem
	for _, it := range items {
		out = append(out, p.elem(it)...)
	}
	return out
}

// elem converts one element; a run gives several symbols, and a mark after
// a run marks its last symbol.
func (p *parser) elem(e *elemSyntax) []Elem {
	at := posOf(e.Pos)
	var out []Elem
	switch {
	case e.Run != "":
		for _, s := range p.runs[e.Pos.Offset] {
			out = append(out, &Symbol{At: s.At, Name: s.Name})
		}
		if len(out) == 0 {
			return nil
		}
		if e.Mark {
			out[len(out)-1].(*Symbol).Marked = true
		}
		return out
	case e.Chi != nil:
		return []Elem{&Wildcard{At: at, Bind: e.Chi.Sub, Marked: e.Mark}}
	case e.Except != nil:
		w := &Wildcard{At: at, Bind: e.Except.Sub, HasExcept: true, Marked: e.Mark}
		for _, s := range e.Except.Symbols {
			w.Except = append(w.Except, p.setSymbols(s)...)
		}
		return []Elem{w}
	case e.Group != nil:
		g := &Group{At: at, Optional: e.Group.Open == "[", Bind: e.Group.Sub, Marked: e.Mark}
		for _, a := range e.Group.Alts {
			g.Alts = append(g.Alts, p.elems(a.Elems))
		}
		return []Elem{g}
	case e.Store:
		if e.Mark {
			p.errs.Add(at, "Δ cannot itself be marked with ^Δ")
		}
		return []Elem{&Store{At: at}}
	case e.Recall:
		if e.Mark {
			p.errs.Add(at, "∇ cannot be marked with ^Δ")
		}
		return []Elem{&Recall{At: at}}
	default: // a stray dot
		p.errs.Add(at, "'.' marks a terminating rule only right after the arrow; write \\. for a dot symbol")
		return nil
	}
}
