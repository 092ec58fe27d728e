package lang

import "fmt"

// Bounds on what one file may hold. A file of at most MaxSourceSize bytes
// could otherwise cost a hundred times its size in memory (a symbol is
// one byte of text and about a hundred bytes of AST), or write its errors
// again and again: the parser refuses a file as soon as it passes one of
// these bounds, with an error at the place it passed it, and reads no
// further, so that what a file costs is bounded before it is read whole.
// docs/language.md §7 gives the memory this leaves.
const (
	// MaxStatements bounds the statements of a file (rules, uses,
	// declarations, rows of a space table) and its comments together: the
	// rules of a list the compiler resolves are bounded by the same
	// number (compiler.MaxRules), and a file past it is refused at the
	// statement that passes it rather than after it is read whole.
	MaxStatements = 1 << 20
	// MaxTokens bounds the tokens of a file, where every symbol of a run
	// counts as one: every node of the AST is made from at least one of
	// them, so this bounds the AST. 4,194,304 is four tokens for each of
	// MaxStatements statements, half again the 2.8 million of the
	// densest file of the benchmarks (5 MB of ab -> ca).
	MaxTokens = 1 << 22
	// MaxStatementTokens bounds the tokens of one statement, which the
	// parser holds at once: 1,048,576, just above the longest string a
	// run holds by default (vm.DefaultMaxLen, a million symbols); no
	// program needs a rule longer than the strings it rewrites.
	MaxStatementTokens = 1 << 20
	// MaxGrammarTokens bounds the tokens of a statement that the
	// hand-written reader does not read (ruleparse.go): an alphabet, a
	// space code, any statement with a syntax error. Participle, which
	// reads those, spends about two kilobytes a token, so a longer one
	// stops the file, without participle's word on where it goes wrong.
	// Tokens here are participle's: a run of symbols is one.
	MaxGrammarTokens = 1 << 16
	// MaxErrors bounds the errors of a file: the parser stops once it
	// has found more, with one more error that says so. A file of stray
	// characters would otherwise give an error for each one.
	MaxErrors = 100
)

// LimitError is the error of a file that passes one of the bounds above.
// The file is read up to that point; the statement that passes it is not
// parsed.
type LimitError struct {
	Limit int
	What  string // what was counted, in the message's words
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("more than %d %s: the rest of the file is not read", e.Limit, e.What)
}

// The words of the bounds in LimitError's message.
const (
	limitStatements     = "statements and comments in one file (lang.MaxStatements)"
	limitTokens         = "symbols and marks in one file (lang.MaxTokens)"
	limitStatementToken = "symbols and marks in one statement (lang.MaxStatementTokens)"
	limitGrammarTokens  = "tokens in a statement that is not read as a rule or a declaration (lang.MaxGrammarTokens)"
	limitErrors         = "errors (lang.MaxErrors)"
)
