package generate_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/pack"
	"github.com/google/go-cmp/cmp"
)

// A pack holds what the stream emits: each accepted environment's record,
// with its source, read back by its index; the frames end at multiples of
// pack.FrameSpan.
func TestPackHoldsTheStream(t *testing.T) {
	whole := emitted(t, generate.StreamSettings{MaxBits: 57, Shard: 1, Shards: 1, Filters: quickFilters})
	path := filepath.Join(t.TempDir(), "all.pack")
	got := emitted(t, generate.StreamSettings{MaxBits: 57, Shard: 1, Shards: 1, Filters: quickFilters, Pack: path})
	if len(got) != len(whole) || len(whole) < 100 {
		t.Fatalf("the packed run emitted %d, the plain one %d", len(got), len(whole))
	}
	r, err := pack.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for i, e := range whole {
		if got[i].File != path+"#"+strconv.Itoa(e.Index) || got[i].Source != "" {
			t.Fatalf("emitted %+v", got[i])
		}
		line, err := r.Record(e.Index)
		if err != nil {
			t.Fatal(err)
		}
		var rec generate.Emitted
		if err := json.Unmarshal(line, &rec); err != nil || !cmp.Equal(rec, e) {
			t.Fatalf("record %d: %s (%v); the stream emitted %+v", e.Index, line, err, e)
		}
	}
	for _, e := range r.Entries[:len(r.Entries)-1] {
		if e.Next%pack.FrameSpan != 0 {
			t.Errorf("a frame ends at %d", e.Next)
		}
	}
}

// Shards' packs hold the unsharded pack's frames: each shard's frames
// end where the unsharded run's do, or at the shard's end.
func TestShardPacksCutWhereTheWholeDoes(t *testing.T) {
	dir := t.TempDir()
	emitted(t, generate.StreamSettings{MaxBits: 57, Shard: 1, Shards: 1, Filters: quickFilters, Pack: filepath.Join(dir, "all.pack")})
	var records int
	for k := 1; k <= 3; k++ {
		path := filepath.Join(dir, "shard"+strconv.Itoa(k)+".pack")
		emitted(t, generate.StreamSettings{MaxBits: 57, Shard: k, Shards: 3, Filters: quickFilters, Pack: path})
		r, err := pack.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range r.Entries {
			records += e.Records
			if e.Next%pack.FrameSpan != 0 && e.Next != r.Header.To {
				t.Errorf("shard %d: a frame ends at %d", k, e.Next)
			}
		}
		r.Close()
	}
	r, _ := pack.Open(filepath.Join(dir, "all.pack"))
	defer r.Close()
	all := 0
	for _, e := range r.Entries {
		all += e.Records
	}
	if records != all {
		t.Errorf("the shards hold %d records, the whole %d", records, all)
	}
}

// A pack cut anywhere, then run again, ends as the uninterrupted pack,
// bit for bit, having emitted every environment once.
func TestAnInterruptedPackResumes(t *testing.T) {
	dir := t.TempDir()
	s := generate.StreamSettings{MaxBits: 58, Shard: 1, Shards: 1, Filters: quickFilters, Pack: filepath.Join(dir, "all.pack")}
	whole := emitted(t, s)
	want, _ := os.ReadFile(s.Pack)
	for _, cut := range []int{len(want) / 3, len(want) - 5} {
		s.Pack = filepath.Join(dir, "cut"+strconv.Itoa(cut)+".pack")
		if err := os.WriteFile(s.Pack, want[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := pack.Open(s.Pack)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		for _, e := range r.Entries {
			kept += e.Records
		}
		r.Close()
		var notices []string
		var again []generate.Emitted
		if _, err := generate.Stream(s, func(e generate.Emitted) { again = append(again, e) }, nil, func(n string) { notices = append(notices, n) }); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(s.Pack); !bytes.Equal(got, want) {
			t.Errorf("cut at %d: the resumed pack differs from the uninterrupted one", cut)
		}
		if len(notices) != 1 || kept+len(again) != len(whole) {
			t.Errorf("cut at %d: notices %q; %d kept and %d emitted again of %d", cut, notices, kept, len(again), len(whole))
		}
	}
}
