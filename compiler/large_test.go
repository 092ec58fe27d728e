package compiler_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/internal/bigsource"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// BenchmarkCheckLarge parses and checks a generated rule file of 400 KB and
// of 5 MB, as `anynt check` does with a rule file: the corpus's rule forms,
// and at 5 MB also the densest file, rules of the form ab -> ca.
func BenchmarkCheckLarge(b *testing.B) {
	files := []struct {
		name string
		src  []byte
	}{
		{"400KB", bigsource.Rules(400_000)},
		{"5000KB", bigsource.Rules(5_000_000)},
		{"5000KB-dense", bigsource.Dense(5_000_000)},
	}
	for _, file := range files {
		src := file.src
		b.Run(file.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				f, err := lang.Parse("big.anynt", src)
				if err != nil {
					b.Fatal(err)
				}
				if err := compiler.Check(f, compiler.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheckPastTheBound parses and checks, as `anynt check` does,
// a 20 MB file of rules of the form ab -> ca, 2.2 million of
// them: the parser refuses it at the 838,861st rule, past lang.MaxTokens,
// where it was once read whole and refused by the compiler's
// compiler.MaxRules.
func BenchmarkCheckPastTheBound(b *testing.B) {
	src := bigsource.Dense(20_000_000)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		f, err := lang.Parse("big.anynt", src)
		if err == nil && compiler.Check(f, compiler.Options{}) == nil {
			b.Fatal("the file checks")
		}
	}
}

// The front end gives a large file the output it gave before it was made
// linear: the hashes below were computed with the participle
// parser of commit 0a9c92d on the same generated files. A 1 MB file of the
// corpus's rule forms formats to the same bytes and checks; the same file
// with a mistake every 997 lines gives the same errors, positioned.
func TestLargeFileGolden(t *testing.T) {
	const (
		formatHash = "118e6a46b467ad8225eb4c21222283efbc3cc13463a8aaf61d8b16f4fb5a909d"
		errorsHash = "29b548f987251ca64e46ddef82af5f8ddd4317033ca6679b2feaf0ac42947227"
	)
	f, err := lang.Parse("big.anynt", bigsource.Rules(1_000_000))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%x", sha256.Sum256(lang.Format(f))); got != formatHash {
		t.Errorf("the formatted file hashes to %s, want %s", got, formatHash)
	}
	if err := compiler.Check(f, compiler.Options{}); err != nil {
		t.Fatal(err)
	}
	f, parseErr := lang.Parse("bad.anynt", bigsource.Mistaken(1_000_000))
	checkErr := compiler.Check(f, compiler.Options{})
	if parseErr == nil || checkErr == nil {
		t.Fatalf("the mistaken file gives parse error %v and check error %v; want both", parseErr, checkErr)
	}
	text := parseErr.Error() + "\n--\n" + checkErr.Error()
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(text))); got != errorsHash {
		t.Errorf("the errors hash to %s, want %s; they are (%d lines):\n%s", got, errorsHash, strings.Count(text, "\n"), text)
	}
}

// BenchmarkMachineLarge makes the machine of the 5 MB file of rules of the
// form ab -> ca and runs it on a short input, as `anynt markov` does after
// compiling the file: on "a", where no rule applies, and on "a b", which
// rewrites until the step limit, 10,000 steps here.
func BenchmarkMachineLarge(b *testing.B) {
	f, err := lang.Parse("big.anynt", bigsource.Dense(5_000_000))
	if err != nil {
		b.Fatal(err)
	}
	p, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		b.Fatal(err)
	}
	opt := vm.DefaultOptions()
	opt.MaxSteps = 10_000
	for _, bench := range []struct {
		name, input string
	}{{"new", ""}, {"run-a", "a"}, {"run-ab", "a b"}} {
		input, err := p.Encode(strings.Fields(bench.input))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m := vm.New(p)
				if bench.input != "" {
					m.Run(input, opt)
				}
			}
		})
	}
}
