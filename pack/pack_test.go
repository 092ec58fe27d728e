package pack

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

var testHeader = Header{Version: "test", Kind: "enumerate", Settings: json.RawMessage(`{"max_bits":60}`), Total: 100, From: 0, To: 100, Shard: 1, Shards: 1}

// frames are the test stream: positions 0–99 in frames of 10, the
// positions divisible by 3 kept, each record a JSON object with its index.
func frames() [][]Record {
	var out [][]Record
	for from := 0; from < 100; from += 10 {
		var recs []Record
		for i := from; i < from+10; i++ {
			if i%3 == 0 {
				recs = append(recs, Record{Index: i, JSON: fmt.Appendf(nil, `{"index":%d,"source":"env %d"}`, i, i)})
			}
		}
		out = append(out, recs)
	}
	return out
}

// write writes frames [0, upTo) of the test stream to path, resuming.
func write(t *testing.T, path string, upTo int) (last *Entry, torn error) {
	t.Helper()
	w, last, torn, err := Resume(path, testHeader)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	start := 0
	if last != nil {
		start = last.Next / 10
	}
	for k := start; k < upTo; k++ {
		tally := fmt.Appendf(nil, `{"examined":%d}`, (k+1)*10)
		if err := w.Write(k*10, k*10+10, frames()[k], tally); err != nil {
			t.Fatal(err)
		}
	}
	return last, torn
}

// A pack reads back every record, one by one and as one Zstandard
// stream (any zstd decoder skips the index's frames).
func TestPackReadsBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.pack")
	write(t, path, 10)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Torn != nil || len(r.Entries) != 10 || r.Header.Kind != "enumerate" || r.Header.Format != Format {
		t.Fatalf("torn %v, %d entries, header %+v", r.Torn, len(r.Entries), r.Header)
	}
	for i := range 100 {
		rec, err := r.Record(i)
		if i%3 != 0 {
			if err == nil || !strings.Contains(err.Error(), "not kept") {
				t.Errorf("record %d: %q, %v; want none", i, rec, err)
			}
			continue
		}
		if want := fmt.Sprintf(`{"index":%d,"source":"env %d"}`+"\n", i, i); err != nil || string(rec) != want {
			t.Errorf("record %d: %q, %v", i, rec, err)
		}
	}
	if _, err := r.Record(100); err == nil {
		t.Error("record 100, past the pack, was found")
	}
	f, _ := os.Open(path)
	defer f.Close()
	d, err := zstd.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	all, err := io.ReadAll(d)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(all, []byte("\n")); n != 34 || !bytes.HasPrefix(all, []byte(`{"index":0,`)) {
		t.Errorf("the file as one zstd stream: %d lines:\n%s", n, all)
	}
}

// Cut anywhere in its last entry, a pack is torn there: Open says so and
// reads the entries before it; Resume cuts it back and goes on; the file
// it ends with is the uninterrupted one, bit for bit.
func TestTornEndsAreCutAndRedone(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.pack")
	write(t, whole, 10)
	want, _ := os.ReadFile(whole)
	seven := filepath.Join(dir, "seven.pack")
	write(t, seven, 7)
	eight := filepath.Join(dir, "eight.pack")
	write(t, eight, 8)
	b7, _ := os.ReadFile(seven)
	b8, _ := os.ReadFile(eight)
	// Every cut inside the eighth entry (header, JSON, frame) and a
	// changed last byte of its frame.
	cases := map[string][]byte{}
	for n := len(b7) + 1; n < len(b8); n += max(1, (len(b8)-len(b7))/13) {
		cases[fmt.Sprintf("cut at byte %d", n)] = b8[:n]
	}
	flipped := bytes.Clone(b8)
	flipped[len(flipped)-1] ^= 0xff
	cases["its frame's last byte changed"] = flipped
	for name, content := range cases {
		path := filepath.Join(dir, "torn.pack")
		if err := os.WriteFile(path, content, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		verr := r.Verify()
		r.Close()
		if (r.Torn == nil || !errors.Is(r.Torn, ErrTorn)) && !errors.Is(verr, ErrTorn) {
			t.Errorf("%s: not found torn (%v, %v)", name, r.Torn, verr)
		}
		last, torn := write(t, path, 10)
		if torn == nil || last == nil || last.Next != 70 {
			t.Errorf("%s: resumed after %+v, torn %v; want after position 70, torn", name, last, torn)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("%s: the resumed pack differs from the uninterrupted one", name)
		}
	}
}

// A changed frame before the last is not a torn end: the file was changed,
// and Resume refuses it rather than cut work that was done.
func TestAChangedMiddleIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.pack")
	write(t, path, 5)
	r, _ := Open(path)
	off := r.Entries[1].offset
	r.Close()
	b, _ := os.ReadFile(path)
	b[off] ^= 0xff
	os.WriteFile(path, b, 0o644)
	if _, _, _, err := Resume(path, testHeader); err == nil || errors.Is(err, ErrTorn) || !strings.Contains(err.Error(), "was changed") {
		t.Errorf("Resume: %v", err)
	}
}

// A pack of another run (other settings, version, part) is refused.
func TestAnotherRunsPackIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.pack")
	write(t, path, 2)
	for _, h := range []Header{
		{Version: "other", Kind: testHeader.Kind, Settings: testHeader.Settings, Total: 100, To: 100, Shard: 1, Shards: 1},
		{Version: "test", Kind: testHeader.Kind, Settings: json.RawMessage(`{"max_bits":61}`), Total: 100, To: 100, Shard: 1, Shards: 1},
		{Version: "test", Kind: testHeader.Kind, Settings: testHeader.Settings, Total: 100, From: 50, To: 100, Shard: 2, Shards: 2},
	} {
		if _, _, _, err := Resume(path, h); err == nil || !strings.Contains(err.Error(), "holds another run") {
			t.Errorf("%+v: %v", h, err)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing pack: %v", err)
	}
	notPack := filepath.Join(t.TempDir(), "x")
	os.WriteFile(notPack, []byte("actions s l r\n"), 0o644)
	if _, err := Open(notPack); err == nil || !strings.Contains(err.Error(), "not an anynt pack") {
		t.Errorf("a file that is no pack: %v", err)
	}
}

// The same records cut at the same positions give the same bytes.
func TestSameFramesSameBytes(t *testing.T) {
	a, b := filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")
	write(t, a, 10)
	write(t, b, 4)
	write(t, b, 10)
	x, _ := os.ReadFile(a)
	y, _ := os.ReadFile(b)
	if !bytes.Equal(x, y) {
		t.Error("two packs of the same frames differ")
	}
}

// benchRecords are a frame of 1,024 positions from first with 900 records
// of about 200 bytes, as an enumeration's frame holds.
func benchRecords(first int) []Record {
	var recs []Record
	for i := first; i < first+900; i++ {
		recs = append(recs, Record{Index: i, JSON: fmt.Appendf(nil, `{"index":%d,"bits":63.5,"source":"# anynt enumerate: environment %d\nactions a0 a1 a2\nspace thesis a1+a2-:a1+a2-:a1+a2-\ngoodevil pattern a1 a2 a1\n","filters":{"accepted":true}}`, i, i)})
	}
	return recs
}

// BenchmarkWrite appends and syncs frames of benchRecords: the pack's cost
// a frame of an enumeration, the sync included.
//
//	go test ./pack -run '^$' -bench . -benchmem
func BenchmarkWrite(b *testing.B) {
	recs := benchRecords(0)
	w, _, _, err := Resume(filepath.Join(b.TempDir(), "b.pack"), testHeader)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	from := 0
	for b.Loop() {
		if err := w.Write(from, from+1024, recs, []byte(`{}`)); err != nil {
			b.Fatal(err)
		}
		from += 1024
	}
}

// BenchmarkRecord reads one record of a pack of 100 such frames, a frame
// not read before each time: the cost of `anynt run PACK#INDEX`'s read.
func BenchmarkRecord(b *testing.B) {
	path := filepath.Join(b.TempDir(), "b.pack")
	h := testHeader
	h.Total, h.To = 102400, 102400
	w, _, _, err := Resume(path, h)
	if err != nil {
		b.Fatal(err)
	}
	for k := range 100 {
		if err := w.Write(k*1024, k*1024+1024, benchRecords(k*1024), []byte(`{}`)); err != nil {
			b.Fatal(err)
		}
	}
	w.Close()
	r, err := Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	k := 0
	for b.Loop() {
		if _, err := r.Record((k%100)*1024 + 7); err != nil {
			b.Fatal(err)
		}
		k++
	}
}

// A pack whose creation was cut short (an empty file, a header frame cut
// anywhere) is started again by Resume, not refused: nothing was written
// to lose. A file that is not a pack is still refused.
func TestATornHeaderIsStartedAgain(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.pack")
	write(t, whole, 3)
	want, _ := os.ReadFile(whole)
	r, _ := Open(whole)
	headerEnd := r.headerEnd
	r.Close()
	for n := 0; n < int(headerEnd); n += max(1, int(headerEnd)/9) {
		path := filepath.Join(dir, "cut.pack")
		os.WriteFile(path, want[:n], 0o644)
		if last, _ := write(t, path, 3); last != nil {
			t.Errorf("header cut at %d: resumed after %+v", n, last)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
			t.Errorf("header cut at %d: the pack differs from the uninterrupted one", n)
		}
	}
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("actions s l r\n"), 0o644)
	if _, _, _, err := Resume(other, testHeader); err == nil {
		t.Error("a file that is no pack was taken for one")
	}
}
