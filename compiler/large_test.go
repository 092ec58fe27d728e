package compiler_test

import (
	"fmt"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/internal/bigsource"
	"github.com/anynt/anynt/lang"
)

// BenchmarkCheckLarge parses and checks a generated rule file of 400 KB and
// of 5 MB, as `anynt check` does with a rule file.
func BenchmarkCheckLarge(b *testing.B) {
	for _, size := range []int{400_000, 5_000_000} {
		src := bigsource.Rules(size)
		b.Run(fmt.Sprintf("%dKB", size/1000), func(b *testing.B) {
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
