package lang_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/anynt/anynt/internal/bigsource"
	"github.com/anynt/anynt/lang"
)

// largeSizes are the sizes the front end is measured at: a 400 KB and a
// 5 MB rule file.
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

// Parsing and formatting allocate in proportion to the file: ten times the
// text, at most twelve times the bytes (a front end whose cost grew
// faster than its input once took 100 s and 1.5 GB on 5 MB).
func TestParseAndFormatAreLinear(t *testing.T) {
	allocated := func(size int) uint64 {
		src := bigsource.Rules(size)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f, err := lang.Parse("big.anynt", src)
		if err != nil {
			t.Fatal(err)
		}
		lang.Format(f)
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(100_000), allocated(1_000_000)
	if ratio := float64(large) / float64(small); ratio > 12 {
		t.Errorf("100 KB allocate %d bytes, 1 MB %d: %.1f times as much", small, large, ratio)
	}
	if perByte := large / 1_000_000; perByte > 100 {
		t.Errorf("parsing and formatting allocate %d bytes a byte of source; want at most 100", perByte)
	}
}
