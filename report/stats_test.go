package report

import (
	"bufio"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/stats"
	"github.com/anynt/anynt/random"
)

// The p-values of r are those Insa-Cabrera et al. (2011) print: every cell of
// Table 2 (one-tailed, n = 20) and the whole-test figures (n = 140), to the
// three decimals the paper gives.
func TestRPValuesReproduceInsaCabrera2011(t *testing.T) {
	tests := []struct {
		r    float64
		n    int
		want float64 // one-tailed p of r < 0, as printed
	}{
		// Table 2, humans
		{-0.474, 20, 0.017}, {-0.134, 20, 0.286}, {-0.367, 20, 0.056}, {-0.515, 20, 0.010},
		{-0.282, 20, 0.114}, {-0.189, 20, 0.213}, {-0.146, 20, 0.270},
		// Table 2, Q-learning (also paperQLearning)
		{-0.612, 20, 0.002}, {-0.538, 20, 0.008}, {-0.526, 20, 0.009}, {-0.403, 20, 0.039},
		{-0.442, 20, 0.026}, {-0.387, 20, 0.046}, {-0.465, 20, 0.019},
		// §5: humans r = −.257, n = 140, P = .001
		{-0.257, 140, 0.001},
	}
	for _, tt := range tests {
		two, one := stats.CorrelationP(tt.r, tt.n)
		if math.Abs(one-tt.want) > 0.0015 {
			t.Errorf("r %v, n %d: one-tailed p %.4f, paper %.3f", tt.r, tt.n, one, tt.want)
		}
		if math.Abs(two-2*one) > 1e-12 {
			t.Errorf("r %v: two-tailed p %v is not twice the one-tailed %v for r < 0", tt.r, two, one)
		}
	}
	for _, s := range paperQLearning.Strata {
		if _, one := stats.CorrelationP(s.R, s.N); math.Abs(one-s.P) > 0.0015 {
			t.Errorf("paperQLearning, %d cells: p %.4f, recorded %.3f", s.Cells, one, s.P)
		}
	}
	// A positive r is against the papers' hypothesis: its one-tailed p is
	// above one half.
	if _, one := stats.CorrelationP(0.3, 20); one <= 0.5 {
		t.Errorf("r = +0.3: one-tailed p of r < 0 is %v, want > 0.5", one)
	}
}

func TestCorrelate(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	tests := []struct {
		name  string
		score []float64
		r, p  float64
		na    bool // r and p cannot be computed
	}{
		{"rising exactly", []float64{2, 4, 6, 8, 10}, 1, 0, false},
		{"falling exactly", []float64{5, 4, 3, 2, 1}, -1, 0, false},
		{"constant scores", []float64{1, 1, 1, 1, 1}, 0, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := correlate(tt.score, x)
			if tt.na {
				if !math.IsNaN(c.R) || !math.IsNaN(c.P) || !math.IsNaN(c.POne) {
					t.Errorf("got %+v, want r and p n/a", c)
				}
				return
			}
			if math.Abs(c.R-tt.r) > 1e-12 || c.P != tt.p {
				t.Errorf("got r %v p %v, want %v %v", c.R, c.P, tt.r, tt.p)
			}
		})
	}
	if c := correlate([]float64{1, 2}, []float64{1, 2}); !math.IsNaN(c.R) {
		t.Errorf("two pairs: r %v, want n/a (no degree of freedom)", c.R)
	}
	// Pearson's r of a textbook sample: x 1…5, y 2 4 5 4 5 gives r = 0.7746.
	if c := correlate([]float64{2, 4, 5, 4, 5}, x); math.Abs(c.R-0.774597) > 1e-6 {
		t.Errorf("r %v, want 0.774597", c.R)
	}
}

func TestPaired(t *testing.T) {
	base := []float64{0, 0, 0, 0}
	// Differences 1 2 3 4: mean 2.5, t = 3.873 on 3 degrees of freedom,
	// two-tailed p = 0.03047 (numerical integration of Student's t).
	p := pair("random", base, []float64{1, 2, 3, 4})
	if p.Against != "random" || p.N != 4 || p.Mean != 2.5 || math.Abs(p.P-0.030466) > 1e-5 {
		t.Errorf("got %+v, want mean 2.5, p 0.0305", p)
	}
	// The interval excludes 0 exactly when p < 0.05.
	for _, d := range [][]float64{{1, 2, 3, 4}, {-1, 2, 0.5, 0.2}, {0.3, 0.1, 0.2, 0.25, -0.1}, {-2, -1, -3, 0.5}} {
		q := pair("a", make([]float64, len(d)), d)
		excludes := q.CI95[0] > 0 || q.CI95[1] < 0
		if excludes != (q.P < 0.05) {
			t.Errorf("differences %v: CI %v but p %v", d, q.CI95, q.P)
		}
	}
	if p := pair("a", []float64{1, 2}, []float64{1, 2}); p.P != 1 || p.Mean != 0 {
		t.Errorf("the same scores: %+v, want mean 0, p 1", p)
	}
	if p := pair("a", []float64{1, 2}, []float64{2, 3}); p.P != 0 || p.Mean != 1 {
		t.Errorf("a constant difference: %+v, want mean 1, p 0", p)
	}
	if p := pair("a", []float64{1}, []float64{2}); !math.IsNaN(p.P) {
		t.Errorf("one item: p %v, want n/a", p.P)
	}
}

func itemsOf(cells []int, complexity []float64) []exam.Item {
	items := make([]exam.Item, len(complexity))
	for i := range items {
		items[i] = exam.Item{Complexity: complexity[i]}
		if cells != nil {
			items[i].Cells = cells[i]
		}
	}
	return items
}

func TestStrataByCells(t *testing.T) {
	items := itemsOf([]int{5, 3, 9, 3, 5, 5}, make([]float64, 6))
	got := strata(items, ByCells)
	want := []Stratum{{"3", []int{1, 3}}, {"5", []int{0, 4, 5}}, {"9", []int{2}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// Complexity bins hold every item once, keep items of the same whole
// complexity together, hold about equal numbers, and number at most five.
func TestStrataByComplexity(t *testing.T) {
	var cx []float64
	for i := range 100 {
		cx = append(cx, 10+float64(i*i%37)+0.25*float64(i%4))
	}
	got := strata(itemsOf(nil, cx), ByComplexity)
	if len(got) != maxBins {
		t.Fatalf("%d bins, want %d: %v", len(got), maxBins, got)
	}
	seen := map[int]bool{}
	binOf := map[int]int{}
	for k, st := range got {
		if len(st.Items) < 10 || len(st.Items) > 30 {
			t.Errorf("bin %s holds %d of 100 items", st.Label, len(st.Items))
		}
		for _, i := range st.Items {
			if seen[i] {
				t.Errorf("item %d in two bins", i)
			}
			seen[i] = true
			w := int(math.Floor(cx[i]))
			if b, ok := binOf[w]; ok && b != k {
				t.Errorf("whole complexity %d in bins %d and %d", w, b, k)
			}
			binOf[w] = k
		}
	}
	if len(seen) != len(cx) {
		t.Errorf("%d items binned of %d", len(seen), len(cx))
	}
	// Few items make one bin; one complexity makes one bin labelled by it.
	if got := strata(itemsOf(nil, []float64{3, 9, 4.5}), ByComplexity); len(got) != 1 || got[0].Label != "3–9" {
		t.Errorf("three items: %v, want one bin 3–9", got)
	}
	same := slices.Repeat([]float64{7.5}, 50)
	if got := strata(itemsOf(nil, same), ByComplexity); len(got) != 1 || got[0].Label != "7" {
		t.Errorf("one complexity: %v, want one bin 7", got)
	}
}

// plusFixed4 is fmt's %+.4f, on the values a report meets and on the
// edges of the format: signs of zero, rounding to zero, infinities, NaN.
func TestPlusFixed4IsPrintf(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.00004, 0.00005, -0.00005, 0.99995, -0.99995,
		1e20, -1e20, 1e-300, math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	rng := random.New(4, 4)
	for range 100_000 {
		xs = append(xs, (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(12)-6)))
	}
	for _, x := range xs {
		if got, want := plusFixed4(x), fmt.Sprintf("%+.4f", x); got != want {
			t.Fatalf("plusFixed4(%v) = %q, want %q", x, got, want)
		}
	}
}

// writeAligned writes what text/tabwriter writes with padding 2 for
// tables of the same cells on every line, here random ones with empty
// cells and cells of several bytes a rune (TestTextIsTabwriterAligned
// checks real reports).
func TestAlignedIsTabwriter(t *testing.T) {
	rng := random.New(6, 6)
	words := []string{"", "a", "n/a", "+0.1250", "τ", "v̌‖τ", "lambda-one:12/7", "[-0.1000, +0.2000]", "Insa-Cabrera et al. 2011: r (p)"}
	for i := range 3000 {
		cols, rows := rng.IntN(6), rng.IntN(8)
		cell := func() string { return words[rng.IntN(len(words))] }
		tb := Table{Head: make([]string, cols)}
		for c := range tb.Head {
			tb.Head[c] = cell()
		}
		for range rows {
			row := make([]string, cols)
			for c := range row {
				row[c] = cell()
			}
			tb.Rows = append(tb.Rows, row)
		}
		if got, want := alignedAndTabwriter(tb); got != want {
			t.Fatalf("table %d:\nwriteAligned:\n%s\ntabwriter:\n%s", i, got, want)
		}
	}
}

// FuzzPlusFixed4 holds plusFixed4 to fmt's %+.4f on any float64.
func FuzzPlusFixed4(f *testing.F) {
	f.Add(math.Float64bits(-0.00005))
	f.Add(math.Float64bits(math.Inf(1)))
	f.Fuzz(func(t *testing.T, bits uint64) {
		x := math.Float64frombits(bits)
		if got, want := plusFixed4(x), fmt.Sprintf("%+.4f", x); got != want {
			t.Fatalf("plusFixed4(%v) = %q, want %q", x, got, want)
		}
	})
}

// FuzzAligned holds writeAligned to text/tabwriter on tables of a fuzzed
// shape whose cells are cut from fuzzed text (tabs and newlines, which
// a cell never holds, taken out).
func FuzzAligned(f *testing.F) {
	f.Add(uint8(3), "agent n mean τ v̌‖τ [-0.1, +0.2]")
	f.Add(uint8(1), "")
	f.Fuzz(func(t *testing.T, cols uint8, text string) {
		if !utf8.ValidString(text) {
			return
		}
		words := strings.Fields(strings.NewReplacer("\t", "", "\n", "").Replace(text))
		n := int(cols%8) + 1
		tb := Table{Head: make([]string, n)}
		for i := range tb.Head {
			tb.Head[i] = strconv.Itoa(i)
		}
		for len(words) > 0 {
			row := make([]string, n)
			for c := range row {
				if len(words) > 0 {
					row[c], words = words[0], words[1:]
				}
			}
			tb.Rows = append(tb.Rows, row)
		}
		if got, want := alignedAndTabwriter(tb); got != want {
			t.Fatalf("writeAligned:\n%s\ntabwriter:\n%s", got, want)
		}
	})
}

// alignedAndTabwriter writes tb with writeAligned and with text/tabwriter
// at padding 2, the cells of a line joined by tabs.
func alignedAndTabwriter(tb Table) (aligned, tabwritten string) {
	var got, want strings.Builder
	bw := bufio.NewWriter(&got)
	tb.writeAligned(bw)
	bw.Flush()
	tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
	for _, line := range append([][]string{tb.Head}, tb.Rows...) {
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	tw.Flush()
	return got.String(), want.String()
}
