package generate_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
)

func stream(t *testing.T, maxBits float64, limit int) []generate.Candidate {
	t.Helper()
	var out []generate.Candidate
	err := generate.Enumerate(maxBits, func(c generate.Candidate) bool {
		out = append(out, c)
		return limit == 0 || len(out) < limit
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func load(t *testing.T, name, src string) (*lang.File, *env.Env) {
	t.Helper()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	return f, e
}

// The first environments are the papers' simplest: two cells, two
// actions, Good and Evil staying or swapping forever ([P] Example 5).
func TestFirstIsPaperExample5(t *testing.T) {
	got := stream(t, 60, 2)
	for i, want := range [][]int{{0}, {1}} {
		c := got[i]
		if c.Actions != 2 || c.Space.Cells() != 2 || !slices.Equal(c.Pattern, want) {
			t.Errorf("environment %d: %d actions, %d cells, pattern %v; want Example 5 with pattern %v", i, c.Actions, c.Space.Cells(), c.Pattern, want)
		}
	}
	if got[0].Space.Dest[0][1] != 1 || got[0].Space.Dest[1][1] != 0 {
		t.Errorf("the space is not the 2-cell one: %v", got[0].Space.Dest)
	}
}

// Lengths never decrease along the stream, each is the description length
// of the file written, and every file loads.
func TestStreamIsOrderedAndExact(t *testing.T) {
	got := stream(t, 56, 0)
	if len(got) < 100 {
		t.Fatalf("only %d environments up to 56 bits", len(got))
	}
	for i, c := range got {
		if i > 0 && c.Bits < got[i-1].Bits {
			t.Fatalf("environment %d: %.4f bits after %.4f", i, c.Bits, got[i-1].Bits)
		}
		if c.Index != i {
			t.Fatalf("environment %d has index %d", i, c.Index)
		}
		f, e := load(t, "c.anynt", c.Source())
		if bits := complexity.Total(complexity.Environment(f, e)); bits != c.Bits {
			t.Fatalf("environment %d: the stream says %.4f bits, its file %.4f", i, c.Bits, bits)
		}
	}
}

// Two runs give the same stream, and duplicates are skipped: no two
// environments have the same file.
func TestStreamIsDeterministicWithoutDuplicates(t *testing.T) {
	a, b := stream(t, 58, 0), stream(t, 58, 0)
	seen := map[string]int{}
	for i := range a {
		if a[i].Source() != b[i].Source() {
			t.Fatalf("environment %d differs between two runs", i)
		}
		_, body, _ := strings.Cut(a[i].Source(), "\n") // without the header
		if j, ok := seen[body]; ok {
			t.Fatalf("environments %d and %d are the same", j, i)
		}
		seen[body] = i
	}
}

var quickFilters = generate.FilterSettings{Episodes: 40, Steps: 40, Seed: 1, References: []string{"oracle", "follower"}}

func emitted(t *testing.T, s generate.StreamSettings) []generate.Emitted {
	t.Helper()
	var out []generate.Emitted
	if _, err := generate.Stream(s, func(e generate.Emitted) { out = append(out, e) }, nil, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// Shards are contiguous parts of the stream: one after another, in order
// and unsorted, they give exactly the unsharded stream, for any number of
// shards, more shards than candidates included (some are empty then).
func TestShardsMakeTheStream(t *testing.T) {
	whole := emitted(t, generate.StreamSettings{MaxBits: 52, Shard: 1, Shards: 1, Filters: quickFilters})
	for _, n := range []int{2, 3, 7, 200} {
		var joined []generate.Emitted
		for k := 1; k <= n; k++ {
			joined = append(joined, emitted(t, generate.StreamSettings{MaxBits: 52, Shard: k, Shards: n, Filters: quickFilters})...)
		}
		if len(whole) == 0 || !cmp.Equal(whole, joined) {
			t.Errorf("%d shards give %d environments in a row, the whole stream %d, or they differ", n, len(joined), len(whole))
		}
	}
}

// An interrupted run started again resumes: its files are those of an
// uninterrupted run, and each file passes its filters again when re-read.
func TestResumeAndRecheck(t *testing.T) {
	settings := func(dir string, limit int) generate.StreamSettings {
		return generate.StreamSettings{MaxBits: 56, Limit: limit, Shard: 1, Shards: 1, Filters: quickFilters, Out: dir}
	}
	straight, interrupted := t.TempDir(), t.TempDir()
	emitted(t, settings(straight, 8))
	emitted(t, settings(interrupted, 3)) // stops after 3: an interruption
	emitted(t, settings(interrupted, 8))
	files := func(dir string) map[string]string {
		out := map[string]string{}
		names, _ := filepath.Glob(filepath.Join(dir, "*.anynt"))
		for _, n := range names {
			b, _ := os.ReadFile(n)
			out[filepath.Base(n)] = string(b)
		}
		return out
	}
	a, b := files(straight), files(interrupted)
	if len(a) != 8 || !cmp.Equal(a, b) {
		t.Fatalf("the resumed run wrote %d files, the straight one %d, or they differ", len(b), len(a))
	}
	for name, src := range a {
		if v, err := generate.Check(name, src, quickFilters); err != nil || !v.Accepted {
			t.Errorf("%s: re-checked from its file, %s", name, v)
		}
		load(t, name, src)
	}
	if _, err := generate.Stream(generate.StreamSettings{MaxBits: 57, Shard: 1, Shards: 1, Filters: quickFilters, Out: straight}, func(generate.Emitted) {}, nil, nil); err == nil {
		t.Errorf("a folder of one run resumed with other settings")
	}
}
