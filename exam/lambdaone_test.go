package exam_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/stats"
	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// The seven exercises follow Table 1 of Insa-Cabrera et al. (2011) and
// (2012): n_c = 3…9, m = 10·(n_c − 1), 350 interactions in all; n_a on 2…n_c;
// action 0 stays in every cell; the space is valid for the class; Good and
// Evil start apart; K_approx is the pattern's zlib length.
func TestLambdaOneFollowsTableOne(t *testing.T) {
	for seed := range uint64(200) {
		test := exam.LambdaOne(seed)
		total := 0
		for i, x := range test {
			total += x.Steps
			if x.Number != i+1 || x.Cells != i+3 || x.Steps != 10*(x.Cells-1) {
				t.Fatalf("seed %d, exercise %d: number %d, %d cells, %d steps", seed, i+1, x.Number, x.Cells, x.Steps)
			}
			if x.Actions < 2 || x.Actions > x.Cells || len(x.Dest) != x.Cells {
				t.Fatalf("seed %d, exercise %d: %d actions for %d cells", seed, x.Number, x.Actions, x.Cells)
			}
			for c, row := range x.Dest {
				if len(row) != x.Actions || row[0] != c {
					t.Fatalf("seed %d, exercise %d: cell %d's row %v", seed, x.Number, c, row)
				}
			}
			if errs := (&env.Space{Dest: x.Dest}).Check(); len(errs) > 0 {
				t.Fatalf("seed %d, exercise %d: invalid space: %v", seed, x.Number, errs)
			}
			if len(x.Pattern) == 0 || x.Place[1] == x.Place[2] || slices.Max(x.Pattern) >= x.Actions {
				t.Fatalf("seed %d, exercise %d: pattern %v, places %v", seed, x.Number, x.Pattern, x.Place)
			}
			if x.KApprox < 9 { // a zlib stream of a non-empty input has at least 9 bytes
				t.Fatalf("seed %d, exercise %d: K_approx %d", seed, x.Number, x.KApprox)
			}
		}
		if total != 350 {
			t.Fatalf("seed %d: %d interactions, want 350", seed, total)
		}
	}
}

// One seed fixes the whole test; another seed gives another test.
func TestLambdaOneIsFixedBySeed(t *testing.T) {
	if diff := cmp.Diff(exam.LambdaOne(7), exam.LambdaOne(7)); diff != "" {
		t.Errorf("seed 7 twice:\n%s", diff)
	}
	if cmp.Equal(exam.LambdaOne(7), exam.LambdaOne(8)) {
		t.Errorf("seeds 7 and 8 give the same test")
	}
}

// The draws have the distributions the papers give: over many tests the
// pattern's mean length is n_c (geometric, stopping probability 1/n_c),
// n_a is uniform on 2…n_c, and Good's starting cell is uniform.
func TestLambdaOneDistributions(t *testing.T) {
	const tests = 4000
	lengths := make([][]float64, 7)
	actions := make([][]int, 7)
	good := make([]int, 9)
	for seed := range uint64(tests) {
		for i, x := range exam.LambdaOne(seed) {
			lengths[i] = append(lengths[i], float64(len(x.Pattern)))
			if actions[i] == nil {
				actions[i] = make([]int, x.Cells+1)
			}
			actions[i][x.Actions]++
			if x.Cells == 9 {
				good[x.Place[1]]++
			}
		}
	}
	for i, ls := range lengths {
		cells := float64(i + 3)
		mean, sd := meanSD(ls)
		// The geometric law's sd is √(n_c(n_c − 1)); the sample's must be near it.
		if se := sd / math.Sqrt(tests); math.Abs(mean-cells) > 4*se || math.Abs(sd-math.Sqrt(cells*(cells-1))) > 0.1*sd {
			t.Errorf("n_c = %v: pattern length mean %.3f ± %.3f, sd %.3f; want mean %v, sd %.3f", cells, mean, se, sd, cells, math.Sqrt(cells*(cells-1)))
		}
		uniform(t, "n_a", actions[i][2:], tests)
	}
	uniform(t, "Good's cell among 9", good, tests)
}

// uniform fails when a count is more than 5 standard deviations from the
// count of a uniform draw.
func uniform(t *testing.T, what string, counts []int, n int) {
	t.Helper()
	p := 1 / float64(len(counts))
	sd := math.Sqrt(float64(n) * p * (1 - p))
	for v, c := range counts {
		if math.Abs(float64(c)-float64(n)*p) > 5*sd {
			t.Errorf("%s: value %d drawn %d times of %d, want about %.0f", what, v, c, n, float64(n)*p)
		}
	}
}

func meanSD(xs []float64) (float64, float64) {
	var s, q float64
	for _, x := range xs {
		s += x
		q += x * x
	}
	n := float64(len(xs))
	m := s / n
	return m, math.Sqrt(q/n - m*m)
}

// Source writes an ordinary environment file, in the canonical form: it
// loads without an error or a warning, and the environment it describes is
// the exercise.
func TestLambdaOneSourceLoads(t *testing.T) {
	for _, x := range exam.LambdaOne(3) {
		src := x.Source(3, "test")
		f, err := lang.Parse("x.anynt", []byte(src))
		if err != nil {
			t.Fatalf("exercise %d:\n%s\n%v", x.Number, src, err)
		}
		if canonical := string(lang.Format(f)); canonical != src {
			t.Errorf("exercise %d is not in the canonical form; anynt fmt gives:\n%s", x.Number, canonical)
		}
		e, err := env.Load(f)
		if err != nil {
			t.Fatalf("exercise %d:\n%s\n%v", x.Number, src, err)
		}
		if w := env.Lint(f, e); len(w) > 0 {
			t.Errorf("exercise %d: warnings %v", x.Number, w)
		}
		if !cmp.Equal(e.Space.Dest, x.Dest) || !slices.Equal(e.GoodEvilPattern(), x.Pattern) {
			t.Errorf("exercise %d: loaded space %v, pattern %v; want %v, %v", x.Number, e.Space.Dest, e.GoodEvilPattern(), x.Dest, x.Pattern)
		}
		if want := []int{x.Place[0], x.Place[1], x.Place[2]}; !slices.Equal(e.Place[:3], want) {
			t.Errorf("exercise %d: places %v, want %v", x.Number, e.Place[:3], want)
		}
		if e.Settings.Rewards != env.LambdaOneRewards || e.Settings.Cycle || e.Settings.Garbage {
			t.Errorf("exercise %d: settings %+v, want the Λ_one settings", x.Number, e.Settings)
		}
	}
}

// Load builds an exercise's syntax tree as it writes the text, and the
// tree is exactly what lang.Parse reads from that text, positions
// included, for the Λ_one exercises and the adaptive test's, so an item is
// what a user loads from its file.
func TestExerciseTreeIsParsed(t *testing.T) {
	check := func(x exam.Exercise, name string, seed uint64) {
		t.Helper()
		_, tree, src, err := x.Load(name, seed, "test")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := x.Source(seed, "test"); src != want {
			t.Fatalf("%s: Load wrote\n%s\nSource writes\n%s", name, src, want)
		}
		parsed, err := lang.Parse(name, []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d := cmp.Diff(parsed, tree, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("%s: the tree differs from the parse (-parsed +written):\n%s", name, d)
		}
	}
	for seed := range uint64(100) {
		for _, x := range exam.LambdaOne(seed) {
			check(x, fmt.Sprintf("lambda-one:%d/%d", seed, x.Number), seed)
		}
		for level := 1; level <= exam.MaxLevel; level++ {
			check(exam.AdaptiveExercise(seed, 1, level), fmt.Sprintf("adaptive:%d/%d", seed, level), seed)
		}
	}
}

// An item keeps the text it was loaded from: the file Source writes for its
// test's seed, which a study stores and loads again.
func TestLambdaOneItemsKeepTheirSource(t *testing.T) {
	items, err := exam.LambdaOneItems(5, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		seed := uint64(5 + it.Test - 1)
		if want := exam.LambdaOne(seed)[it.Number-1].Source(seed, "test"); it.Source != want {
			t.Errorf("%s: source\n%s\nwant\n%s", it.Name, it.Source, want)
		}
	}
}

// One whole Λ_one test for Q-learning, as Insa-Cabrera et al. (2011) gave it:
// drawing and loading the seven exercises, then 350 interactions. b.N tests,
// each of its own seed.
func BenchmarkLambdaOneTest(b *testing.B) {
	q := examinee(b, "qlearning")
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		items, err := exam.LambdaOneItems(seed, 1, "bench")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := exam.Take(items, []exam.Examinee{q}, exam.DefaultSettings, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*350)/b.Elapsed().Seconds(), "interactions/s")
}

// The findings of Insa-Cabrera et al. (2011) on their machine examinee, on 20
// Λ_one tests of seed 1 (140 exercises): Q-learning scores above 0, and less
// on more complex exercises (r of score against K_approx negative, one-tailed
// p < 0.01; the paper has r = −0.444, p < .001); the random agent's interval
// contains 0. docs/tests.md puts our figures beside the paper's.
func TestInsaCabrera2011Findings(t *testing.T) {
	items := lambdaOneItems(t, 1, 20)
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "qlearning"), examinee(t, "random")}, exam.DefaultSettings, nil)
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string][]float64{}
	var k []float64
	for _, o := range out {
		scores[o.Agent] = append(scores[o.Agent], o.Score)
		if o.Agent == "qlearning" {
			k = append(k, items[o.Item].Complexity)
		}
	}
	q := scores["qlearning"]
	if m, ci := stats.MeanCI(q); ci[0] <= 0 {
		t.Errorf("Q-learning's mean %.3f %v: the paper's 0.259 is well above 0", m, ci)
	}
	r := stat.Correlation(q, k, nil)
	n := float64(len(q))
	tStat := r * math.Sqrt((n-2)/(1-r*r))
	if p := (distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 2}).CDF(tStat); r >= 0 || p >= 0.01 {
		t.Errorf("Q-learning's r with K_approx is %.3f (one-tailed p %.4f); the paper finds −0.444, p < .001", r, p)
	}
	if m, ci := stats.MeanCI(scores["random"]); ci[0] > 0 || ci[1] < 0 {
		t.Errorf("random's mean %.3f %v: its interval should contain 0", m, ci)
	}
}
