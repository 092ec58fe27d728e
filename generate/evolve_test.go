package generate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
	"github.com/google/go-cmp/cmp"
)

// smallEvolve keeps the tests fast: each filter run is 30 episodes of 40
// interactions.
func smallEvolve(seed uint64, generations, population int) EvolveSettings {
	return EvolveSettings{Seed: seed, Generations: generations, Population: population,
		Filters: FilterSettings{Episodes: 30, Steps: 40, References: []string{"oracle", "follower"}}}
}

func evolve(t testing.TB, s EvolveSettings) *Evolution {
	t.Helper()
	ev, err := Evolve(context.Background(), s, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

func sources(ev *Evolution) []string {
	var out []string
	for _, ind := range ev.Population {
		out = append(out, ind.Source)
	}
	return out
}

// One seed decides everything: two runs give the same generation records
// and the same environments, whatever the number of cores.
func TestEvolveIsReproducible(t *testing.T) {
	s := smallEvolve(3, 4, 6)
	first := evolve(t, s)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	second := evolve(t, s)
	if diff := cmp.Diff(first.Generations, second.Generations); diff != "" {
		t.Errorf("generation records differ (-first +second):\n%s", diff)
	}
	if diff := cmp.Diff(sources(first), sources(second)); diff != "" {
		t.Errorf("populations differ (-first +second):\n%s", diff)
	}
	other := evolve(t, smallEvolve(4, 4, 6))
	if cmp.Equal(sources(first), sources(other)) {
		t.Errorf("seeds 3 and 4 evolved the same population")
	}
}

// Evolution's promise: a run with a fixed seed (the default run of anynt
// evolve, seed 1) improves its fitness over generations, and the best
// fitness never decreases (elitism).
func TestEvolveImprovesFitness(t *testing.T) {
	s := DefaultEvolve
	ev := evolve(t, s)
	gens := ev.Generations
	if len(gens) != s.Generations+1 {
		t.Fatalf("%d generation records, want %d (the first population and %d)", len(gens), s.Generations+1, s.Generations)
	}
	for i, g := range gens {
		t.Logf("generation %d: best %.4f (%.1f bits), mean %.4f, %d/%d accepted, rejected %v",
			g.Number, g.Best, g.BestBits, g.Mean, g.Accepted, g.Candidates, g.Rejected)
		if g.Number != i || g.Population != s.Population || g.Mean > g.Best {
			t.Errorf("generation %d: inconsistent record %+v", i, g)
		}
		if i > 0 && g.Best < gens[i-1].Best {
			t.Errorf("generation %d: best fitness fell from %.4f to %.4f", i, gens[i-1].Best, g.Best)
		}
	}
	if first, last := gens[0].Best, gens[len(gens)-1].Best; !(last > first) {
		t.Errorf("seed 1 did not improve: best fitness %.4f in generation 0, %.4f at the end", first, last)
	}
	if got := ev.Population[0].Verdict.Fitness; got != gens[len(gens)-1].Best {
		t.Errorf("the population's best has fitness %.4f, the record says %.4f", got, gens[len(gens)-1].Best)
	}
}

// The written environments are in canonical form, load, and pass the
// filters again, with the fitness their header gives.
func TestEvolveWritesEnvironmentsThatPassTheFilters(t *testing.T) {
	s := smallEvolve(2, 2, 4)
	ev := evolve(t, s)
	paths, err := ev.WriteFiles(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(ev.Population) || filepath.Base(paths[0]) != "best-01.anynt" {
		t.Fatalf("wrote %v for a population of %d", paths, len(ev.Population))
	}
	filters := s.Filters
	filters.Seed = s.Seed
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := lang.Parse(p, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got := string(lang.Format(f)); got != string(src) {
			t.Errorf("%s is not in canonical form:\n%s\nformats as\n%s", p, src, got)
		}
		if _, err := env.Load(f); err != nil {
			t.Errorf("%s does not load: %v", p, err)
		}
		v, err := Check(p, string(src), filters)
		if err != nil {
			t.Fatal(err)
		}
		if !v.Accepted || v.Fitness != ev.Population[i].Verdict.Fitness {
			t.Errorf("%s: %v with fitness %.4f; the run accepted it with fitness %.4f", p, v, v.Fitness, ev.Population[i].Verdict.Fitness)
		}
	}
}

// The first seed is the paper's Example 5: two cells, Good and Evil stay.
func TestSeedGenomesRender(t *testing.T) {
	want := []string{
		"actions s a1\n\nspace table {\n\t1 2\n\t2 1\n}\n\ngoodevil {\n\t->. s\n}\n",
		"actions s a1\n\nspace table {\n\t1 2\n\t2 1\n}\n\ngoodevil {\n\t->. a1\n}\n",
		"actions s l r\n\nspace table {\n\t1 3 2\n\t2 1 3\n\t3 2 1\n}\n\ngoodevil {\n\tπ [⊙] L ->. rr\n}\n",
		"actions s l r\n\nspace table {\n\t1 3 2\n\t2 1 3\n\t3 2 1\n}\n\ngoodevil {\n\t(π|:) ->\n\t->. l\n}\n",
	}
	var got []string
	for _, g := range seedGenomes() {
		got = append(got, g.canonicalSource())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("seed sources (-want +got):\n%s", diff)
	}
}

// Every genome the operators make stays within its bounds, has a valid
// space, and renders to a file that loads.
func TestGenomeOperatorsKeepEnvironmentsValid(t *testing.T) {
	rng := random.New(1, 2)
	pool := seedGenomes()
	for i := range 3000 {
		g := pool[rng.IntN(len(pool))].clone()
		if rng.IntN(3) == 0 {
			g.crossover(rng, pool[rng.IntN(len(pool))])
		}
		g.mutate(rng, 1+rng.IntN(2))
		if msg := g.invalid(); msg != "" {
			t.Fatalf("candidate %d: %s\n%s", i, msg, g.source())
		}
		f, err := lang.Parse("candidate", []byte(g.source()))
		if err == nil {
			_, err = env.Load(f)
		}
		if err != nil {
			t.Fatalf("candidate %d does not load: %v\n%s", i, err, g.source())
		}
		if g.source() != g.clone().source() {
			t.Fatalf("candidate %d: a clone renders differently", i)
		}
		pool = append(pool, g)
	}
}

// invalid says how a genome breaks its bounds, or returns "".
func (g *genome) invalid() string {
	switch {
	case g.actions < genomeMinActions || g.actions > genomeMaxActions:
		return "actions out of bounds"
	case len(g.space) < genomeMinCells || len(g.space) > genomeMaxCells:
		return "cells out of bounds"
	case !isValidTable(g.space) || len(g.space[0]) != g.actions:
		return "invalid space"
	case len(g.objects) > genomeMaxObjects:
		return "too many objects"
	}
	for _, p := range g.programs() {
		if len(*p) == 0 || len(*p) > genomeMaxRules+1 {
			return "a program has no rules or too many"
		}
		for _, r := range *p {
			if !r.terminating && r.rewritesForever() {
				return "a rule rewrites forever"
			}
			for _, t := range r.lhs {
				if len(t.alts) == 0 || len(t.alts) > genomeMaxAlts {
					return "a group is empty or too wide"
				}
			}
		}
	}
	return ""
}

func TestRewritesForever(t *testing.T) {
	syms := map[string]geneSym{"π": {kind: symPi}, "⊙": {kind: symOdot}, "L": {kind: symMarker, index: 1},
		"l": {kind: symAction, index: 1}, "X": {kind: symWork}, ":": {kind: symColon}}
	term := func(names ...string) geneTerm {
		var t geneTerm
		for _, n := range names {
			t.alts = append(t.alts, syms[n])
		}
		return t
	}
	opt := func(t geneTerm) geneTerm { t.optional = true; return t }
	tests := []struct {
		name string
		rule geneRule
		want bool
	}{
		{"-> l", geneRule{rhs: []geneSym{syms["l"]}}, true},
		{"π -> πX", geneRule{lhs: []geneTerm{term("π")}, rhs: []geneSym{syms["π"], syms["X"]}}, true},
		{"π -> X", geneRule{lhs: []geneTerm{term("π")}, rhs: []geneSym{syms["X"]}}, false},
		{"[⊙] L -> XL", geneRule{lhs: []geneTerm{opt(term("⊙")), term("L")}, rhs: []geneSym{syms["X"], syms["L"]}}, true},
		{"[⊙] L -> ⊙X", geneRule{lhs: []geneTerm{opt(term("⊙")), term("L")}, rhs: []geneSym{syms["⊙"], syms["X"]}}, false},
		{"(π|:) ->", geneRule{lhs: []geneTerm{term("π", ":")}}, false},
		{"(π|:) -> :", geneRule{lhs: []geneTerm{term("π", ":")}, rhs: []geneSym{syms[":"]}}, true},
	}
	for _, tt := range tests {
		if got := tt.rule.rewritesForever(); got != tt.want {
			t.Errorf("%s: rewritesForever %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestEvolveRejectsBadSettings(t *testing.T) {
	for _, s := range []EvolveSettings{smallEvolve(1, 1, 1), smallEvolve(1, -1, 4), {Population: 4, Filters: FilterSettings{Episodes: 1, Steps: 10}},
		smallEvolve(1, 1, MaxPopulation+1), smallEvolve(1, MaxGenerations+1, 4),
		{Population: 4, Filters: FilterSettings{Episodes: MaxFilterRuns + 1, Steps: 10}},
		{Population: 4, Filters: FilterSettings{Episodes: 10, Steps: MaxFilterRuns + 1}}} {
		if _, err := Evolve(context.Background(), s, nil, nil); err == nil {
			t.Errorf("%+v: no error", s)
		}
	}
}

// A cancelled run returns the generations it finished.
func TestEvolveStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var seen []int
	ev, err := Evolve(ctx, smallEvolve(1, 5, 4), func(g Generation) {
		seen = append(seen, g.Number)
		if g.Number == 1 {
			cancel()
		}
	}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if !slices.Equal(seen, []int{0, 1}) {
		t.Errorf("generations %v", seen)
	}
	if len(ev.Population) == 0 || len(ev.Generations) != len(seen) {
		t.Errorf("a cancelled run keeps %d generations and %d environments", len(ev.Generations), len(ev.Population))
	}
}

// BenchmarkEvolve is a small run: 3 generations of 8, filters of 30
// episodes of 40 interactions. Nearly all its time is the filters'.
func BenchmarkEvolve(b *testing.B) {
	for b.Loop() {
		evolve(b, smallEvolve(1, 3, 8))
	}
}

// BenchmarkBreed is the search's own cost for one candidate: selection,
// crossover, mutation, rendering and canonical form, without the filters.
func BenchmarkBreed(b *testing.B) {
	r := &evolution{settings: smallEvolve(1, 1, 8), seen: map[string]bool{}}
	for _, g := range seedGenomes() {
		r.pop = append(r.pop, Individual{genome: g})
	}
	rng := r.stream(1)
	for b.Loop() {
		r.breed(rng)
	}
}

// A run with --out stopped after k generations and started again ends with
// the result of an uninterrupted run, bit for bit: the same records, the
// same population and verdicts, the same files. The resumed run reports
// only the generations it makes.
func TestEvolveResumesBitForBit(t *testing.T) {
	s := smallEvolve(5, 4, 6)
	s.Out = t.TempDir()
	straight := evolve(t, s)
	straightFiles := FolderFiles(t, s.Out)

	s.Out = t.TempDir()
	ctx, stop := context.WithCancel(context.Background())
	if _, err := Evolve(ctx, s, func(g Generation) {
		if g.Number == 2 {
			stop()
		}
	}, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("the stopped run: %v", err)
	}
	var reported []int
	resumed, err := Evolve(context.Background(), s, func(g Generation) { reported = append(reported, g.Number) }, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(reported, []int{3, 4}) {
		t.Errorf("the resumed run reported generations %v, want [3 4]", reported)
	}
	if diff := cmp.Diff(straight.Generations, resumed.Generations); diff != "" {
		t.Errorf("generation records differ (-straight +resumed):\n%s", diff)
	}
	genomes := cmp.AllowUnexported(Individual{}, genome{}, geneRule{}, geneTerm{}, geneSym{})
	if diff := cmp.Diff(straight.Population, resumed.Population, genomes); diff != "" {
		t.Errorf("populations differ (-straight +resumed):\n%s", diff)
	}
	if diff := cmp.Diff(straightFiles, FolderFiles(t, s.Out)); diff != "" {
		t.Errorf("files differ (-straight +resumed):\n%s", diff)
	}

	// A finished run resumed makes nothing, and rewrites a torn file.
	best := filepath.Join(s.Out, "best-01.anynt")
	if err := os.WriteFile(best, []byte("actions s"), 0o644); err != nil {
		t.Fatal(err)
	}
	reported = nil
	if _, err := Evolve(context.Background(), s, func(g Generation) { reported = append(reported, g.Number) }, nil); err != nil {
		t.Fatal(err)
	}
	if len(reported) != 0 || !cmp.Equal(straightFiles, FolderFiles(t, s.Out)) {
		t.Errorf("resuming a finished run made generations %v, or did not restore its files", reported)
	}
}

// A folder holding another run is refused, whether its state has other
// settings or it has environments and no state, so that no stale file of
// an earlier run is left among the new ones.
func TestEvolveRefusesAnotherRunsFolder(t *testing.T) {
	s := smallEvolve(5, 1, 4)
	s.Out = t.TempDir()
	evolve(t, s)
	other := s
	other.Seed = 6
	if _, err := Evolve(context.Background(), other, nil, nil); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("a folder of seed 5 resumed with seed 6: %v", err)
	}
	stale := t.TempDir()
	if err := os.WriteFile(filepath.Join(stale, "best-01.anynt"), []byte("actions s r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other.Out = stale
	if _, err := Evolve(context.Background(), other, nil, nil); err == nil || !strings.Contains(err.Error(), "best-01.anynt") {
		t.Errorf("a folder with an earlier run's files and no state: %v", err)
	}
}
