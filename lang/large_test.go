package lang_test

import (
	"fmt"
	"testing"

	"github.com/anynt/anynt/internal/bigsource"
	"github.com/anynt/anynt/lang"
)

// largeSizes are the sizes of issue 13's figure: a 400 KB and a 5 MB rule
// file.
var largeSizes = []int{400_000, 5_000_000}

// BenchmarkParseLarge parses a generated rule file; BenchmarkFormatLarge
// parses and formats it, as `anynt fmt` does.
func BenchmarkParseLarge(b *testing.B) {
	for _, size := range largeSizes {
		src := bigsource.Rules(size)
		b.Run(fmt.Sprintf("%dKB", size/1000), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if _, err := lang.Parse("big.anynt", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFormatLarge(b *testing.B) {
	for _, size := range largeSizes {
		src := bigsource.Rules(size)
		b.Run(fmt.Sprintf("%dKB", size/1000), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				f, err := lang.Parse("big.anynt", src)
				if err != nil {
					b.Fatal(err)
				}
				lang.Format(f)
			}
		})
	}
}
