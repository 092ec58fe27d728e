package compiler_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// Check bounds the ordered expansion of a rule list by the limit Expand
// uses, and computes it without expanding: at every limit a file checks
// and compiles exactly when it expands.
func TestExpansionLimitAgreesWithExpand(t *testing.T) {
	alphabet := []string{"a", "b", "c", "d"}
	for _, src := range []string{
		"a -> b",
		"χ -> ",
		"(χ ∉ {a, b, x}) χ -> ",
		"[a|b] (c|d|) [χ] -> ",
		"[[[[a]]]] -> b",
		"[a]1 b [a]1 χ2 χ2 -> χ2",
		"(a (b|c) | [d])1 χ [χ] (a (b|c)|[d])1 -> (a (b|c) | [d])1",
		"(χ ∉ {a, b, c, d}) [a] -> \na -> b", // χ takes no value: no expansion
		"[χ1][χ2][χ3] (a|b) -> [χ1]",
		"a -> b\n[χ] (a|b) -> c\nχχ -> ",
		"block q {\n[a] -> b\n}\nuse q\nχ -> \nuse q",
	} {
		f, err := lang.Parse("t.anynt", []byte(src+"\n"))
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		opts := compiler.Options{Alphabet: alphabet}
		plain, err := compiler.Expand(f, opts)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		for _, limit := range []int{len(plain), len(plain) - 1} {
			if limit <= 0 { // 0 is the default
				continue
			}
			opts.MaxExpansion = limit
			refused := limit < len(plain)
			_, compileErr := compiler.Compile(f, opts)
			_, expandErr := compiler.Expand(f, opts)
			for what, err := range map[string]error{"Check": compiler.Check(f, opts), "Compile": compileErr, "Expand": expandErr} {
				if (err != nil) != refused {
					t.Errorf("%q, limit %d: %s gives %v; the expansion has %d plain rules", src, limit, what, err, len(plain))
				}
			}
		}
	}
}

// A rule whose expansion passes the limit is refused where it stands, with
// a message that names the limit: ten optional χ before a few choices (each
// VM step would try every combination at every position) and a long run of
// optional groups.
func TestExpansionLimitRefusesPositioned(t *testing.T) {
	var optionals strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&optionals, "[χ%d]", i)
	}
	tests := []struct{ name, src, want string }{
		{"ten optional χ", "a -> b\n" + optionals.String() + " (a|b|c) (d|e) -> x",
			"t.anynt:2:1: this rule stands for more than 1048576 plain rules"},
		{"twenty-one optionals", "a -> b\nc -> d\n" + strings.Repeat("[a]", 21) + " -> b",
			"t.anynt:3:1: this rule stands for more than 1048576 plain rules"},
	}
	for _, tt := range tests {
		f, err := lang.Parse("t.anynt", []byte(tt.src+"\n"))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		opts := compiler.Options{Alphabet: []string{"a", "b", "c", "d", "e", "x"}}
		for what, err := range map[string]error{"Check": compiler.Check(f, opts), "Expand": expandErr(f, opts)} {
			var list lang.ErrorList
			if !errors.As(err, &list) || len(list) != 1 || !strings.HasPrefix(list[0].Error(), tt.want) {
				t.Errorf("%s: %s gives %v, want one error %q", tt.name, what, err, tt.want)
			}
			// Callers tell the limit from other errors by type, not text.
			var tooLarge *compiler.ExpansionLimitError
			if !errors.As(err, &tooLarge) || tooLarge.Limit != compiler.DefaultMaxExpansion {
				t.Errorf("%s: %s: errors.As finds no ExpansionLimitError of the default limit in %v", tt.name, what, err)
			}
		}
	}
}

func expandErr(f *lang.File, opts compiler.Options) error {
	_, err := compiler.Expand(f, opts)
	return err
}

// Checking is linear in the depth of nesting. 30,000 nested optionals took
// 7.2 GB in checkLHS when each level copied the list of groups around it;
// 5,000, an AST no parse gives (lang.MaxDepth), took 300 MB.
func TestDeepNestingChecksInLinearMemory(t *testing.T) {
	const depth = 5_000
	lhs := []lang.Elem{&lang.Symbol{Name: "a"}}
	for range depth {
		lhs = []lang.Elem{&lang.Group{Optional: true, Alts: [][]lang.Elem{lhs}}}
	}
	rule := &lang.Rule{LHS: lhs, RHS: []lang.Elem{&lang.Symbol{Name: "b"}}}
	f := &lang.File{Name: "deep.anynt", Decls: []lang.Decl{rule}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := compiler.Check(f, compiler.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 16<<20 {
		t.Errorf("checking %d nested optionals allocated %d MB; it should be linear", depth, allocated>>20)
	}
}

// The limit bounds the whole rule list, not each rule: the list refuses
// at the rule that passes it, and Expand yields nothing. An error from
// yield stops the expansion and comes back as it is.
func TestExpansionLimitBoundsTheWholeList(t *testing.T) {
	f, err := lang.Parse("t.anynt", []byte("χ -> a\nχ -> b\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := compiler.Options{Alphabet: []string{"a", "b", "c", "d"}, MaxExpansion: 6}
	want := "t.anynt:2:1: the rules up to this one stand for more than 6 plain rules"
	if err := compiler.Check(f, opts); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Check: %v, want %q", err, want)
	}
	yielded := 0
	err = compiler.ExpandEach(f, opts, func(lang.PlainRule) error { yielded++; return nil })
	if err == nil || !strings.HasPrefix(err.Error(), want) || yielded != 0 {
		t.Errorf("ExpandEach: %v after %d rules, want %q before any", err, yielded, want)
	}
	opts.MaxExpansion = 0
	stop := errors.New("stop")
	err = compiler.ExpandEach(f, opts, func(lang.PlainRule) error { yielded++; return stop })
	if err != stop || yielded != 1 {
		t.Errorf("ExpandEach: %v after %d rules, want stop after 1", err, yielded)
	}
}

// Resolving uses is bounded too: thirty blocks, each using the next twice,
// would make 2^30 uses (and as many errors for the missing block at the
// end); the list is refused at its use that passes the limit. A chain of 20,000 blocks, each using the next once, resolves
// in memory linear in its length.
func TestUsesAreBounded(t *testing.T) {
	var doubling strings.Builder
	for i := range 30 {
		fmt.Fprintf(&doubling, "block b%d {\nuse b%d\nuse b%d\n}\n", i, i+1, i+1)
	}
	// The last block has no rule: the uses alone must be bounded.
	doubling.WriteString("block b30 {\nuse nothing\n}\nc -> d\nuse b0\n")
	f, err := lang.Parse("t.anynt", []byte(doubling.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := "t.anynt:122:1: no block named nothing in this file or the standard library\n" +
		"t.anynt:125:1: with its uses resolved, this rule list has more than 1048576 rules and uses"
	if err := compiler.Check(f, compiler.Options{}); err == nil || err.Error() != want {
		t.Errorf("doubling uses: %v, want %q", err, want)
	}

	const n = 20_000
	var chain strings.Builder
	for i := range n {
		fmt.Fprintf(&chain, "block b%d {\nuse b%d\n}\n", i, i+1)
	}
	fmt.Fprintf(&chain, "block b%d {\na -> b\n}\nuse b0\n", n)
	f, err = lang.Parse("t.anynt", []byte(chain.String()))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err = compiler.Check(f, compiler.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > 64<<20 {
		t.Errorf("resolving a chain of %d uses allocated %d MB; it should be linear", n, allocated>>20)
	}
}
