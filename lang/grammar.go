package lang

import (
	"errors"
	"io"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar. The structures below are the concrete syntax of
// one statement; parse.go turns them into the AST of ast.go, splitting runs
// into symbols and checking what the grammar cannot say.

// ruleSyntax is `LHS -> RHS` or `LHS ->. RHS`.
type ruleSyntax struct {
	Pos         lexer.Position
	LHS         []*topSyntax `parser:"@@*"`
	Arrow       string       `parser:"@Arrow"`
	Terminating bool         `parser:"@Dot?"`
	RHS         []*topSyntax `parser:"@@*"`
}

// topSyntax is an element at the top level of a rule side, where '|' is an
// ordinary symbol and, like any left-hand side element, takes the mark ^Δ.
type topSyntax struct {
	Pos      lexer.Position
	Pipe     bool        `parser:"(  @Pipe"`
	PipeMark bool        `parser:"   @(Caret Delta)?"`
	Elem     *elemSyntax `parser:" | @@ )"`
}

type elemSyntax struct {
	Pos    lexer.Position
	Run    string        `parser:"(  @Run"`
	Except *exceptSyntax `parser:" | @@"`
	Chi    *chiSyntax    `parser:" | @@"`
	Group  *groupSyntax  `parser:" | @@"`
	Store  bool          `parser:" | @Delta"`
	Recall bool          `parser:" | @Nabla"`
	Stray  string        `parser:" | @Dot )"`
	Mark   bool          `parser:"@(Caret Delta)?"`
}

// chiSyntax is χ with an optional binding subscript.
type chiSyntax struct {
	Sub string `parser:"Chi @Subscript?"`
}

// exceptSyntax is (χ ∉ {a, b}).
type exceptSyntax struct {
	Sub     string       `parser:"LParen Chi @Subscript? NotIn LBrace"`
	Symbols []*setSyntax `parser:"( @@ ( Comma? @@ )* )? RBrace RParen"`
}

// setSyntax is a member of a symbol set or of an alphabet declaration.
type setSyntax struct {
	Pos  lexer.Position
	Run  string `parser:"  @Run"`
	Pipe bool   `parser:"| @Pipe"`
}

// groupSyntax is ( a | b ) or [ a | b ], with an optional binding subscript.
type groupSyntax struct {
	Open  string       `parser:"@(LParen | LBrack)"`
	Alts  []*altSyntax `parser:"@@ ( Pipe @@ )*"`
	Close string       `parser:"@(RParen | RBrack)"`
	Sub   string       `parser:"@Subscript?"`
}

type altSyntax struct {
	Elems []*elemSyntax `parser:"@@*"`
}

// declSyntax is a statement that is not a rule.
type declSyntax struct {
	Pos      lexer.Position
	Alphabet *alphabetSyntax `parser:"  @@"`
	Actions  *actionsSyntax  `parser:"| @@"`
	Space    *spaceSyntax    `parser:"| @@"`
	Object   *objectSyntax   `parser:"| @@"`
	GoodEvil *goodEvilSyntax `parser:"| @@"`
	Block    *blockSyntax    `parser:"| @@"`
	Use      *useSyntax      `parser:"| @@"`
	Setting  *settingSyntax  `parser:"| @@"`
	Close    bool            `parser:"| @RBrace"`
}

type alphabetSyntax struct {
	Symbols []*setSyntax `parser:"\"alphabet\" @@*"`
}

type actionsSyntax struct {
	Symbols []*setSyntax `parser:"\"actions\" @@+"`
}

// spaceSyntax is `space table {`, `space generator {` or `space [DIALECT] CODE`.
type spaceSyntax struct {
	Table      bool         `parser:"\"space\" ( @\"table\" LBrace"`
	Generator  bool         `parser:"          | @\"generator\""`
	GenDialect string       `parser:"            @(\"thesis\" | \"paper\")? LBrace"`
	Dialect    string       `parser:"          | @(\"thesis\" | \"paper\")?"`
	Code       []*setSyntax `parser:"            @@+ )"`
}

type objectSyntax struct {
	Name *setSyntax `parser:"\"object\" @@ LBrace"`
}

// goodEvilSyntax is `goodevil {` or `goodevil pattern ACTIONS`.
type goodEvilSyntax struct {
	Braced  bool         `parser:"\"goodevil\" ( @LBrace"`
	Pattern []*setSyntax `parser:"           | \"pattern\" @@+ )"`
}

type blockSyntax struct {
	Name string `parser:"\"block\" @Run LBrace"`
}

type useSyntax struct {
	Name string `parser:"\"use\" @Run"`
}

// settingSyntax is `reward …`, `place …` or `set …`; its words are joined
// back from the tokens, since a value such as 0.5 lexes as three.
type settingSyntax struct {
	Key    string        `parser:"@(\"reward\" | \"place\" | \"set\") (Run | Dot | Pipe | Comma)*"`
	Tokens []lexer.Token // participle fills it with the statement's tokens
}

// tokenDefinition hands participle the tokens our own lexer made: the lexer
// splits runs into symbols with their positions, which a regular-expression
// lexer cannot do.
type tokenDefinition struct{}

func (tokenDefinition) Symbols() map[string]lexer.TokenType { return tokenNames }

func (tokenDefinition) Lex(string, io.Reader) (lexer.Lexer, error) {
	return nil, errors.New("lang: statements are parsed from tokens, never from a reader")
}

// tokenStream replays one statement's tokens.
type tokenStream struct{ tokens []lexer.Token }

func (t *tokenStream) Next() (lexer.Token, error) {
	tok := t.tokens[0]
	if len(t.tokens) > 1 {
		t.tokens = t.tokens[1:]
	}
	return tok, nil
}

// The parsers are built when first used rather than in init: the hand
// readers take the common forms (ruleparse.go, the declaration reader), so
// most runs never need them, and building them was 1.6 ms of the start-up
// of every command (GODEBUG=inittrace=1).
var (
	ruleParser = sync.OnceValue(func() *participle.Parser[ruleSyntax] {
		return participle.MustBuild[ruleSyntax](participle.Lexer(tokenDefinition{}), participle.UseLookahead(8))
	})
	declParser = sync.OnceValue(func() *participle.Parser[declSyntax] {
		return participle.MustBuild[declSyntax](participle.Lexer(tokenDefinition{}), participle.UseLookahead(2))
	})
)

// EBNF returns the grammar of rules and declarations in EBNF.
func EBNF() string { return ruleParser().String() + "\n" + declParser().String() }
