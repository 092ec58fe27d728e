package generate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/pack"
	"github.com/google/go-cmp/cmp"
)

// shardPacks runs n shards of the enumeration up to bits into packs in
// dir and returns their paths.
func shardPacks(t *testing.T, dir string, bits float64, n int, f generate.FilterSettings) []string {
	t.Helper()
	var paths []string
	for k := 1; k <= n; k++ {
		p := filepath.Join(dir, "shard-"+strconv.Itoa(k)+".pack")
		emitted(t, generate.StreamSettings{MaxBits: bits, Shard: k, Shards: n, Filters: f, Pack: p})
		paths = append(paths, p)
	}
	return paths
}

// Merged shards are the unsharded run: the same environments in the same
// order, and the same pack, bit for bit, whatever the number of shards.
func TestMergedShardsAreTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	s := generate.StreamSettings{MaxBits: 58, Shard: 1, Shards: 1, Filters: quickFilters}
	whole := emitted(t, s)
	s.Pack = filepath.Join(dir, "whole.pack")
	emitted(t, s)
	want, _ := os.ReadFile(s.Pack)
	for _, n := range []int{2, 3, 5} {
		sub := filepath.Join(dir, strconv.Itoa(n))
		os.Mkdir(sub, 0o755)
		paths := shardPacks(t, sub, 58, n, quickFilters)
		// In any order on the command line.
		paths[0], paths[n-1] = paths[n-1], paths[0]
		m, err := generate.Merge(paths, version.String())
		if err != nil {
			t.Fatal(err)
		}
		var got []generate.Emitted
		if err := m.Each(func(e generate.Emitted) error { got = append(got, e); return nil }); err != nil {
			t.Fatal(err)
		}
		if !cmp.Equal(got, whole) || m.Settings.Shards != 1 || m.Settings.MaxBits != 58 {
			t.Errorf("%d shards merged: %d environments, the whole run %d, or they differ; settings %+v", n, len(got), len(whole), m.Settings)
		}
		out := filepath.Join(sub, "merged.pack")
		if err := m.WritePack(out); err != nil {
			t.Fatal(err)
		}
		m.Close()
		if b, _ := os.ReadFile(out); !bytes.Equal(b, want) {
			t.Errorf("%d shards merged: the pack differs from the unsharded run's", n)
		}
	}
}

// mergePart merges paths with MergePart into the new pack out.
func mergePart(t *testing.T, out string, paths ...string) {
	t.Helper()
	m, err := generate.MergePart(paths, version.String())
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.WritePack(out); err != nil {
		t.Fatal(err)
	}
}

// Shards merge in a tree: a pack merged from consecutive shards is itself a
// shard of the whole, and the root of any tree of merges is the unsharded
// run's pack, bit for bit. Seven shards of 58 bits, several frames each
// and frames of the whole that straddle a shard's end, merged as 1–3 and
// 4–7, then 1–3 with 4–5 (a pack of merged packs) and 6–7; a run of
// consecutive shards that starts at shard 1 but ends before the last is no
// whole run. A merged part holding one shard is that shard's pack.
func TestShardsMergeInATree(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.pack")
	emitted(t, generate.StreamSettings{MaxBits: 58, Shard: 1, Shards: 1, Filters: quickFilters, Pack: whole})
	want, _ := os.ReadFile(whole)
	s := shardPacks(t, dir, 58, 7, quickFilters)
	p := func(name string) string { return filepath.Join(dir, name) }
	mergePart(t, p("1-3.pack"), s[2], s[0], s[1])
	mergePart(t, p("4-7.pack"), s[3], s[4], s[5], s[6])
	mergePart(t, p("4-5.pack"), s[3], s[4])
	mergePart(t, p("6-7.pack"), s[5], s[6])
	mergePart(t, p("1-5.pack"), p("1-3.pack"), p("4-5.pack"))
	mergePart(t, p("3.pack"), s[2])
	for _, tree := range [][]string{
		{p("1-3.pack"), p("4-7.pack")},
		{p("6-7.pack"), p("1-5.pack")},
		{p("1-3.pack"), s[3], s[4], p("6-7.pack")},
		{s[0], s[1], p("3.pack"), p("4-7.pack")},
	} {
		root := filepath.Join(t.TempDir(), "root.pack")
		m, err := generate.Merge(tree, version.String())
		if err != nil {
			t.Fatalf("%v: %v", tree, err)
		}
		if err := m.WritePack(root); err != nil {
			t.Fatal(err)
		}
		m.Close()
		if b, _ := os.ReadFile(root); !bytes.Equal(b, want) {
			t.Errorf("%v merged: %d bytes, not the unsharded run's pack (%d bytes)", tree, len(b), len(want))
		}
	}
	if a, b := readAll(t, s[2]), readAll(t, p("3.pack")); !bytes.Equal(a, b) {
		t.Errorf("shard 3 merged alone differs from shard 3's pack")
	}
	r, err := pack.Open(p("1-5.pack"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if h := r.Header; h.Part() != "shards 1–5 of 7" || h.Shard != 1 || h.LastShard != 5 {
		t.Errorf("the pack of shards 1 to 5 says it holds %s (shard %d, last %d)", h.Part(), h.Shard, h.LastShard)
	}
	for _, c := range []struct {
		name  string
		paths []string
		part  bool
		want  string
	}{
		{"a gap", []string{p("1-3.pack"), s[4]}, true, "shards 4 of 7 are missing between shards 1 and 5"},
		{"a part overlapping a shard", []string{p("1-3.pack"), s[2], p("4-7.pack")}, false, "shard 3 of 7 is given twice"},
		{"parts overlapping", []string{p("1-5.pack"), p("4-7.pack")}, false, "shard 4 of 7 is given twice"},
		{"a part is not the whole", []string{p("1-5.pack")}, false, "shards 6, 7 of 7 are missing"},
	} {
		merge := generate.Merge
		if c.part {
			merge = generate.MergePart
		}
		if _, err := merge(c.paths, version.String()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want %q", c.name, err, c.want)
		}
	}
}

func readAll(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Merge refuses, naming them, shards missing, given twice, of another
// version or settings, unfinished, or torn.
func TestMergeRefusesWhatIsNotTheWholeRun(t *testing.T) {
	dir := t.TempDir()
	paths := shardPacks(t, dir, 57, 3, quickFilters)
	otherDir := filepath.Join(dir, "other")
	os.Mkdir(otherDir, 0o755)
	other := quickFilters
	other.Episodes++
	otherPaths := shardPacks(t, otherDir, 57, 3, other)
	// A torn shard: its last frame cut short. An unfinished one: the
	// same, cut back to its last whole frame as a resuming writer does.
	b, _ := os.ReadFile(paths[1])
	torn, unfinished := filepath.Join(dir, "torn.pack"), filepath.Join(dir, "unfinished.pack")
	os.WriteFile(torn, b[:len(b)-3], 0o644)
	os.WriteFile(unfinished, b[:len(b)-3], 0o644)
	// A last frame that does not match its entry: torn too.
	flipped := filepath.Join(dir, "flipped.pack")
	fb := bytes.Clone(b)
	fb[len(fb)-1] ^= 0xff
	os.WriteFile(flipped, fb, 0o644)
	// A shard stopped at its --limit.
	limited := quickFilters
	limitedDir := filepath.Join(dir, "limited")
	os.Mkdir(limitedDir, 0o755)
	limitedPath := filepath.Join(limitedDir, "shard-1.pack")
	emitted(t, generate.StreamSettings{MaxBits: 57, Limit: 2, Shard: 1, Shards: 2, Filters: limited, Pack: limitedPath})
	emitted(t, generate.StreamSettings{MaxBits: 57, Limit: 2, Shard: 2, Shards: 2, Filters: limited, Pack: filepath.Join(limitedDir, "shard-2.pack")})
	r, err := pack.Open(paths[1])
	if err != nil {
		t.Fatal(err)
	}
	w, _, cut, err := pack.Resume(unfinished, r.Header)
	r.Close()
	if err != nil || cut == nil {
		t.Fatalf("cutting the torn end: %v, %v", cut, err)
	}
	w.Close()
	tests := []struct {
		name    string
		paths   []string
		version string
		want    string
	}{
		{"missing", paths[:2], version.String(), "shards 3 of 3 are missing"},
		{"twice", append(paths, paths[1]), version.String(), "shard 2 of 3 is given twice"},
		{"other version", paths, "0.0.1", "merge with the anynt that made the shards"},
		{"other settings", []string{paths[0], otherPaths[1], paths[2]}, version.String(), "is a shard of another run"},
		{"torn", []string{paths[0], torn, paths[2]}, version.String(), "torn"},
		{"unfinished", []string{paths[0], unfinished, paths[2]}, version.String(), "stops at candidate"},
		{"a changed last frame", []string{paths[0], flipped, paths[2]}, version.String(), "run shard 2/3 again"},
		{"limited", []string{limitedPath, filepath.Join(limitedDir, "shard-2.pack")}, version.String(), "a limited shard is not a part of the whole run"},
		{"none", nil, version.String(), "no packs"},
	}
	for _, tt := range tests {
		_, err := generate.Merge(tt.paths, tt.version)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %q", tt.name, err, tt.want)
		}
	}
}
