package lang

import (
	"bytes"
	"cmp"
	"errors"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Parse reads a rule file in the notation. It returns every error of the
// file, each positioned, sorted, as an ErrorList; with errors it still
// returns what it could parse.
//
// The lexer turns the whole file into tokens; the tokens are cut into
// statements (a line, or `;`); each statement is parsed on its own, so that
// one mistake does not hide the next. A UTF-8 byte-order mark at the start
// of the file is skipped: it is not text, and columns on the first line
// count from the character after it.
func Parse(filename string, src []byte) (*File, error) {
	p := &parser{lex: newTokenizer(filename, string(trimBOM(src))), file: &File{Name: filename}}
	p.lex.parserErrors = &p.errs
	// A statement a line, at least four bytes a statement, at most
	// MaxStatements: sized once, the list of a large file is not copied as
	// it grows.
	p.file.Decls = make([]Decl, 0, min(bytes.Count(src, []byte{'\n'})+1, len(src)/4, MaxStatements))
	p.statements()
	p.file.Comments = p.lex.comments
	if len(p.file.Decls) == 0 {
		p.file.Decls = nil // a file without statements has none, not an empty list
	}
	// The lexer's errors come first, as when the whole file was lexed
	// before parsing: sorting is stable.
	errs := append(p.lex.errors, p.errs...)
	return p.file, errs.Err()
}

// byteOrderMark is U+FEFF in UTF-8, which some editors write at the start
// of a file to say that it is UTF-8.
var byteOrderMark = []byte("\uFEFF")

func trimBOM(src []byte) []byte { return bytes.TrimPrefix(src, byteOrderMark) }

type parser struct {
	lex  *tokenizer
	stmt []lexer.Token // the statement being read
	runs [][]*Symbol   // the symbols of each run token of stmt, by index
	// scratch is the stack on which the rule reader gathers sequences.
	scratch []Elem
	rules   []Rule // the chunk the reader's rules are cut from
	errs    ErrorList
	file    *File
	block   *Block // the block being read, if any
}

// statements cuts the tokens into statements and parses each one. The
// tokens of a statement are read into a buffer that the next statement
// reuses, so that the parser's memory is that of the longest statement.
// A statement past MaxStatements stops the file there, unparsed; so does
// one the tokenizer stopped in, past another bound.
func (p *parser) statements() {
	depth := 0 // of ( and [, where braces are those of a symbol set
	flush := func() {
		if len(p.stmt) > 0 && !p.lex.stopped {
			if p.lex.statements++; p.lex.statements > MaxStatements {
				p.lex.stop(posOf(p.stmt[0].Pos), MaxStatements, limitStatements)
			} else {
				p.statement(p.stmt)
			}
		}
		p.stmt, p.runs, p.lex.runs = p.stmt[:0], p.runs[:0], p.lex.runs[:0]
		p.lex.stmtTokens = 0
	}
	add := func(tok lexer.Token, syms []*Symbol) {
		p.stmt = append(p.stmt, tok)
		p.runs = append(p.runs, syms)
	}
	for {
		tok, syms := p.lex.token()
		switch tok.Type {
		case tokEOF:
			flush()
			if p.block != nil && !p.lex.stopped {
				p.errs.Add(p.block.At, "this block is not closed with }")
			}
			return
		case tokEOL:
			depth = 0
			flush()
		case tokLParen, tokLBrack:
			depth++
			add(tok, nil)
		case tokRParen, tokRBrack:
			depth = max(depth-1, 0)
			add(tok, nil)
		case tokLBrace:
			add(tok, nil)
			if depth == 0 {
				flush()
			}
		case tokRBrace:
			if depth == 0 {
				flush()
				add(tok, nil)
				flush()
			} else {
				add(tok, nil)
			}
		default:
			add(tok, syms)
		}
	}
}

// symbolsAt gives the symbols of the run token of the statement at offset
// off: the statement's tokens are in the order of their offsets.
func (p *parser) symbolsAt(off int) []*Symbol {
	i, found := slices.BinarySearchFunc(p.stmt, off, func(t lexer.Token, off int) int { return cmp.Compare(t.Pos.Offset, off) })
	if !found {
		return nil
	}
	return p.runs[i]
}

func (p *parser) statement(toks []lexer.Token) {
	end := lexer.Token{Type: tokEOF, Pos: toks[len(toks)-1].Pos}
	end.Pos.Column += utf8.RuneCountInString(toks[len(toks)-1].Value)
	if !p.balanced(toks) {
		return
	}
	if p.block != nil && p.block.Kind == TableBlock && toks[0].Type != tokRBrace {
		p.row(toks)
		return
	}
	if isRule(toks) {
		if rule, ok := p.readRule(toks, p.runs); ok {
			p.addEntry(rule)
			return
		}
		if p.tooLongForGrammar(toks) {
			return
		}
		stream := &tokenStream{tokens: withEnd(toks, end)}
		syn, err := ruleParser().ParseFromLexer(mustUpgrade(stream))
		if err != nil {
			p.syntaxError(err)
			return
		}
		p.addEntry(p.rule(syn))
		return
	}
	if syn, ok := readDecl(toks); ok {
		p.decl(syn)
		return
	}
	if toks[0].Type == tokRun && !isKeyword(toks[0].Value) && len(toks) > MaxGrammarTokens {
		p.errs.Add(posOf(toks[0].Pos), "a rule needs an arrow (-> or ->.)")
		return
	}
	if p.tooLongForGrammar(toks) {
		return
	}
	stream := &tokenStream{tokens: withEnd(toks, end)}
	syn, err := declParser().ParseFromLexer(mustUpgrade(stream))
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

// tooLongForGrammar stops the file, and reports whether it did, at a
// statement of more than MaxGrammarTokens tokens, which participle would
// read at about two kilobytes a token.
func (p *parser) tooLongForGrammar(toks []lexer.Token) bool {
	if len(toks) <= MaxGrammarTokens {
		return false
	}
	p.lex.stop(posOf(toks[MaxGrammarTokens].Pos), MaxGrammarTokens, limitGrammarTokens)
	return true
}

// withEnd copies a statement's tokens for participle, with the end token:
// the statement's buffer is reused.
func withEnd(toks []lexer.Token, end lexer.Token) []lexer.Token {
	return append(slices.Clip(toks), end)
}

// MaxDepth is how deeply brackets may nest in a statement: groups,
// optionals and the braces of a symbol set inside them. The parser, the
// formatter and the compiler recurse once per level, so the bound keeps a
// hostile file from exhausting the stack; the rules of the papers nest two
// or three deep.
const MaxDepth = 100

// balanced checks the brackets of a statement and reports the first
// mistake: participle would only say that the whole statement failed. It
// also bounds their depth, before participle recurses into them.
func (p *parser) balanced(toks []lexer.Token) bool {
	var open []lexer.Token
	for _, t := range toks {
		switch t.Type {
		case tokLParen, tokLBrack, tokLBrace:
			if t.Type == tokLBrace && len(open) == 0 {
				continue // at the top level, a brace opens a block
			}
			if len(open) == MaxDepth {
				p.errs.Add(posOf(t.Pos), "brackets nest more than %d deep here; split the rule", MaxDepth)
				return false
			}
			open = append(open, t)
		case tokRParen, tokRBrack, tokRBrace:
			if len(open) == 0 {
				if t.Type == tokRBrace {
					continue // closes a block
				}
				p.errs.Add(posOf(t.Pos), "%s closes no group", t.Value)
				return false
			}
			last := open[len(open)-1]
			if want := closerOf(last.Type); want != t.Value {
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

// closerOf spells the bracket that closes an opening one.
func closerOf(open lexer.TokenType) string {
	switch open {
	case tokLParen:
		return ")"
	case tokLBrack:
		return "]"
	}
	return "}"
}

func isKeyword(s string) bool {
	switch s {
	case "alphabet", "block", "use", "actions", "space", "object", "goodevil", "reward", "place", "set":
		return true
	}
	return false
}

// row reads one line of a space table: cell numbers from 1.
func (p *parser) row(toks []lexer.Token) {
	r := &Row{At: posOf(toks[0].Pos)}
	for _, t := range toks {
		n, err := strconv.Atoi(t.Value)
		if t.Type != tokRun || err != nil || n < 1 {
			p.errs.Add(posOf(t.Pos), "a table row lists cell numbers from 1, one per action; %q is not one", t.Value)
			return
		}
		r.Dests = append(r.Dests, n)
	}
	p.block.Rows = append(p.block.Rows, r)
}

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
		p.file.Decls = append(p.file.Decls, &Alphabet{At: at, Symbols: p.symbolsOf(syn.Alphabet.Symbols)})
	case syn.Block != nil:
		p.open(&Block{At: at, Kind: SharedBlock, Name: syn.Block.Name})
	case syn.Object != nil:
		name := p.setSymbols(syn.Object.Name)
		if len(name) != 1 {
			p.errs.Add(at, "an object is named by one symbol, such as ω1")
			return
		}
		p.open(&Block{At: at, Kind: ObjectBlock, Name: name[0].Name})
	case syn.GoodEvil != nil && syn.GoodEvil.Braced:
		p.open(&Block{At: at, Kind: GoodEvilBlock})
	case syn.GoodEvil != nil:
		p.topLevel(at, &Pattern{At: at, Actions: p.symbolsOf(syn.GoodEvil.Pattern)})
	case syn.Space != nil && syn.Space.Table:
		p.open(&Block{At: at, Kind: TableBlock})
	case syn.Space != nil && syn.Space.Generator:
		p.open(&Block{At: at, Kind: GeneratorBlock, Dialect: orThesis(syn.Space.GenDialect)})
	case syn.Space != nil:
		p.topLevel(at, &SpaceCode{At: at, Dialect: orThesis(syn.Space.Dialect), Code: p.symbolsOf(syn.Space.Code)})
	case syn.Actions != nil:
		p.topLevel(at, &Actions{At: at, Names: p.symbolsOf(syn.Actions.Symbols)})
	case syn.Setting != nil:
		p.topLevel(at, &Setting{At: at, Key: syn.Setting.Key, Args: p.words(syn.Setting.Tokens[1:])})
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

// orThesis names the default dialect of space codes.
func orThesis(dialect string) string {
	if dialect == "" {
		return "thesis"
	}
	return dialect
}

// open starts reading a braced block.
func (p *parser) open(b *Block) {
	if p.block != nil {
		p.errs.Add(b.At, "blocks do not nest: the block at %s is still open", p.block.At)
		return
	}
	p.block = b
	p.file.Decls = append(p.file.Decls, b)
}

// topLevel adds a declaration that only stands outside blocks.
func (p *parser) topLevel(at Pos, d Decl) {
	if p.block != nil {
		p.errs.Add(at, "this declaration stands at the top level, not inside a block")
		return
	}
	p.file.Decls = append(p.file.Decls, d)
}

func (p *parser) symbolsOf(set []*setSyntax) []*Symbol {
	var out []*Symbol
	for _, s := range set {
		out = append(out, p.setSymbols(s)...)
	}
	return out
}

// words joins adjacent tokens back into the words they were written as,
// with escapes resolved (\pi is π).
func (p *parser) words(toks []lexer.Token) []string {
	var out []string
	end := -1
	for _, t := range toks {
		text := t.Value
		if t.Type == tokRun {
			text = ""
			for _, s := range p.symbolsAt(t.Pos.Offset) {
				text += s.Name
			}
		}
		if t.Pos.Offset == end && len(out) > 0 {
			out[len(out)-1] += text
		} else {
			out = append(out, text)
		}
		end = t.Pos.Offset + len(t.Value)
	}
	return out
}

func (p *parser) setSymbols(s *setSyntax) []*Symbol {
	if s.Pipe {
		return []*Symbol{{At: posOf(s.Pos), Name: "|"}}
	}
	return p.symbolsAt(s.Pos.Offset)
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
	out := make([]Elem, 0, len(items))
	for _, it := range items {
		if it.Pipe {
			out = append(out, &Symbol{At: posOf(it.Pos), Name: "|", Marked: it.PipeMark})
			continue
		}
		out = p.elem(out, it.Elem)
	}
	if len(out) == 0 {
		return nil // as when nothing was ever appended
	}
	return out
}

func (p *parser) elems(items []*elemSyntax) []Elem {
	var out []Elem
	for _, it := range items {
		out = p.elem(out, it)
	}
	return out
}

// elem appends one element to out; a run gives several symbols, and a
// mark after a run marks its last symbol.
func (p *parser) elem(out []Elem, e *elemSyntax) []Elem {
	if e.Run != "" {
		syms := p.symbolsAt(e.Pos.Offset)
		for _, s := range syms {
			out = append(out, s) // each run token is read once: its symbols are the AST's
		}
		if len(syms) > 0 && e.Mark {
			syms[len(syms)-1].Marked = true
		}
		return out
	}
	if el := p.nonRun(e); el != nil {
		out = append(out, el)
	}
	return out
}

// nonRun converts an element other than a run; a stray dot is an error and
// gives nil.
func (p *parser) nonRun(e *elemSyntax) Elem {
	at := posOf(e.Pos)
	switch {
	case e.Chi != nil:
		return &Wildcard{At: at, Bind: e.Chi.Sub, Marked: e.Mark}
	case e.Except != nil:
		w := &Wildcard{At: at, Bind: e.Except.Sub, HasExcept: true, Marked: e.Mark}
		for _, s := range e.Except.Symbols {
			w.Except = append(w.Except, p.setSymbols(s)...)
		}
		return w
	case e.Group != nil:
		g := &Group{At: at, Optional: e.Group.Open == "[", Bind: e.Group.Sub, Marked: e.Mark}
		for _, a := range e.Group.Alts {
			g.Alts = append(g.Alts, p.elems(a.Elems))
		}
		return g
	case e.Store:
		if e.Mark {
			p.errs.Add(at, "Δ cannot itself be marked with ^Δ")
		}
		return &Store{At: at}
	case e.Recall:
		if e.Mark {
			p.errs.Add(at, "∇ cannot be marked with ^Δ")
		}
		return &Recall{At: at}
	default: // a stray dot
		p.errs.Add(at, "'.' marks a terminating rule only right after the arrow; write \\. for a dot symbol")
		return nil
	}
}
