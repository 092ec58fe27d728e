package complexity

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"
)

// The papers' fixtures, with the lengths Python's zlib.compress gives at
// levels 1 to 9.
var zlibFixtures = []struct {
	name string
	data string
	want [9]int
}{
	{"empty", "", [9]int{8, 8, 8, 8, 8, 8, 8, 8, 8}},
	{"pattern 203210200", "203210200", [9]int{17, 17, 17, 17, 17, 17, 17, 17, 17}},
	{"thesis fixture C", "20122220022222200222222002", [9]int{19, 19, 19, 19, 19, 19, 19, 19, 19}},
	{
		"thesis fixture B (space and pattern)",
		"12+3-----|12+++++3-----|1-2------3++|1-----2++++++3-|12+3++++++|1-----23-------|1++++++2-------3++|1----2+++3+203210200",
		[9]int{61, 61, 61, 59, 59, 59, 59, 59, 59},
	},
}

func TestZlibLengthFixtures(t *testing.T) {
	for _, tt := range zlibFixtures {
		for level := 1; level <= 9; level++ {
			if got, want := ZlibLength([]byte(tt.data), level), tt.want[level-1]; got != want {
				t.Errorf("%s, level %d: ZlibLength = %d, C zlib writes %d bytes", tt.name, level, got, want)
			}
		}
	}
}

// zlibCases generates the inputs of testdata/zlib.golden exactly as the
// Python script in that file's header does: 400 strings of 1 to 2000 bytes
// over small alphabets, some with runs like Good/Evil patterns, then a few
// long ones that take zlib through several blocks, stored blocks, matches
// too far for length 3 and window slides.
func zlibCases() [][]byte {
	state := uint64(1950)
	rand := func() uint64 { // splitmix64
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	alphabets := []string{"01", "012", "0123", "20", "+-|", "12+3-|", "0123456789abcdef", ""} // "": any byte
	generate := func(n int, alphabet string, sticky uint64) []byte {
		data := make([]byte, n)
		for i := range data {
			switch {
			case i > 0 && rand()%4 < sticky: // repeat the previous byte with chance sticky/4
				data[i] = data[i-1]
			case alphabet != "":
				data[i] = alphabet[rand()%uint64(len(alphabet))]
			default:
				data[i] = byte(rand())
			}
		}
		return data
	}
	var cases [][]byte
	for range 400 {
		alphabet := alphabets[rand()%uint64(len(alphabets))]
		limit := []uint64{16, 128, 1024, 2000}[rand()%4]
		n := 1 + int(rand()%limit)
		cases = append(cases, generate(n, alphabet, rand()%4))
	}
	long := []struct {
		n, alphabet int
		sticky      uint64
	}{{8000, 6, 0}, {20000, 2, 3}, {20000, 7, 0}, {40000, 7, 2}, {70000, 6, 1}, {100000, 7, 0}}
	for _, c := range long {
		cases = append(cases, generate(c.n, alphabets[c.alphabet], c.sticky))
	}
	// The window slides at 65274, leaving it 32506 bytes behind: the longest
	// distance allowed. The one earlier string that hashes like the one there
	// is at the new window's start, 32768, where zlib reads "none". The bytes
	// around are compressible, so the last block is not stored and shows it.
	edge := append(generate(32778, "", 0), generate(65535-32778, "0123", 0)...)
	hash := func(p int) int { return (int(edge[p])<<10 ^ int(edge[p+1])<<5 ^ int(edge[p+2])) & 0x7fff }
	for p := 65273; p > 32770; p-- {
		if hash(p) == hash(32768) {
			edge[p] ^= 1
		}
	}
	copy(edge[65274:65284], edge[32768:])
	return append(cases, edge)
}

// TestZlibMatchesC compares every stream, at every level, with the length
// and CRC-32 of the one C zlib wrote, and checks it decompresses to the input.
func TestZlibMatchesC(t *testing.T) {
	f, err := os.Open("testdata/zlib.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases := zlibCases()
	lines := 0
	mismatches := [10]int{}
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		var i, n int
		want := make([]string, 9)
		if _, err := fmt.Sscan(sc.Text(), &i, &n, &want[0], &want[1], &want[2], &want[3], &want[4],
			&want[5], &want[6], &want[7], &want[8]); err != nil {
			t.Fatalf("golden line %q: %v", sc.Text(), err)
		}
		if i != lines || i >= len(cases) || len(cases[i]) != n {
			t.Fatalf("golden line %d does not describe generated case %d; regenerate it", i, lines)
		}
		lines++
		for level := 1; level <= 9; level++ {
			stream := zlibCompress(cases[i], level)
			if got := fmt.Sprintf("%d/%08x", len(stream), crc32.ChecksumIEEE(stream)); got != want[level-1] {
				mismatches[level]++
				t.Errorf("case %d (%d bytes), level %d: stream %s, C zlib's %s", i, n, level, got, want[level-1])
			}
			r, err := zlib.NewReader(bytes.NewReader(stream))
			if err != nil {
				t.Fatalf("case %d, level %d: %v", i, level, err)
			}
			if back, err := io.ReadAll(r); err != nil || !bytes.Equal(back, cases[i]) {
				t.Errorf("case %d, level %d: stream does not decompress to the input (err %v)", i, level, err)
			}
		}
	}
	if lines != len(cases) {
		t.Errorf("golden file has %d cases, zlibCases %d", lines, len(cases))
	}
	if t.Failed() {
		t.Logf("mismatches by level 1..9: %v", mismatches[1:])
	}
}

func TestZlibLengthRejectsLevel(t *testing.T) {
	for _, level := range []int{-1, 0, 10} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("ZlibLength(_, %d) did not panic", level)
				}
			}()
			ZlibLength(nil, level)
		}()
	}
}

func BenchmarkZlibLength(b *testing.B) {
	data := []byte(zlibFixtures[3].data)
	b.ReportAllocs()
	for b.Loop() {
		ZlibLength(data, 6)
	}
}

// TestZlibHeadsComeBackZero compresses short and long inputs (long ones
// clear the whole table, short ones only their strings' hashes) and checks
// that the hash heads go back to the pool all zero, as a fresh table: a
// head left set would change a later stream.
func TestZlibHeadsComeBackZero(t *testing.T) {
	for i, data := range zlibCases() {
		zlibCompress(data, 6)
		buf := zBuffers.Get().(*zBuffer)
		for h, pos := range buf.head {
			if pos != 0 {
				t.Fatalf("after case %d (%d bytes): head %d is %d", i, len(data), h, pos)
			}
		}
		zBuffers.Put(buf)
	}
}
