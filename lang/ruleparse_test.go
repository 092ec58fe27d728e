package lang

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/internal/bigsource"
	"github.com/google/go-cmp/cmp"
)

// readerSources are rule statements at the edges of the grammar, for the
// comparison of the hand-written reader with participle; the fuzz target
// starts from them too.
var readerSources = []string{
	"a -> b", "a->b", "a ->. b", "a ->.b", "a → b", "a →· b", `a \to\cdot b`, "->", "->.", "-> .",
	"->->", ". -> .", "a . b -> c . .", "-> . .", "a ->. .",
	"ab^Δ -> c", `a^\Delta -> `, "a ^ Δ -> b", "a^ -> b", "^Δ -> a", "(a|b)^Δ1 -> ", "a^Δ^Δ -> ",
	"χ1^Δ -> χ1", "[a]^Δ c -> ∇", "a -> b^Δ", "a -> Δ∇", "Δ^Δ -> ∇^Δ", ".^Δ -> ",
	"a|b -> c|d", "| -> ||", "|^Δ -> a", "a|^Δ|b -> ∇", "(a|b)|^Δ ->", "| ^ Δ ->", "|^ ->",
	"(|) -> ", "[|] -> ", "() -> []", "(a|b)1 -> (a|b)1", "[a]_1 b -> [a]_1", "(a)1 2 -> ",
	"(a|b)1 (a|b)1 -> ", "(a|b)_I -> (a|b)_I", "χ1 χ1 -> χ1", "χ χ1 χ_I -> ", "(χ) -> (χ1)",
	"(χ1 ∉ {a, b}) -> χ1", `(\chi_I \notin {a b}) -> \chi_I`, "(χ ∉ {}) -> ", "(χ ∉ {a,,b}) -> ",
	"(χ ∉ {|, \\,}) -> ", "(χ ∉ {a,}) -> ", "(χ ∉ {,a}) -> ", "(χ ∉ {a} ) -> ", "(χ ∉ a) -> ",
	"(χ1 ∉ {a b, c}d) -> ", "(χ ∉ {a})^Δ -> ", "(χ ∉ {a})1 -> ", "(χ1 χ2) -> ", "[χ ∉ {a}] -> ",
	"[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]", "((a|b)|c)1 -> ((a|b)|c)1", "[[a]1]2 -> [a]1",
	"(a|b] -> c", "[a) -> b", "(a -> b) -> c", "a -> (b ->)", "(a, b) -> ", "a, -> b", "a -> b,",
	"{a} -> b", "a -> {", "a -> }", "(a {b}) -> ", "(χ ∉ {(a)}) -> ", "a ∉ -> b", "∉ -> ",
	"a -> χ1 ∉", "a^Δ b^Δ -> ", ".^Δ . -> Δ^Δ ∇^Δ .", "(. a|Δ^Δ) -> [∇^Δ]", "(χ ∉ {|})^Δ -> ", "S (L|R)^Δ -> S", "π [⊙] ω1 -> ∇ Φ", "⊙ (E_I|E_D)1 -> (E_I|E_D)1 ⊙",
}

// participleRule parses a rule statement with participle, the reference.
func participleRule(toks []lexer.Token) (*ruleSyntax, error) {
	last := toks[len(toks)-1]
	end := lexer.Token{Type: tokEOF, Pos: last.Pos}
	return ruleParser().ParseFromLexer(mustUpgrade(&tokenStream{tokens: withEnd(toks, end)}))
}

// ruleStatement is a statement with an arrow, and the parser that read
// its tokens.
type ruleStatement struct {
	p    *parser
	toks []lexer.Token
	runs [][]*Symbol
}

// ruleStatements cuts a source into statements as the parser does (at
// newlines and ';', after a brace that opens a block, around one that
// closes it) and returns those with an arrow. Each call lexes anew, so that
// two calls give symbols of their own.
func ruleStatements(src string) []ruleStatement {
	p := &parser{lex: newTokenizer("t.anynt", src), file: &File{}}
	var out []ruleStatement
	var stmt ruleStatement
	flush := func() {
		if isRule(stmt.toks) {
			stmt.p = p
			out = append(out, stmt)
		}
		stmt = ruleStatement{}
	}
	depth := 0
	for {
		tok, syms := p.lex.token()
		switch tok.Type {
		case tokEOF:
			flush()
			return out
		case tokEOL:
			depth = 0
			flush()
			continue
		case tokLParen, tokLBrack:
			depth++
		case tokRParen, tokRBrack:
			depth = max(depth-1, 0)
		case tokRBrace:
			if depth == 0 {
				flush()
			}
		}
		stmt.toks = append(stmt.toks, tok)
		stmt.runs = append(stmt.runs, syms)
		if (tok.Type == tokLBrace || tok.Type == tokRBrace) && depth == 0 {
			flush()
		}
	}
}

// agree checks that the reader and participle agree on the statements of
// a source: the reader reads a statement exactly when participle parses
// it, to the AST and the errors that participle's tree converts to. The
// two read the source apart, so that neither sees the other's marks.
func agree(t testing.TB, src string, skip func(ruleStatement) bool) int {
	t.Helper()
	fast, slow := ruleStatements(src), ruleStatements(src)
	n := 0
	for k := range fast {
		if skip(fast[k]) {
			continue
		}
		n++
		a, b := fast[k], slow[k]
		a.p.errs, b.p.errs = nil, nil
		rule, ok := a.p.readRule(a.toks, a.runs)
		b.p.stmt, b.p.runs = b.toks, b.runs
		syn, err := participleRule(b.toks)
		switch {
		case ok && err != nil:
			t.Fatalf("%q: the reader reads what participle refuses (%v)", src, err)
		case !ok && err == nil:
			t.Fatalf("%q: the reader refuses what participle parses", src)
		case ok:
			want := b.p.rule(syn)
			if diff := cmp.Diff(want, rule); diff != "" {
				t.Fatalf("%q: the reader's rule differs from participle's (-participle +reader):\n%s", src, diff)
			}
			if diff := cmp.Diff(b.p.errs, a.p.errs); diff != "" {
				t.Fatalf("%q: the reader's errors differ from participle's (-participle +reader):\n%s", src, diff)
			}
		}
	}
	return n
}

// declSources are declarations at the edges of what readDecl reads.
var declSources = []string{
	"use a", "use erase-separators", "use", "use a b", "use (", "use |", "use {", "use }", "used a",
	"block a {", "block erase-separators {", "block {", "block a", "block a b {", "block | {", "blocks a {",
	"}", "} }", "alphabet a b", "block", "u\\se a", "use ->", "USE a",
	"space table {", "space table", "space table { }", "space tables {", "space generator {", "space 12+3-|",
	"space | table {", "actions a0 a1 a2", "actions", "actions |", "actions a | b", "actions a, b", "actions (a)",
	"actions a . b", "actions\\pi π", "goodevil pattern 0 1 2", "goodevil pattern", "goodevil pattern |",
	"goodevil pattern 0, 1", "goodevil {", "goodevil patterns 0", "goodevil", "reward 1", "reward",
	"reward 0.5", "reward -1", "reward 1 {", "place π 1", "place \\pi 2", "place ⊕ 3 4", "place ω1 (2)",
	"set rewards lambda-one", "set cycle off", "set garbage off", "set a, b | c . d", "set a -> b",
	"set", "set x ∉ y", "settings a", "Reward 1",
}

// The declarations read by hand are read as participle reads them: the
// edge cases above, and every line of the corpus.
func TestDeclReaderAgreesWithParticiple(t *testing.T) {
	sources := append([]string(nil), declSources...)
	for _, src := range corpusSources(t) {
		sources = append(sources, strings.Split(src, "\n")...)
	}
	read := 0
	for _, src := range sources {
		if agreeDecl(t, src) {
			read++
		}
	}
	if read < 45 {
		t.Errorf("the reader read only %d declarations", read)
	}
}

// agreeDecl compares the reader with participle on a one-line source and
// says whether the reader read it.
func agreeDecl(t *testing.T, src string) bool {
	toks := ruleStatementsOf(src)
	if len(toks) == 0 || isRule(toks) {
		return false
	}
	last := toks[len(toks)-1]
	want, err := declParser().ParseFromLexer(mustUpgrade(&tokenStream{tokens: withEnd(toks, lexer.Token{Type: tokEOF, Pos: last.Pos})}))
	got, ok := readDecl(toks)
	switch {
	case ok && err != nil:
		t.Fatalf("%q: the reader reads what participle refuses (%v)", src, err)
	case ok:
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q: the reader differs from participle (-participle +reader):\n%s", src, diff)
		}
	}
	return ok
}

// FuzzDeclReader checks that the hand-written reader and participle agree
// on every declaration the reader reads.
func FuzzDeclReader(f *testing.F) {
	for _, src := range declSources {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// One statement, whose brackets balance, as the parser hands the
		// reader; participle takes long on long ones, which are not harder.
		line, _, _ := strings.Cut(src, "\n")
		line = strings.ReplaceAll(line, ";", " ")
		if toks := ruleStatementsOf(line); len(toks) > 200 || !(&parser{}).balanced(toks) {
			return
		}
		agreeDecl(t, line)
	})
}

// ruleStatementsOf gives the tokens of a one-line source.
func ruleStatementsOf(src string) []lexer.Token {
	lex := newTokenizer("t.anynt", src)
	var toks []lexer.Token
	for tok, _ := lex.token(); tok.Type != tokEOF; tok, _ = lex.token() {
		toks = append(toks, tok)
	}
	return toks
}

func TestRuleReaderAgreesWithParticiple(t *testing.T) {
	sources := append(append([]string(nil), readerSources...), corpusSources(t)...)
	stdlib, err := filepath.Glob("../stdlib/*.anynt")
	if err != nil || len(stdlib) == 0 {
		t.Fatalf("stdlib: %d files, %v", len(stdlib), err)
	}
	for _, path := range stdlib {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(src))
	}
	sources = append(sources, string(bigsource.Rules(20_000)))
	n := 0
	for _, src := range sources {
		n += agree(t, src, func(ruleStatement) bool { return false })
	}
	if n < 1000 {
		t.Errorf("only %d statements compared", n)
	}
}

// FuzzRuleReader checks that the hand-written reader and participle agree
// on every rule statement of arbitrary text.
func FuzzRuleReader(f *testing.F) {
	for _, src := range readerSources {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		// The parser hands the reader only statements whose brackets
		// balance; participle takes long on long ones, which are not
		// harder.
		agree(t, src, func(s ruleStatement) bool {
			return len(s.toks) > 200 || !(&parser{}).balanced(s.toks)
		})
	})
}

// corpusSources is the text of every environment file of the corpus.
func corpusSources(t *testing.T) []string {
	t.Helper()
	names, err := fs.Glob(corpus.Files, "*/*.anynt")
	if err != nil || len(names) == 0 {
		t.Fatalf("corpus: %d files, %v", len(names), err)
	}
	var sources []string
	for _, name := range names {
		src, err := fs.ReadFile(corpus.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(src))
	}
	return sources
}
