package report

import (
	"image"
	"image/color"
	"strings"
	"sync"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// forms are the figures of every report form, drawn once for the tests
// that look at them.
var forms struct {
	sync.Once
	figs map[string][]Figure
}

// figuresOfEveryForm gives the figures of every report form (drawForms).
func figuresOfEveryForm(t *testing.T) map[string][]Figure {
	t.Helper()
	forms.Do(func() { forms.figs = drawForms(t) })
	if forms.figs == nil {
		t.Fatal("the report forms could not be drawn (see the first test that failed)")
	}
	return forms.figs
}

// drawForms draws the plots of each report form: Λ_one with two
// agents, with five (a legend of five entries), and with one agent and a
// τ far beyond the steps (curves flat after the steps), a battery of one
// stratum, and the adaptive test.
func drawForms(t *testing.T) map[string][]Figure {
	t.Helper()
	take := func(protocol Protocol, items []exam.Item, s exam.Settings, names ...string) []Figure {
		xs, err := exam.Examinees(names, agent.DefaultSettings)
		if err != nil {
			t.Fatal(err)
		}
		in := Input{Version: "9.9.9-test", Protocol: protocol, Seed: 3, Tests: 1, Settings: s, Items: items}
		for _, n := range names {
			in.Agents = append(in.Agents, AgentOf(n, agent.DefaultSettings))
		}
		if in.Outcomes, err = exam.Take(items, xs, s, nil); err != nil {
			t.Fatal(err)
		}
		r, err := New(in)
		if err != nil {
			t.Fatal(err)
		}
		figs, err := r.Figures()
		if err != nil {
			t.Fatal(err)
		}
		return figs
	}
	lambdaOne := Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: ByCells}
	items, err := exam.LambdaOneItems(1, 20, "test")
	if err != nil {
		t.Fatal(err)
	}
	late := exam.DefaultSettings
	late.Pace, late.Tau = exam.Pace{Model: "constant", A: 0.1}, 100
	battery := Protocol{Name: "battery", Complexity: "bits", Strata: ByComplexity}
	for i := range items[:7] {
		items[i].Complexity = items[i].Bits
	}
	forms := map[string][]Figure{
		"lambda-one":  take(lambdaOne, items, exam.DefaultSettings, "random", "qlearning"),
		"late tau":    take(lambdaOne, items[:7], late, "random"),
		"one stratum": take(battery, items[:7], exam.DefaultSettings, "random", "oracle"),
		"stay":        take(lambdaOne, items[:7], late, "stay"),
		"five agents": take(lambdaOne, items[:14], exam.DefaultSettings, "random", "qlearning", "oracle", "follower", "stopper"),
	}
	names := []string{"random", "follower", "oracle"}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	results, err := exam.TakeAdaptive(xs, exam.DefaultAdaptive, 1)
	if err != nil {
		t.Fatal(err)
	}
	a := &Adaptive{Seed: 1, Results: results}
	forms["adaptive"] = []Figure{a.estimateFigure(), a.levelFigure()}
	return forms
}

// raster draws a plot as Figure.draw would have placed it, without
// fitting again, at 144 dots an inch.
func raster(f Figure) *image.RGBA {
	c := vgimg.NewWith(vgimg.UseWH(f.Width, f.Height), vgimg.UseDPI(144))
	f.Plot.Draw(draw.New(c))
	return c.Image().(*image.RGBA)
}

// coloured tells a data mark's pixel, drawn in an agent's colour (or its
// tint), from the grid, the axes and the text, which are grey or black.
func coloured(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	hi, lo := max(r, g, b), min(r, g, b)
	return hi-lo > 0x1400
}

// No legend covers data: drawn with and without its legend, a figure
// differs in the legend's box only, and no pixel of a data mark (an
// agent's colour) lies in that box.
func TestLegendsDoNotCoverData(t *testing.T) {
	for form, figs := range figuresOfEveryForm(t) {
		for _, f := range figs {
			fitLegend(f.Plot, draw.New(vgimg.New(f.Width, f.Height)))
			with := raster(f)
			legend := f.Plot.Legend
			f.Plot.Legend = plot.NewLegend()
			without := raster(f)
			f.Plot.Legend = legend
			box := image.Rectangle{Min: with.Bounds().Max, Max: with.Bounds().Min}
			for y := range with.Bounds().Dy() {
				for x := range with.Bounds().Dx() {
					if with.RGBAAt(x, y) != without.RGBAAt(x, y) {
						box = box.Union(image.Rect(x, y, x+1, y+1))
					}
				}
			}
			if box.Empty() {
				t.Errorf("%s, %s: no legend drawn", form, f.ID)
				continue
			}
			var over []image.Point
			for y := box.Min.Y; y < box.Max.Y; y++ {
				for x := box.Min.X; x < box.Max.X; x++ {
					if coloured(without.At(x, y)) {
						over = append(over, image.Pt(x, y))
					}
				}
			}
			if len(over) > 0 {
				t.Errorf("%s, %s: the legend's box %v covers %d pixels of data, the first at %v", form, f.ID, box, len(over), over[0])
			}
		}
	}
}

// Every y axis has at least three labelled ticks, flat data included, and
// no legend or tick says −0.000.
func TestAxesAndLegendsReadWell(t *testing.T) {
	for form, figs := range figuresOfEveryForm(t) {
		for _, f := range figs {
			c := draw.New(vgimg.New(f.Width, f.Height))
			fitLegend(f.Plot, c)
			var labels []string
			for _, tk := range f.Plot.Y.Tick.Marker.Ticks(f.Plot.Y.Min, f.Plot.Y.Max) {
				if tk.Label != "" {
					labels = append(labels, tk.Label)
				}
			}
			if len(labels) < 3 {
				t.Errorf("%s, %s: y ticks %v; want three or more", form, f.ID, labels)
			}
			svg, err := f.SVG()
			if err != nil {
				t.Fatal(err)
			}
			for _, minus := range []string{">-0.000", ">−0.000", "-0.000)", "−0.000)", ">-0<", ">-0.0<", ">-0.00<"} {
				if strings.Contains(string(svg), minus) {
					t.Errorf("%s, %s: the plot says %q", form, f.ID, minus)
				}
			}
		}
	}
}

// A legend's entries are a line apart: from one entry's baseline to the
// next is at least the font's height, so descenders (the g of qlearning)
// never touch the capitals of the entry below.
func TestLegendEntriesAreALineApart(t *testing.T) {
	for form, figs := range figuresOfEveryForm(t) {
		for _, f := range figs {
			l := f.Plot.Legend
			ext := l.TextStyle.FontExtents()
			var above vg.Length // gonum's entry height: the tallest text above its baseline
			for _, name := range []string{"qlearning (r = +0.121)", "random", "oracle (mean +0.838)"} {
				above = max(above, l.TextStyle.Rectangle(name).Max.Y)
			}
			if step := above + l.Padding; step < ext.Ascent+ext.Descent {
				t.Errorf("%s, %s: entries %.2f points apart; the font is %.2f high", form, f.ID, step, ext.Ascent+ext.Descent)
			}
		}
	}
}

// A battery whose items fall in one stratum has no box plot of strata: one
// box an agent over every item would repeat the histogram.
func TestNoStrataPlotOfOneStratum(t *testing.T) {
	forms := figuresOfEveryForm(t)
	for form, want := range map[string]bool{"one stratum": false, "lambda-one": true} {
		got := false
		for _, f := range forms[form] {
			got = got || f.ID == "strata"
		}
		if got != want {
			t.Errorf("%s: a strata plot %v, want %v", form, got, want)
		}
	}
}

func TestSignedShortHasNoNegativeZero(t *testing.T) {
	for x, want := range map[float64]string{-0.0003: "0.000", 0.0004: "0.000", -0.0006: "-0.001", 0.273: "+0.273"} {
		if got := signedShort(x); got != want {
			t.Errorf("signedShort(%v) = %q, want %q", x, got, want)
		}
	}
}
