package fuzz

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// FuzzClassic checks the classic format's parser on arbitrary text, and
// runs what parses in leftmost mode against the reference interpreter.
func FuzzClassic(f *testing.F) {
	for _, src := range corpusSources(f, "classic/*.markov") {
		f.Add(src)
	}
	for _, src := range []string{
		"", "\n", "#", "# comment\n", "a -> b", "a -> .b", "a ->.b", "a -> ", "a ->", " -> a", "-> a",
		"\t->\t.", "->.* -> money", "Bgage -> ->.*", "a->b", "a - > b", "  a  ->  b  ", "a -> b\r\n",
		"a -> b\r", "\r", "| -> 0||\n1 -> 0|\n0 -> ", "\xff -> a", "a -> \xc3\x28", "π -> ω\n",
		"a -> b\n\n\n   \t\nc -> d", " # not a comment -> x", "a -> . ", "a b -> c d",
		"\uFEFFab -> c", "\uFEFF\uFEFF -> x", "a -> b\n\uFEFF -> c", "a->b\nc -> d",
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := lang.ParseClassic("fuzz.markov", []byte(src))
		if file == nil {
			t.Fatalf("no file (error %v); tools check the well-formed lines", err)
		}
		checkNodePositions(t, "fuzz.markov", src, file)
		checkClassicSymbols(t, src, file)
		if err != nil {
			checkErrorList(t, "fuzz.markov", src, err)
			return
		}
		input := classicInput(file)
		c := diffCase{
			src:   src,
			opts:  compiler.Options{Extra: input},
			runs:  []diffRun{{input: input}, {feed: true}, {input: input}},
			modes: []bool{true},
		}
		if err := c.checkFile(file); err != nil && !errors.Is(err, errNotChecked) {
			t.Fatalf("%v\n%s", err, c)
		}
	})
}

// classicInput is a string made of the rules' patterns, the last rule's
// first, so that rules other than the first get a chance to apply.
func classicInput(file *lang.File) []string {
	in := []string{}
	for i := len(file.Decls) - 1; i >= 0 && len(in) < 40; i-- {
		r, ok := file.Decls[i].(*lang.Rule)
		if !ok {
			continue
		}
		for _, e := range r.LHS {
			if s, ok := e.(*lang.Symbol); ok {
				in = append(in, s.Name)
			}
		}
	}
	return in[:min(len(in), 40)]
}

// checkClassicSymbols requires each symbol of a classic rule to stand at
// its character's exact position: one symbol per character.
func checkClassicSymbols(t *testing.T, src string, file *lang.File) {
	t.Helper()
	// A byte-order mark at the start is not text: columns count after it.
	lines := strings.Split(strings.TrimPrefix(src, "\uFEFF"), "\n")
	for _, d := range file.Decls {
		r, ok := d.(*lang.Rule)
		if !ok {
			t.Fatalf("a classic file holds a %T", d)
		}
		for _, e := range append(slices.Clip(r.LHS), r.RHS...) {
			s, ok := e.(*lang.Symbol)
			if !ok {
				t.Fatalf("a classic rule holds a %T", e)
			}
			line := []rune(lines[s.At.Line-1])
			if s.At.Col > len(line) || string(line[s.At.Col-1]) != s.Name {
				t.Errorf("symbol %q at %s is not the character there\nsource: %q", s.Name, s.At, src)
			}
		}
	}
}
