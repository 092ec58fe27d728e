package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ruleReader is a hand-written parser of one rule statement, the fast path
// of the grammar's ruleSyntax, which builds the rule's AST at once.
// Participle spends kilobytes and microseconds on every statement (its
// parse contexts branch at every repetition and option), which made a file
// of half a million rules take minutes and gigabytes; this reader walks the
// tokens once, with one token of lookahead (two for ^Δ and for (χ ∉), and
// allocates nothing but the AST: its sequences are gathered on a stack
// (parser.scratch) and copied out at their exact length.
//
// It accepts a subset of what participle accepts: whenever a statement does
// not read as a rule here, it is handed to participle, which gives the
// error message (or, were the two ever to disagree, the parse). So syntax
// errors are participle's, word for word, and a statement that reads here
// gives the AST and the errors of meaning that participle's tree converted
// by parser.rule gives: TestRuleReaderAgreesWithParticiple and the fuzz
// target FuzzRuleReader compare the two.
type ruleReader struct {
	p    *parser
	toks []lexer.Token // the statement, without its EOF
	runs [][]*Symbol   // the symbols of each run token, by index
	i    int
	errs ErrorList // of meaning, added to the parser's when the rule reads
	// marks are the run symbols a ^Δ marks: they are marked when the rule
	// reads, so that a statement handed to participle finds them unmarked.
	marks []*Symbol
}

// readRule reads toks, whose runs have the symbols runs, as a rule, and
// reports whether it could.
func (p *parser) readRule(toks []lexer.Token, runs [][]*Symbol) (*Rule, bool) {
	r := &ruleReader{p: p, toks: toks, runs: runs}
	rule := p.newRule(posOf(toks[0].Pos))
	var ok bool
	if rule.LHS, ok = r.side(); !ok || r.peek() != tokArrow {
		return nil, false
	}
	r.i++
	if r.peek() == tokDot {
		rule.Terminating = true
		r.i++
	}
	if rule.RHS, ok = r.side(); !ok || r.i != len(r.toks) {
		return nil, false
	}
	for _, s := range r.marks {
		s.Marked = true
	}
	p.errs = append(p.errs, r.errs...)
	return rule, true
}

// newRule makes a rule, cut from a chunk as symbols are (newSymbol).
func (p *parser) newRule(at Pos) *Rule {
	if len(p.rules) == cap(p.rules) {
		p.rules = make([]Rule, 0, min(2*cap(p.rules)+4, ruleChunk)) // from small, as symbols'
	}
	p.rules = append(p.rules, Rule{At: at})
	return &p.rules[len(p.rules)-1]
}

// ruleChunk is the most rules a parser allocates at once.
const ruleChunk = 128

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

// maxRepeats is below participle's bound on the repetitions of one
// expression (a variable of participle's): a list that long is left to
// participle to refuse.
var maxRepeats = participle.MaxIterations - 1

// push puts an element on the scratch stack.
func (r *ruleReader) push(e Elem) { r.p.scratch = append(r.p.scratch, e) }

// pop takes the elements pushed since start off the stack, as a slice of
// their own; nil when there are none, as the conversion of participle's
// tree gives.
func (r *ruleReader) pop(start int) []Elem {
	if len(r.p.scratch) == start {
		return nil
	}
	out := make([]Elem, len(r.p.scratch)-start)
	copy(out, r.p.scratch[start:])
	clear(r.p.scratch[start:])
	r.p.scratch = r.p.scratch[:start]
	return out
}

// side reads the elements of a rule side, where '|' is a symbol.
func (r *ruleReader) side() ([]Elem, bool) {
	start := len(r.p.scratch)
	for items := 0; items < maxRepeats; items++ {
		switch t := r.peek(); {
		case t == tokPipe:
			s := r.p.lex.newSymbol(posOf(r.toks[r.i].Pos), "|")
			r.i++
			s.Marked = r.mark()
			r.push(s)
		case startsElem(t):
			if !r.elem() {
				r.pop(start)
				return nil, false
			}
		default:
			return r.pop(start), true
		}
	}
	r.pop(start)
	return nil, false
}

// elem reads one element, the next token being one that starts it, and
// pushes what it stands for: a run's symbols, nothing for a stray dot.
func (r *ruleReader) elem() bool {
	tok := r.toks[r.i]
	at := posOf(tok.Pos)
	r.i++
	switch tok.Type {
	case tokRun:
		syms := r.runs[r.i-1]
		for _, s := range syms {
			r.push(s)
		}
		if r.mark() && len(syms) > 0 {
			r.marks = append(r.marks, syms[len(syms)-1])
		}
	case tokChi:
		w := &Wildcard{At: at, Bind: r.subscript()}
		w.Marked = r.mark()
		r.push(w)
	case tokDelta:
		if r.mark() {
			r.errs.Add(at, "Δ cannot itself be marked with ^Δ")
		}
		r.push(&Store{At: at})
	case tokNabla:
		if r.mark() {
			r.errs.Add(at, "∇ cannot be marked with ^Δ")
		}
		r.push(&Recall{At: at})
	case tokDot:
		r.mark()
		r.errs.Add(at, "'.' marks a terminating rule only right after the arrow; write \\. for a dot symbol")
	case tokLParen, tokLBrack:
		var e Elem
		var ok bool
		if tok.Type == tokLParen && r.startsExcept() {
			e, ok = r.except(at)
		} else {
			e, ok = r.group(at, tok.Type == tokLBrack)
		}
		if !ok {
			return false
		}
		r.push(e)
	}
	return true
}

// startsExcept reports whether the tokens after '(' begin χ ∉, with or
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

// except reads χ[k] ∉ {…}) after its '(', and the mark after it.
func (r *ruleReader) except(at Pos) (*Wildcard, bool) {
	r.i++ // χ
	w := &Wildcard{At: at, Bind: r.subscript(), HasExcept: true}
	r.i++ // ∉
	if r.peek() != tokLBrace {
		return nil, false
	}
	r.i++
	if r.setMember(w) {
		for members := 1; members < maxRepeats; members++ {
			comma := r.peek() == tokComma
			if comma {
				r.i++
			}
			if !r.setMember(w) {
				if comma {
					return nil, false
				}
				break
			}
		}
	}
	if r.peek() != tokRBrace || r.i+1 >= len(r.toks) || r.toks[r.i+1].Type != tokRParen {
		return nil, false
	}
	r.i += 2
	w.Marked = r.mark()
	return w, true
}

// setMember reads a member of a symbol set into w's exclusions, if one
// comes next.
func (r *ruleReader) setMember(w *Wildcard) bool {
	switch r.peek() {
	case tokRun:
		w.Except = append(w.Except, r.runs[r.i]...)
	case tokPipe:
		w.Except = append(w.Except, r.p.lex.newSymbol(posOf(r.toks[r.i].Pos), "|"))
	default:
		return false
	}
	r.i++
	return true
}

// group reads the rest of ( a | b ) or [ a | b ] after its opening
// bracket, its subscript and its mark.
func (r *ruleReader) group(at Pos, optional bool) (*Group, bool) {
	g := &Group{At: at, Optional: optional}
	for {
		start := len(r.p.scratch)
		for elems := 0; startsElem(r.peek()); elems++ {
			if elems == maxRepeats || !r.elem() {
				r.pop(start)
				return nil, false
			}
		}
		g.Alts = append(g.Alts, r.pop(start))
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
	r.i++
	g.Bind = r.subscript()
	g.Marked = r.mark()
	return g, true
}

// readDecl reads, as participle would, the declarations a large file
// repeats, `use NAME`, `block NAME {` and `}`, and those of an environment
// file that a test writes by the thousand (package exam's Λ_one items):
// `actions …`, `space table {`, `goodevil pattern …` and the settings
// `reward …`, `place …`, `set …`. Any other is participle's, and so is
// one of these whose tokens participle would refuse, for its error.
func readDecl(toks []lexer.Token) (*declSyntax, bool) {
	syn := &declSyntax{Pos: toks[0].Pos}
	switch key := toks[0].Value; {
	case len(toks) == 1 && toks[0].Type == tokRBrace:
		syn.Close = true
	case len(toks) == 2 && key == "use" && toks[1].Type == tokRun:
		syn.Use = &useSyntax{Name: toks[1].Value}
	case len(toks) == 3 && key == "block" && toks[1].Type == tokRun && toks[2].Type == tokLBrace:
		syn.Block = &blockSyntax{Name: toks[1].Value}
	case len(toks) == 3 && key == "space" && toks[1].Value == "table" && toks[2].Type == tokLBrace:
		syn.Space = &spaceSyntax{Table: true}
	case key == "actions":
		set, ok := readSets(toks[1:])
		if !ok {
			return nil, false
		}
		syn.Actions = &actionsSyntax{Symbols: set}
	case key == "goodevil" && len(toks) > 1 && toks[1].Value == "pattern":
		set, ok := readSets(toks[2:])
		if !ok {
			return nil, false
		}
		syn.GoodEvil = &goodEvilSyntax{Pattern: set}
	case key == "reward" || key == "place" || key == "set":
		for _, t := range toks[1:] {
			if t.Type != tokRun && t.Type != tokDot && t.Type != tokPipe && t.Type != tokComma {
				return nil, false
			}
		}
		syn.Setting = &settingSyntax{Key: key, Tokens: toks}
	default:
		return nil, false
	}
	return syn, true
}

// readSets reads one or more symbols or '|'s, participle's `@@+` of
// setSyntax.
func readSets(toks []lexer.Token) ([]*setSyntax, bool) {
	if len(toks) == 0 {
		return nil, false
	}
	set := make([]*setSyntax, len(toks))
	for i, t := range toks {
		switch t.Type {
		case tokRun:
			set[i] = &setSyntax{Pos: t.Pos, Run: t.Value}
		case tokPipe:
			set[i] = &setSyntax{Pos: t.Pos, Pipe: true}
		default:
			return nil, false
		}
	}
	return set, true
}
