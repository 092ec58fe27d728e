package lang

import (
	"io/fs"
	"os"
	"path/filepath"
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
	"a -> χ1 ∉", "a^Δ b^Δ -> ", "S (L|R)^Δ -> S", "π [⊙] ω1 -> ∇ Φ", "⊙ (E_I|E_D)1 -> (E_I|E_D)1 ⊙",
}

// participleRule parses a rule statement with participle, the reference.
func participleRule(toks []lexer.Token) (*ruleSyntax, error) {
	last := toks[len(toks)-1]
	end := lexer.Token{Type: tokEOF, Pos: last.Pos}
	return ruleParser.ParseFromLexer(mustUpgrade(&tokenStream{tokens: withEnd(toks, end)}))
}

// ruleStatements cuts a source into statements as the parser does (at
// newlines and ';', after a brace that opens a block, around one that
// closes it) and returns those with an arrow.
func ruleStatements(src string) [][]lexer.Token {
	var out [][]lexer.Token
	var stmt []lexer.Token
	flush := func() {
		if isRule(stmt) {
			out = append(out, stmt)
		}
		stmt = nil
	}
	lex := newTokenizer("t.anynt", src)
	depth := 0
	for {
		tok, _ := lex.token()
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
		stmt = append(stmt, tok)
		if (tok.Type == tokLBrace || tok.Type == tokRBrace) && depth == 0 {
			flush()
		}
	}
}

// agree checks that the reader and participle agree on a statement: the
// reader reads it exactly when participle parses it, to the same tree.
func agree(t testing.TB, toks []lexer.Token) {
	t.Helper()
	fast, ok := readRule(toks)
	slow, err := participleRule(toks)
	switch {
	case ok && err != nil:
		t.Fatalf("%v: the reader reads what participle refuses (%v)", toks, err)
	case !ok && err == nil:
		t.Fatalf("%v: the reader refuses what participle parses", toks)
	case ok:
		if diff := cmp.Diff(slow, fast); diff != "" {
			t.Fatalf("%v: the reader's tree differs from participle's (-participle +reader):\n%s", toks, diff)
		}
	}
}

func TestRuleReaderAgreesWithParticiple(t *testing.T) {
	sources := append([]string(nil), readerSources...)
	names, err := fs.Glob(corpus.Files, "*/*.anynt")
	if err != nil || len(names) == 0 {
		t.Fatalf("corpus: %d files, %v", len(names), err)
	}
	for _, name := range names {
		src, err := fs.ReadFile(corpus.Files, name)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(src))
	}
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
		for _, toks := range ruleStatements(src) {
			agree(t, toks)
			n++
		}
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
		for _, toks := range ruleStatements(src) {
			// The parser hands the reader only statements whose brackets
			// balance; participle takes long on long ones, which are not
			// harder.
			if len(toks) > 200 || !(&parser{}).balanced(toks) {
				continue
			}
			agree(t, toks)
		}
	})
}
