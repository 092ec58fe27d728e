package fuzz

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
	"github.com/google/go-cmp/cmp"
)

// FuzzDifferential runs a generated rule file on the VM and on the reference
// interpreter of its expansion and requires the same behaviour.
func FuzzDifferential(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("fuzz"))
	f.Add([]byte{0, 4, 5, 5, 0, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{2, 3, 2, 6, 6, 6, 1, 4, 1, 7, 3, 2, 2, 5, 5, 5, 9, 9, 9, 9})
	r := random.New(7, 7)
	for range 16 {
		f.Add(randomBytes(r))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := generate(data)
		if err := c.check(); err != nil {
			if errors.Is(err, errNotChecked) {
				t.Skip(err)
			}
			t.Fatalf("%v\n%s", err, c)
		}
		checkFormatKeepsMeaning(t, c)
	})
}

func randomBytes(r *random.Rand) []byte {
	b := make([]byte, 32+r.IntN(160))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestDifferentialRandom is FuzzDifferential on fixed seeds, so that every
// `go test` checks the VM against the reference interpreter.
func TestDifferentialRandom(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	r := random.New(1, 2)
	failures := 0
	for i := range n {
		data := randomBytes(r)
		c := generate(data)
		err := c.check()
		if errors.Is(err, errNotChecked) {
			continue
		}
		if err == nil {
			checkFormatKeepsMeaning(t, c)
			continue
		}
		t.Errorf("case %d (fuzz input %q): %v\n%s", i, data, err, c)
		if failures++; failures == 5 {
			t.Fatal("stopping after 5 failures")
		}
	}
}

// FuzzDifferentialLong is FuzzDifferential on strings longer than the
// VM's longLen, for rule files that use the memory (Δ, ∇ or ^Δ), where Δ
// stores a string kept in a gap buffer without copying it.
func FuzzDifferentialLong(f *testing.F) {
	f.Add([]byte("fuzz"))
	r := random.New(20, 12)
	for range 16 {
		f.Add(randomBytes(r))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, ok := generateLong(data)
		if !ok {
			t.Skip("the file does not use the memory")
		}
		if err := c.check(); err != nil {
			if errors.Is(err, errNotChecked) {
				t.Skip(err)
			}
			t.Fatalf("%v\n%s", err, c)
		}
	})
}

// TestDifferentialLongRandom is FuzzDifferentialLong on fixed seeds: 100
// rule files that use the memory (8 with -short).
func TestDifferentialLongRandom(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 8
	}
	r := random.New(20, 12)
	for checked := 0; checked < n; {
		data := randomBytes(r)
		c, ok := generateLong(data)
		if !ok {
			continue
		}
		err := c.check()
		if errors.Is(err, errNotChecked) {
			continue
		}
		checked++
		if err != nil {
			t.Fatalf("fuzz input %q: %v\n%s", data, err, c)
		}
	}
}

// TestGeneratorCompiles keeps the generator honest: a generator whose files
// the compiler mostly rejects would test little.
func TestGeneratorCompiles(t *testing.T) {
	const n = 1000
	r := random.New(3, 4)
	compiled := 0
	var rejected []string
	for range n {
		c := generate(randomBytes(r))
		f, err := lang.Parse("gen.anynt", []byte(c.src))
		if err != nil {
			t.Fatalf("a generated file does not parse: %v\n%s", err, c)
		}
		if _, err := compiler.Compile(f, c.opts); err != nil {
			rejected = append(rejected, c.src+err.Error())
			continue
		}
		compiled++
	}
	if compiled < n*95/100 {
		t.Errorf("%d of %d generated files compile; want at least 95%%; rejected, for example:\n%s", compiled, n, rejected[0])
	}
}

// The thesis's expansion fixture (Insa-Cabrera 2011, §3.6.6; language notes
// §3) on every input of up to four symbols over its alphabet, three runs in a
// row.
func TestDifferentialThesisFixture(t *testing.T) {
	alphabet := []string{"A1", "A2", "π", "⊙"}
	src := "[(χ1 ∉ {A1, π})] A1 (π|⊙)2 -> (π|⊙)2 [χ1]\n"
	var inputs [][]string
	var grow func(s []string)
	grow = func(s []string) {
		inputs = append(inputs, s)
		if len(s) == 4 {
			return
		}
		for _, sym := range alphabet {
			grow(append(s[:len(s):len(s)], sym))
		}
	}
	grow([]string{})
	for _, in := range inputs {
		c := diffCase{src: src, opts: compiler.Options{Alphabet: alphabet}, runs: []diffRun{
			{input: in}, {feed: true}, {input: []string{"A2", "A1", "⊙", "A1", "π"}},
		}}
		if err := c.check(); err != nil {
			t.Fatalf("%v\n%s", err, c)
		}
	}
}

// Cases the fuzz targets found, kept once fixed.
func TestDifferentialRegressions(t *testing.T) {
	tests := []struct {
		name, src string
		input     string
	}{
		// The expansion of the untaken alternative has no mark: the
		// memory keeps "a"; the VM used to store the empty string.
		{"mark in an untaken alternative", "(a^Δ|b) -> c", "a b"},
		{"mark in an absent optional", "[a^Δ] b -> c", "a b b"},
		// '|' at the top level is a symbol, and takes the mark.
		{"marked pipe at the top level", "|^Δ -> a\na ->. ∇", "a | | a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := diffCase{src: tt.src + "\n", runs: []diffRun{{input: strings.Fields(tt.input)}, {feed: true}}}
			if err := c.check(); err != nil {
				t.Fatalf("%v\n%s", err, c)
			}
		})
	}
}

// checkFormatKeepsMeaning requires the canonical form of a generated file
// to expand to the same plain rules: the formatter must not change what a
// sugared rule means.
func checkFormatKeepsMeaning(t *testing.T, c diffCase) {
	t.Helper()
	f, err := lang.Parse("case.anynt", []byte(c.src))
	if err != nil {
		t.Fatal(err)
	}
	want, err := compiler.Expand(f, c.opts)
	if err != nil {
		t.Fatal(err)
	}
	formatted := lang.Format(f)
	g, err := lang.Parse("case.anynt", formatted)
	if err != nil {
		t.Fatalf("the canonical form does not parse: %v\n%s\ncanonical form:\n%s", err, c, formatted)
	}
	got, err := compiler.Expand(g, c.opts)
	if err != nil {
		t.Fatalf("the canonical form does not expand: %v\n%s\ncanonical form:\n%s", err, c, formatted)
	}
	// PlainString prints every field but the position; cmp only explains.
	if slices.Equal(plainStrings(want), plainStrings(got)) {
		return
	}
	if diff := cmp.Diff(plainStrings(want), plainStrings(got)); diff != "" {
		t.Fatalf("the canonical form expands differently (-source +canonical):\n%s\n%s\ncanonical form:\n%s", diff, c, formatted)
	}
}

func plainStrings(rules []lang.PlainRule) []string {
	out := make([]string, len(rules))
	for i, r := range rules {
		out[i] = compiler.PlainString(r)
	}
	return out
}
