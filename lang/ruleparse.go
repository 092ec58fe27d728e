package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ruleReader is a hand-written parser of one rule statement, the fast path
// of the grammar's ruleSyntax. Participle spends kilobytes and microseconds
// on every statement (its parse contexts branch at every repetition and
// option), which made a file of half a million rules take minutes and
// gigabytes; this reader walks the tokens once, with one token of lookahead
// (two for ^Δ), and builds the very structures participle would.
//
// It accepts a subset of what participle accepts: whenever a statement does
// not read as a rule here, it is handed to participle, which gives the
// error message (or, were the two ever to disagree, the parse). So the
// syntax errors are participle's, word for word, and a statement that
// parses here gives participle's tree: TestRuleReaderAgreesWithParticiple
// and the fuzz target FuzzRuleReader compare the two.
type ruleReader struct {
	toks []lexer.Token // the statement, without its EOF
	i    int
}

// readRule parses toks as a rule and reports whether it could.
func readRule(toks []lexer.Token) (*ruleSyntax, bool) {
	r := &ruleReader{toks: toks}
	syn := &ruleSyntax{Pos: toks[0].Pos}
	var ok bool
	if syn.LHS, ok = r.tops(); !ok || r.peek() != tokArrow {
		return nil, false
	}
	syn.Arrow = r.toks[r.i].Value
	r.i++
	if r.peek() == tokDot {
		syn.Terminating = true
		r.i++
	}
	if syn.RHS, ok = r.tops(); !ok || r.i != len(r.toks) {
		return nil, false
	}
	return syn, true
}

// peek gives the type of the next token, tokEOF at the end.
func (r *ruleReader) peek() lexer.TokenType {
	if r.i < len(r.toks) {
		return r.toks[r.i].Type
	}
	return tokEOF
}

// mark consumes ^Δ if it comes next.
func (r *ruleReader) mark() bool {
	if r.peek() == tokCaret && r.i+1 < len(r.toks) && r.toks[r.i+1].Type == tokDelta {
		r.i += 2
		return true
	}
	return false
}

// subscript consumes a subscript if one comes next.
func (r *ruleReader) subscript() string {
	if r.peek() == tokSubscript {
		r.i++
		return r.toks[r.i-1].Value
	}
	return ""
}

// startsElem reports whether an element begins with a token of type t.
func startsElem(t lexer.TokenType) bool {
	switch t {
	case tokRun, tokLParen, tokLBrack, tokChi, tokDelta, tokNabla, tokDot:
		return true
	}
	return false
}

// tops reads the elements of a rule side, where '|' is a symbol. Past
// participle's bound on repetitions it fails, and participle reports it.
func (r *ruleReader) tops() ([]*topSyntax, bool) {
	var out []*topSyntax
	for len(out) < maxRepeats {
		switch t := r.peek(); {
		case t == tokPipe:
			top := &topSyntax{Pos: r.toks[r.i].Pos, Pipe: true}
			r.i++
			top.PipeMark = r.mark()
			out = append(out, top)
		case startsElem(t):
			e, ok := r.elem()
			if !ok {
				return nil, false
			}
			out = append(out, &topSyntax{Pos: e.Pos, Elem: e})
		default:
			return out, true
		}
	}
	return nil, false
}

// maxRepeats is below participle's bound on the repetitions of one
// expression (a variable of participle's): a list that long is left to
// participle to refuse.
var maxRepeats = participle.MaxIterations - 1

// elem reads one element, the next token being one that starts it, and
// leaves r.i after it.
func (r *ruleReader) elem() (*elemSyntax, bool) {
	tok := r.toks[r.i]
	e := &elemSyntax{Pos: tok.Pos}
	r.i++
	switch tok.Type {
	case tokRun:
		e.Run = tok.Value
	case tokChi:
		e.Chi = &chiSyntax{Sub: r.subscript()}
	case tokDelta:
		e.Store = true
	case tokNabla:
		e.Recall = true
	case tokDot:
		e.Stray = tok.Value
	case tokLParen, tokLBrack:
		if tok.Type == tokLParen && r.startsExcept() {
			var ok bool
			if e.Except, ok = r.except(); !ok {
				return nil, false
			}
			break
		}
		var ok bool
		if e.Group, ok = r.group(tok.Value); !ok {
			return nil, false
		}
	}
	e.Mark = r.mark()
	return e, true
}

// startsExcept reports whether the tokens after '(' begin (χ ∉, with or
// without a subscript: participle tries that branch before a group's.
func (r *ruleReader) startsExcept() bool {
	j := r.i
	if j >= len(r.toks) || r.toks[j].Type != tokChi {
		return false
	}
	if j++; j < len(r.toks) && r.toks[j].Type == tokSubscript {
		j++
	}
	return j < len(r.toks) && r.toks[j].Type == tokNotIn
}

// except reads χ[k] ∉ {…}) after its '('.
func (r *ruleReader) except() (*exceptSyntax, bool) {
	r.i++ // χ
	ex := &exceptSyntax{Sub: r.subscript()}
	r.i++ // ∉
	if r.peek() != tokLBrace {
		return nil, false
	}
	r.i++
	if set, ok := r.setMember(); ok {
		ex.Symbols = append(ex.Symbols, set)
		for len(ex.Symbols) < maxRepeats {
			comma := r.peek() == tokComma
			if comma {
				r.i++
			}
			set, ok := r.setMember()
			if !ok {
				if comma {
					return nil, false
				}
				break
			}
			ex.Symbols = append(ex.Symbols, set)
		}
	}
	if r.peek() != tokRBrace || r.i+1 >= len(r.toks) || r.toks[r.i+1].Type != tokRParen {
		return nil, false
	}
	r.i += 2
	return ex, true
}

// setMember reads a member of a symbol set if one comes next.
func (r *ruleReader) setMember() (*setSyntax, bool) {
	switch r.peek() {
	case tokRun:
		r.i++
		return &setSyntax{Pos: r.toks[r.i-1].Pos, Run: r.toks[r.i-1].Value}, true
	case tokPipe:
		r.i++
		return &setSyntax{Pos: r.toks[r.i-1].Pos, Pipe: true}, true
	}
	return nil, false
}

// group reads ( a | b ) or [ a | b ] and its subscript after the opening
// bracket, whose text is open.
func (r *ruleReader) group(open string) (*groupSyntax, bool) {
	g := &groupSyntax{Open: open}
	for {
		alt := &altSyntax{}
		for startsElem(r.peek()) {
			if len(alt.Elems) == maxRepeats {
				return nil, false
			}
			e, ok := r.elem()
			if !ok {
				return nil, false
			}
			alt.Elems = append(alt.Elems, e)
		}
		g.Alts = append(g.Alts, alt)
		if r.peek() != tokPipe {
			break
		}
		if len(g.Alts) == maxRepeats {
			return nil, false
		}
		r.i++
	}
	if t := r.peek(); t != tokRParen && t != tokRBrack {
		return nil, false
	}
	g.Close = r.toks[r.i].Value
	r.i++
	g.Sub = r.subscript()
	return g, true
}
