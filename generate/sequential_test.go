package generate_test

import (
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/generate"
)

// fixedFilters are the defaults with the fixed budget: every agent plays
// every episode, today's rule.
func fixedFilters() generate.FilterSettings {
	s := generate.DefaultFilters
	s.Sequential = false
	return s
}

// The sequential test gives the fixed budget's verdicts on the corpus and
// on the first enumerated candidates, with the default settings, or a
// changed verdict it can explain: the only change it may make is to call
// balanced a candidate that the fixed test rejected as unbalanced although
// the random agent's bias is within BalanceMargin (the fixed test's 5%
// rejections by chance, and biases too small for the margin).
func TestSequentialKeepsTheVerdicts(t *testing.T) {
	type candidate struct{ name, src string }
	var cands []candidate
	fs.WalkDir(corpus.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".anynt") {
			b, _ := corpus.Files.ReadFile(path)
			cands = append(cands, candidate{path, string(b)})
		}
		return nil
	})
	n := 2000
	if testing.Short() {
		n = 200
	}
	i := 0
	generate.Enumerate(70, func(c generate.Candidate) bool {
		cands = append(cands, candidate{"enumerated", c.Source()})
		i++
		return i < n
	})
	changed, episodes, fixedEpisodes := 0, 0, 0
	for _, c := range cands {
		old, err := generate.Check(c.name, c.src, fixedFilters())
		if err != nil {
			t.Fatal(err)
		}
		seq, err := generate.Check(c.name, c.src, generate.DefaultFilters)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range append([]generate.Score{seq.Random}, seq.References...) {
			episodes += s.Episodes
		}
		for _, s := range append([]generate.Score{old.Random}, old.References...) {
			fixedEpisodes += s.Episodes
		}
		if old.Accepted == seq.Accepted && old.Reason == seq.Reason {
			continue
		}
		changed++
		explained := old.Reason == generate.ReasonUnbalanced && seq.Accepted &&
			math.Abs(old.Random.Mean) < generate.BalanceMargin && seq.Random.Episodes < generate.DefaultFilters.Episodes
		if !explained {
			t.Errorf("%s: fixed %s (random %+v), sequential %s (random %+v)\n%s", c.name, old, old.Random, seq, seq.Random, c.src)
		}
	}
	t.Logf("%d candidates, %d verdicts changed (chance or sub-margin imbalance), episodes %d against %d (%.1f%%)",
		len(cands), changed, episodes, fixedEpisodes, 100*float64(episodes)/float64(fixedEpisodes))
}

// With a budget no larger than the first look there is no interim look:
// the sequential filters are the fixed ones, score for score.
func TestSequentialWithinTheFirstLookIsFixed(t *testing.T) {
	src, err := corpus.Files.ReadFile("thesis/omega1-blocker.anynt")
	if err != nil {
		t.Fatal(err)
	}
	s := quickFilters
	s.Episodes = generate.FirstLook
	old, err := generate.Check("b.anynt", string(src), s)
	if err != nil {
		t.Fatal(err)
	}
	s.Sequential = true
	seq, err := generate.Check("b.anynt", string(src), s)
	if err != nil {
		t.Fatal(err)
	}
	if old.String() != seq.String() || old.Random != seq.Random || old.Best != seq.Best || old.Fitness != seq.Fitness || old.MaxSteps != seq.MaxSteps {
		t.Errorf("fixed %+v\nsequential %+v", old, seq)
	}
}

// The sequential filters give the same verdict, score for score, on one
// core as on two: every episode keeps its seed whichever worker plays it.
func TestSequentialIsTheSameOnAnyCores(t *testing.T) {
	var sources []string
	for _, name := range []string{"thesis/omega1-blocker.anynt", "paper/example5.anynt"} {
		b, err := corpus.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	generate.Enumerate(70, func(c generate.Candidate) bool {
		sources = append(sources, c.Source())
		return len(sources) < 60
	})
	verdicts := func(procs int) []string {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		var out []string
		for _, src := range sources {
			v, err := generate.Check("c.anynt", src, generate.DefaultFilters)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%+v", v))
		}
		return out
	}
	one, two := verdicts(1), verdicts(2)
	for i := range one {
		if one[i] != two[i] {
			t.Errorf("one core %s\ntwo cores %s", one[i], two[i])
		}
	}
}
