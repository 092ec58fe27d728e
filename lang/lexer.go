package lang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the notation. Participle's grammar refers to them by the
// names in tokenNames.
const (
	tokEOF   lexer.TokenType = lexer.EOF - iota
	tokEOL                   // a newline or ';': the end of a statement
	tokRun                   // juxtaposed symbols, split into symbols by the lexer
	tokArrow                 // -> or →
	tokDot                   // . or · : marks a terminating rule after the arrow
	tokPipe                  // |
	tokLParen
	tokRParen
	tokLBrack
	tokRBrack
	tokLBrace
	tokRBrace
	tokComma
	tokCaret
	tokDelta     // Δ
	tokNabla     // ∇
	tokChi       // χ
	tokNotIn     // ∉
	tokSubscript // a subscript right after ), ] or χ
)

var tokenNames = map[string]lexer.TokenType{
	"EOF": tokEOF, "EOL": tokEOL, "Run": tokRun, "Arrow": tokArrow, "Dot": tokDot,
	"Pipe": tokPipe, "LParen": tokLParen, "RParen": tokRParen, "LBrack": tokLBrack,
	"RBrack": tokRBrack, "LBrace": tokLBrace, "RBrace": tokRBrace, "Comma": tokComma,
	"Caret": tokCaret, "Delta": tokDelta, "Nabla": tokNabla, "Chi": tokChi,
	"NotIn": tokNotIn, "Subscript": tokSubscript,
}

// punctuation maps the reserved characters to their tokens.
var punctuation = map[rune]lexer.TokenType{
	'|': tokPipe, '(': tokLParen, ')': tokRParen, '[': tokLBrack, ']': tokRBrack,
	'{': tokLBrace, '}': tokRBrace, ',': tokComma, '^': tokCaret, 'Δ': tokDelta,
	'∇': tokNabla, 'χ': tokChi, '∉': tokNotIn, '→': tokArrow, '.': tokDot,
	'·': tokDot, ';': tokEOL,
}

// punctuationTexts spells each reserved character as a token's value, so
// that lexing one does not allocate a string.
var punctuationTexts = func() map[rune]string {
	texts := make(map[rune]string, len(punctuation))
	for r := range punctuation {
		texts[r] = string(r)
	}
	return texts
}()

func punctuationText(r rune) string { return punctuationTexts[r] }

// isReserved reports whether r has a meaning of its own in the notation and
// so cannot stand for a symbol unescaped.
func isReserved(r rune) bool {
	_, ok := punctuation[r]
	return ok || r == '#' || r == '\\' || unicode.IsSpace(r)
}

// scanner walks a source rune by rune, keeping the position.
type scanner struct {
	src    string
	off    int
	line   int
	col    int
	file   string
	errors ErrorList
	// slab makes symbols from chunks, the rest of symbols; see newSymbol.
	slab    bool
	symbols []Symbol
}

func newScanner(file, src string) *scanner {
	return &scanner{src: src, line: 1, col: 1, file: file}
}

func (s *scanner) pos() Pos { return Pos{File: s.file, Line: s.line, Col: s.col} }

func (s *scanner) lexPos() lexer.Position {
	return lexer.Position{Filename: s.file, Offset: s.off, Line: s.line, Column: s.col}
}

func (s *scanner) peek() (rune, int) {
	if s.off >= len(s.src) {
		return -1, 0
	}
	return utf8.DecodeRuneInString(s.src[s.off:])
}

func (s *scanner) next() rune {
	r, n := s.peek()
	if n == 0 {
		return -1
	}
	s.off += n
	if r == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return r
}

// tokenizer turns a source into tokens, one at a time: the parser asks
// for the next token when it needs it, so that only the statement being
// read has its tokens in memory, whatever the size of the file. It never
// stops at an error: a bad character is reported and skipped, so that the
// parser still sees the rest.
type tokenizer struct {
	scanner
	comments []*Comment
	// runs holds the symbols of the statement's runs; the parser empties
	// it at each statement, so that a run's symbols cost no allocation but
	// their own.
	runs []*Symbol
	// subscriptAllowed is true right after ), ] or χ, with no space
	// between: only there does a subscript bind to what precedes it.
	subscriptAllowed bool
	// What the file has used of its bounds (limits.go): statements and
	// comments, tokens, and the tokens of the statement being read, which
	// the parser sets back to 0 at each statement. The parser's errors
	// count with the lexer's against MaxErrors. Once a bound is passed the
	// tokenizer is stopped, and gives EOF from then on.
	statements, tokens, stmtTokens int
	parserErrors                   *ErrorList
	stopped                        bool
}

func newTokenizer(file, src string) *tokenizer {
	t := &tokenizer{scanner: *newScanner(file, src)}
	t.slab = true
	return t
}

// token returns the next token and, for a run, its symbols. At the end of
// the source it returns EOF, as often as it is asked.
func (s *tokenizer) token() (lexer.Token, []*Symbol) {
	for {
		at := s.lexPos()
		if !s.stopped && s.errorCount() > MaxErrors {
			s.stop(s.pos(), MaxErrors, limitErrors)
		}
		r, n := s.peek()
		if n == 0 || s.stopped {
			return lexer.Token{Type: tokEOF, Pos: at}, nil
		}
		afterCloser := s.subscriptAllowed
		s.subscriptAllowed = false
		switch {
		case r == utf8.RuneError && n == 1:
			s.errors.Add(s.pos(), "invalid UTF-8 encoding")
			s.next()
		case r == '\n':
			s.next()
			return lexer.Token{Type: tokEOL, Value: "\n", Pos: at}, nil
		case unicode.IsSpace(r):
			s.next()
		case r == '#':
			commentAt := s.pos()
			for r, n := s.peek(); n > 0 && r != '\n'; r, n = s.peek() {
				s.next()
			}
			if s.statements++; s.statements > MaxStatements {
				s.stop(commentAt, MaxStatements, limitStatements)
				continue
			}
			text := strings.TrimRight(s.src[at.Offset+1:s.off], " \t\r")
			s.comments = append(s.comments, &Comment{At: commentAt, Text: text})
		case afterCloser && startsSubscript(s.src[s.off:]):
			return s.counted(lexer.Token{Type: tokSubscript, Value: s.subscript(), Pos: at}), nil
		case r == '-' && strings.HasPrefix(s.src[s.off:], "->"):
			s.next()
			s.next()
			return s.counted(lexer.Token{Type: tokArrow, Value: "->", Pos: at}), nil
		case r == '\\':
			if tok, ok := s.escapeToken(at); ok {
				s.subscriptAllowed = strings.HasPrefix(tok.Value, "χ")
				return s.counted(tok), nil
			}
			if tok, syms := s.runToken(at); syms != nil {
				return tok, syms
			}
		case isReserved(r):
			s.next()
			t := punctuation[r]
			s.subscriptAllowed = t == tokRParen || t == tokRBrack || t == tokChi
			tok := lexer.Token{Type: t, Value: punctuationText(r), Pos: at}
			if t == tokEOL {
				return tok, nil // ';' ends a statement, as a newline does
			}
			return s.counted(tok), nil
		default:
			if tok, syms := s.runToken(at); syms != nil {
				return tok, syms
			}
		}
	}
}

// runToken lexes a run of juxtaposed symbols that starts at at. A run whose
// every symbol was a mistake gives no symbols and no token; then the caller
// goes on.
func (s *tokenizer) runToken(at lexer.Position) (lexer.Token, []*Symbol) {
	from := len(s.runs)
	room := min(MaxStatementTokens-s.stmtTokens, MaxTokens-s.tokens)
	s.runs = s.appendRun(s.runs, false, from+room)
	n := len(s.runs) - from
	if n > room {
		// Stopped at the first symbol past a bound, without reading the
		// rest of the run.
		past := s.runs[len(s.runs)-1].At
		s.runs = s.runs[:from]
		if s.stmtTokens+n > MaxStatementTokens {
			s.stop(past, MaxStatementTokens, limitStatementToken)
		} else {
			s.stop(past, MaxTokens, limitTokens)
		}
		return lexer.Token{}, nil
	}
	s.stmtTokens += n
	s.tokens += n
	if n == 0 {
		return lexer.Token{}, nil
	}
	return lexer.Token{Type: tokRun, Value: s.src[at.Offset:s.off], Pos: at}, s.runs[from:len(s.runs):len(s.runs)]
}

// counted counts a token other than a run against the bounds of the file
// and of its statement; past one, the tokenizer stops and the token is
// EOF.
func (s *tokenizer) counted(tok lexer.Token) lexer.Token {
	s.stmtTokens++
	s.tokens++
	switch {
	case s.stmtTokens > MaxStatementTokens:
		s.stop(posOf(tok.Pos), MaxStatementTokens, limitStatementToken)
	case s.tokens > MaxTokens:
		s.stop(posOf(tok.Pos), MaxTokens, limitTokens)
	default:
		return tok
	}
	return lexer.Token{Type: tokEOF, Pos: tok.Pos}
}

// stop reports that the file passes a bound at at, and ends the tokens.
func (s *tokenizer) stop(at Pos, limit int, what string) {
	s.errors.Add(at, "%w", &LimitError{Limit: limit, What: what})
	s.stopped = true
}

// errorCount is the number of errors found in the file so far.
func (s *tokenizer) errorCount() int {
	n := len(s.errors)
	if s.parserErrors != nil {
		n += len(*s.parserErrors)
	}
	return n
}

// escapeToken lexes an escape that stands for a reserved token (\Delta,
// \chi, \to, …) and reports whether it did; other escapes are symbols and
// are left to run.
func (s *scanner) escapeToken(at lexer.Position) (lexer.Token, bool) {
	name := escapeName(s.src[s.off+1:])
	r, ok := latexNames[name]
	if !ok {
		return lexer.Token{}, false
	}
	t, reserved := punctuation[r]
	if !reserved {
		return lexer.Token{}, false
	}
	for range len(name) + 1 {
		s.next()
	}
	return lexer.Token{Type: t, Value: punctuationText(r), Pos: at}, true
}

// escapeName returns the letters of a LaTeX-style name at the start of s.
func escapeName(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

// startsSubscript reports whether s begins with a subscript: digits, or '_'
// followed by ASCII letters or digits.
func startsSubscript(s string) bool {
	if s == "" {
		return false
	}
	if isDigit(s[0]) {
		return true
	}
	return s[0] == '_' && len(s) > 1 && isAlnum(s[1])
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// subscript consumes a subscript and returns its canonical spelling: digits
// without underscore ("_1" is "1"), or '_' and letters ("_I").
func (s *scanner) subscript() string {
	start := s.off
	if s.src[s.off] == '_' {
		s.next()
		for s.off < len(s.src) && isAlnum(s.src[s.off]) {
			s.next()
		}
	} else {
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.next()
		}
	}
	sub := s.src[start:s.off]
	if sub[0] == '_' && allDigits(sub[1:]) {
		return sub[1:]
	}
	return sub
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// appendRun consumes juxtaposed symbols up to a reserved character or an
// arrow, and appends them to syms. The lexer makes '|' a token of its own;
// the formatter, checking that a top-level run reads back, counts it as a
// symbol (pipeIsSymbol). It stops early once syms holds more than most
// symbols, or the scanner more than MaxErrors errors, so that a run past
// a bound is not read to its end.
func (s *scanner) appendRun(syms []*Symbol, pipeIsSymbol bool, most int) []*Symbol {
	for len(syms) <= most && len(s.errors) <= MaxErrors {
		r, n := s.peek()
		if n == 0 || r == '-' && strings.HasPrefix(s.src[s.off:], "->") {
			return syms
		}
		if r == '|' && pipeIsSymbol {
			syms = append(syms, &Symbol{At: s.pos(), Name: "|"})
			s.next()
			continue
		}
		if r == '\\' {
			name := escapeName(s.src[s.off+1:])
			if lr, ok := latexNames[name]; ok {
				if _, reserved := punctuation[lr]; reserved {
					return syms
				}
			}
		} else if isReserved(r) {
			return syms
		}
		if sym := s.symbol(); sym != nil {
			syms = append(syms, sym)
		}
	}
	return syms
}

// symbol consumes one symbol: a character or an escape, and a subscript if
// the character is a letter. It returns nil after reporting a bad escape.
func (s *scanner) symbol() *Symbol {
	at := s.pos()
	if r, n := s.peek(); r == utf8.RuneError && n == 1 {
		s.next()
		s.errors.Add(at, "invalid UTF-8 encoding")
		return nil
	}
	start := s.off
	r := s.next()
	escaped := r == '\\'
	if escaped {
		var ok bool
		if r, ok = s.escape(at); !ok {
			return nil
		}
	} else if !unicode.IsPrint(r) {
		s.errors.Add(at, "invalid character %U", r)
		return nil
	}
	name := symbolName(r)
	if unicode.IsLetter(r) && startsSubscript(s.src[s.off:]) {
		if from, sub := s.off, s.subscript(); escaped || sub != s.src[from:s.off] {
			name += sub
		} else {
			// Written as it is spelled: the name is the source's own text,
			// which the AST keeps anyway, rather than a string a symbol.
			name = s.src[start:s.off]
		}
	}
	return s.newSymbol(at, name)
}

// newSymbol makes a symbol. A tokenizer cuts them from chunks (slab), so
// that a large file makes one allocation for many symbols; a scanner that
// reads a few symbols (the formatter's) allocates them one by one.
func (s *scanner) newSymbol(at Pos, name string) *Symbol {
	if !s.slab {
		return &Symbol{At: at, Name: name}
	}
	if len(s.symbols) == cap(s.symbols) {
		// Chunks grow from small, so that a small file (a generated
		// candidate) does not pay for a large one's.
		s.symbols = make([]Symbol, 0, min(2*cap(s.symbols)+8, symbolChunk))
	}
	s.symbols = append(s.symbols, Symbol{At: at, Name: name})
	return &s.symbols[len(s.symbols)-1]
}

// symbolChunk is the most symbols a tokenizer allocates at once.
const symbolChunk = 256

// escape reads what follows a backslash: a LaTeX-style name or one literal
// character.
func (s *scanner) escape(at Pos) (rune, bool) {
	if name := escapeName(s.src[s.off:]); name != "" {
		for range len(name) {
			s.next()
		}
		r, ok := latexNames[name]
		if !ok {
			s.errors.Add(at, "unknown escape \\%s", name)
		}
		return r, ok
	}
	if r, n := s.peek(); r == utf8.RuneError && n == 1 {
		s.next()
		s.errors.Add(at, "invalid UTF-8 encoding")
		return 0, false
	}
	r := s.next()
	if r < 0 || r == '\n' {
		s.errors.Add(at, "a backslash must be followed by a name or a character")
		return 0, false
	}
	if !unicode.IsPrint(r) {
		s.errors.Add(at, "invalid character %U", r)
		return 0, false
	}
	return r, true
}

// asciiNames holds the name of every ASCII symbol, so that lexing one does
// not allocate a string.
var asciiNames = func() (names [128]string) {
	for c := range names {
		names[c] = string(rune(c))
	}
	return names
}()

func symbolName(r rune) string {
	if r >= 0 && r < 128 {
		return asciiNames[r]
	}
	return string(r)
}

// Symbols splits a string given as data (an input string, an alphabet on the
// command line) into symbols. Every character other than white space is a
// symbol, reserved ones included; letters take subscripts and backslashes
// introduce escapes, as in rule files.
func Symbols(text string) ([]string, error) {
	s := newScanner("", text)
	var out []string
	for s.off < len(s.src) {
		if r, _ := s.peek(); unicode.IsSpace(r) {
			s.next()
			continue
		}
		if sym := s.symbol(); sym != nil {
			out = append(out, sym.Name)
		}
	}
	if len(s.errors) > 0 {
		return nil, fmt.Errorf("%s", s.errors.Error())
	}
	return out, nil
}
