package fuzz

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// trickySources are snippets at the edges of the notation: every spelling
// of the arrows, marks and escapes, subscripts next to runs, reserved
// characters as symbols, unbalanced brackets, bad bytes, comments and
// blocks.
var trickySources = []string{
	"", "\n", "\n\n\n", ";", "->", "->.", "-> .", " -> ", "->->", "-> ->", ". -> .",
	"a -> b", "a->b", "a ->. b", "a ->.b", "a → b", "a →· b", `a \to b`, `a \to\cdot b`,
	`a \rightarrow. b`, "a -> b; c -> d", "a -> b;; ;c -> d",
	"ab^Δ -> c", `a^\Delta -> `, "a ^ Δ -> b", "a^ -> b", "^Δ -> a", "(a|b)^Δ1 -> ",
	"χ1^Δ -> χ1", "[a]^Δ c -> ∇", "a -> b^Δ", "a -> Δ∇", "a -> ΔΔ", "Δ -> ", "∇ -> ", "a -> χ",
	"a|b -> c|d", "| -> ||", "|^Δ -> a", "a|^Δ|b -> ∇", "(a|b)|^Δ ->", "\uFEFFa -> b", "a -> b\n\uFEFF", "(|) -> ", "[|] -> ", "(a|b)1 -> (a|b)1", "[a]_1 b -> [a]_1",
	"(a|b)1 (a|b)1 -> ", "(a|b)_I -> (a|b)_I", "(a)1 -> (b)1", "χ1 χ1 -> χ1",
	"(χ1 ∉ {a, b}) -> χ1", `(\chi_I \notin {a b}) -> \chi_I`, "(χ ∉ {}) -> ", "(χ ∉ {a,,b}) -> ",
	"(χ ∉ {|, \\,}) -> ", "(χ1 ∉ {a}) χ1 -> ", "χχ1χ_2 -> ", "χ -> χ", "χ_ -> ", "χ_1a -> ",
	"[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]", "((a|b)|c)1 -> ((a|b)|c)1", "[[a]1]2 -> [a]1",
	"[χ1] b -> [χ1 χ1 !]", "[a b] -> [c]", "(a -> b", "a) -> b", "[a) -> b", "(a|b] -> c",
	"{a} -> b", "a -> {", "} -> a",
	"alphabet a b c", "alphabet", "alphabet abc", "alphabet | \\, \\.", "alphabet a\nalphabet b",
	"alphabet a a\na -> b", "block b {\n\ta -> b\n}\nuse b", "block b { a -> b }", "block b {\nuse b\n}\nuse b",
	"}", "block x {", "block x {\nblock y {\n}\n}", "use", "use erase-separators", "use nothing",
	"block {", "alphabet -> use", "use -> block", "x alphabet",
	"a -> b # comment", "# only a comment\n\n\n# another", "a -> b #\n#\n\n\nc -> d # x ",
	"block b { # open\n\ta -> b # rule\n} # close", "a # b -> c", "#",
	"a . b -> c", `\. -> \.`, `a \`, `\unknown -> a`, `\1 -> \π`, `\chia -> b`, `\χ1 -> \Δ`,
	"\\ -> a", "\\\t -> a", "\\\n -> a", `\\ -> \\\\`, `\pi1\omega_2 -> \Omega`,
	"a\x00 -> b", "\xff -> a", "a -> \xc3", "\xe2\x86 -> a", "a\u00a0b -> c", "a\u2028b -> c",
	"\t a \t -> \t b \t", "\r\n", "a -> b\r\n", "a -> b\r", "ω1L -> E_I Φ_F", "A12 -> A 1 2",
	"a_ -> _b", "a_1 -> a1", "- -> >", "a- -> ->", "a-> b", "--> -", "·", "a ·-> b",
	"HIIIDDD -> πω2A1:⊖:⊕ω1A2::", "S -> +r\n-> SSΩ\nΩ ->.",
	// Environment declarations.
	"actions l r", "actions a1 a2 a3", "actions", "actions l\nactions r", "space thesis lr+:l-r+:",
	"space paper +r-l+r-l", "space +r+r+r", "space", "space table {\n\t1 2\n\t2 1\n}",
	"space table {\n\t1 x\n}", "space table {\n\t0 -1 99999999999999999999\n}", "space table { 1 2 }",
	"space generator {\n\tΩ ->.\n\tS -> +r\n\t-> SSΩ\n}", "space generator {", "space table {\n\ta -> b\n}",
	"object ω1 {\n\tω1L -> E_I\n}", "object {\n}", "object π {\n\tuse erase-separators\n}",
	"goodevil {\n\tHI ->. l\n}", "goodevil pattern l r r", "goodevil pattern 0 1", "goodevil pattern",
	"reward 0.5 0.01", "reward", "place π 1", "set cycle 10", "set a.b | c, d", "object x {\nspace table {\n}\n}",
	// Past lang.MaxErrors the parser stops, with an error that says so.
	strings.Repeat("}", lang.MaxErrors+5), strings.Repeat("\x01", lang.MaxErrors+5),
	strings.Repeat("a\n", lang.MaxErrors+5) + "b -> c",
}

// corpusSources returns the corpus files that match the patterns (in
// corpus.Files, such as "*/*.anynt").
func corpusSources(t testing.TB, patterns ...string) []string {
	var out []string
	for _, pattern := range patterns {
		names, err := fs.Glob(corpus.Files, pattern)
		if err != nil || len(names) == 0 {
			t.Fatalf("corpus pattern %q: %d files, %v", pattern, len(names), err)
		}
		for _, name := range names {
			src, err := fs.ReadFile(corpus.Files, name)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(src))
		}
	}
	return out
}

// stdlibSources returns the standard library's rule files.
func stdlibSources(t testing.TB) []string {
	paths, err := filepath.Glob("../stdlib/*.anynt")
	if err != nil || len(paths) == 0 {
		t.Fatalf("stdlib: %d files, %v", len(paths), err)
	}
	var out []string
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(src))
	}
	return out
}

// FuzzParse checks the parser and the formatter on arbitrary text.
func FuzzParse(f *testing.F) {
	for _, src := range append(corpusSources(f, "*/*.anynt", "classic/*.markov"), stdlibSources(f)...) {
		f.Add(src)
	}
	for _, src := range trickySources {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := lang.Parse("fuzz.anynt", []byte(src))
		if err != nil {
			checkErrorList(t, "fuzz.anynt", src, err)
			return
		}
		checkNodePositions(t, "fuzz.anynt", src, file)
		formatted := lang.Format(file)
		again, err := lang.Parse("fuzz.anynt", formatted)
		if err != nil {
			t.Fatalf("the canonical form does not parse: %v\nsource:\n%s\ncanonical form:\n%s", err, src, formatted)
		}
		if diff := cmp.Diff(file, again, ignorePositions); diff != "" {
			t.Fatalf("the canonical form parses to another tree (-source +canonical):\n%s\nsource:\n%q\ncanonical form:\n%q", diff, src, formatted)
		}
		if twice := lang.Format(again); string(twice) != string(formatted) {
			t.Fatalf("formatting is not idempotent:\nsource:\n%q\nonce:\n%q\ntwice:\n%q", src, formatted, twice)
		}
	})
}

// ignorePositions compares trees without their positions (At and End, of
// comments too): the canonical form moves things around.
var ignorePositions = cmp.Options{
	cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && (sf.Name() == "At" || sf.Name() == "End")
	}, cmp.Ignore()),
	cmpopts.EquateEmpty(),
}

// checkErrorList requires err to be a sorted lang.ErrorList whose errors
// all lie inside src: on one of its lines, at most one column past the
// line's last character.
func checkErrorList(t *testing.T, filename, src string, err error) {
	t.Helper()
	var list lang.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("the error is a %T, not a lang.ErrorList: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("an empty error list is returned as an error")
	}
	lines := strings.Split(src, "\n")
	for i, e := range list {
		if e.Pos.File != filename {
			t.Errorf("error %q names file %q, not %q", e, e.Pos.File, filename)
		}
		if e.Pos.Line < 1 || e.Pos.Line > len(lines) {
			t.Errorf("error %q: line %d is outside the input's %d lines\nsource: %q", e, e.Pos.Line, len(lines), src)
			continue
		}
		if width := utf8.RuneCountInString(lines[e.Pos.Line-1]); e.Pos.Col < 1 || e.Pos.Col > width+1 {
			t.Errorf("error %q: column %d is outside line %d, of %d characters\nsource: %q", e, e.Pos.Col, e.Pos.Line, width, src)
		}
		if i > 0 && e.Pos.Before(list[i-1].Pos) {
			t.Errorf("errors are not sorted: %q before %q", list[i-1], e)
		}
		if e.Msg == "" {
			t.Errorf("error at %s has no message", e.Pos)
		}
	}
}

// checkNodePositions requires every position in the tree (At and End of
// every node and comment) to lie inside src.
func checkNodePositions(t *testing.T, filename, src string, file *lang.File) {
	t.Helper()
	lines := strings.Split(src, "\n")
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Struct:
			if pos, ok := v.Interface().(lang.Pos); ok {
				if pos.File != filename || pos.Line < 1 || pos.Line > len(lines) ||
					pos.Col < 1 || pos.Col > utf8.RuneCountInString(lines[pos.Line-1])+1 {
					t.Errorf("%s is at %s, outside the input\nsource: %q", path, pos, src)
				}
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		}
	}
	walk(reflect.ValueOf(file), "file")
}

// FuzzCompile sends arbitrary text through the whole pipeline: whatever
// parses compiles without panicking to a valid program or to positioned
// errors, and a program with a small expansion runs like the reference
// interpreter of it.
func FuzzCompile(f *testing.F) {
	for _, src := range append(corpusSources(f, "*/*.anynt"), stdlibSources(f)...) {
		f.Add(src)
	}
	for _, src := range trickySources {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := lang.Parse("fuzz.anynt", []byte(src))
		if err != nil {
			return
		}
		var opts compiler.Options
		prog, err := compiler.Compile(file, opts)
		if err != nil {
			checkErrorList(t, "fuzz.anynt", src, err)
			return
		}
		if err := prog.Validate(); err != nil {
			t.Fatalf("the compiler made an invalid program: %v\nsource:\n%s\n%s", err, src, prog.Disasm())
		}
		c := diffCase{src: src, opts: opts, runs: []diffRun{{input: inputFor(prog, src)}, {feed: true}, {feed: true}}}
		if err := c.checkFile(file); err != nil && !errors.Is(err, errNotChecked) {
			t.Fatalf("%v\n%s", err, c)
		}
	})
}

// inputFor derives an input string from the program's symbols, picked by
// the bytes of the source: some symbols χ matches, some it does not.
func inputFor(prog *vm.Program, src string) []string {
	in := []string{}
	if len(prog.Symbols) == 0 {
		return in
	}
	for i := 0; i < len(src) && len(in) < 12; i += 3 {
		in = append(in, prog.Symbols[int(src[i])%len(prog.Symbols)])
	}
	return in
}
