package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// palette is Okabe and Ito's colour-blind-safe palette, one colour an
// agent, cycled past eight.
var palette = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// Colour is the colour of agent a in every plot, as #RRGGBB.
func Colour(a int) string {
	c := palette[a%len(palette)]
	return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
}

func colour(a int, alpha uint8) color.NRGBA {
	c := palette[a%len(palette)]
	c.A = alpha
	return c
}

var glyphs = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.TriangleGlyph{}, draw.SquareGlyph{}, draw.PlusGlyph{}, draw.CrossGlyph{}, draw.RingGlyph{}, draw.PyramidGlyph{}, draw.BoxGlyph{}}

// Figure is one plot of the report: an identifier, its caption, and the
// plot.
type Figure struct {
	ID, Caption string
	Plot        *plot.Plot
	Width       vg.Length
	Height      vg.Length
}

// Figures draws the report's plots: score against complexity (Insa-Cabrera et
// al. 2011, Fig. 4 right), scores per stratum (Fig. 4 left) when there are
// two strata or more (one box an agent over every item would only repeat the
// histogram), score distributions (Fig. 3), the ranking of the agents (two
// or more), and the anytime curve of each of the payoffs of
// Hernández-Orallo (2010a).
func (r *Report) Figures() ([]Figure, error) {
	var figs []Figure
	builds := []func() (Figure, error){r.complexityFigure, r.strataFigure, r.distributionFigure}
	if len(r.Strata) < 2 {
		builds = slices.Delete(builds, 1, 2)
	}
	for _, build := range builds {
		f, err := build()
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	if len(r.Agents) > 1 {
		f, err := r.rankingFigure()
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	for j := range payoffNames {
		f, err := r.curveFigure(j)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	return figs, nil
}

const (
	wide   = 16 * vg.Centimeter
	tall   = 10 * vg.Centimeter
	narrow = 10 * vg.Centimeter
	short  = 7 * vg.Centimeter
)

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Legend.Left = true
	// gonum/plot spaces the legend's entries by their text's height above
	// the baseline, so that one entry's descenders touch the next one's
	// capitals; a descent and a point more between them keeps them apart.
	p.Legend.Padding = p.Legend.TextStyle.FontExtents().Descent + vg.Points(1)
	p.Add(plotter.NewGrid())
	return p
}

func (r *Report) scoreLabel() string {
	return fmt.Sprintf("score (%s, %s)", scoreNotation[r.Settings.Score], r.Settings.Score)
}

func (r *Report) complexityFigure() (Figure, error) {
	p := newPlot("Score against complexity (Insa-Cabrera et al. 2011, Fig. 4 right)", "complexity ("+r.Protocol.Complexity+")", r.scoreLabel())
	xs := r.complexities()
	lo, hi := slices.Min(xs), slices.Max(xs)
	for a, s := range r.Summaries {
		ys := r.scores(a)
		pts := make(plotter.XYs, len(xs))
		for i := range xs {
			pts[i] = plotter.XY{X: xs[i], Y: ys[i]}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return Figure{}, err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: colour(a, 0xB0), Radius: vg.Points(2.5), Shape: glyphs[a%len(glyphs)]}
		p.Add(sc)
		name := fmt.Sprintf("%s (r = %s)", s.Agent.Name, signedShort(s.Corr.R))
		if lo == hi { // one complexity: no line to fit
			p.Legend.Add(name, sc)
			continue
		}
		icept, slope := stat.LinearRegression(xs, ys, nil, false)
		line, err := plotter.NewLine(plotter.XYs{{X: lo, Y: icept + slope*lo}, {X: hi, Y: icept + slope*hi}})
		if err != nil {
			return Figure{}, err
		}
		line.LineStyle = draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.5), Dashes: dashes(a)}
		p.Add(line)
		p.Legend.Add(name, sc, line)
	}
	legendRoom(p)
	return Figure{ID: "complexity", Caption: fmt.Sprintf("Each item's score against its complexity (%s), one mark an item, with each agent's least-squares line and Pearson's r.", r.Protocol.Complexity),
		Plot: p, Width: wide, Height: tall}, nil
}

// legendRoom readies the y axis for a legend in a band of its own above
// the data, drawn at the top (Figure.draw fits the band to the legend, whose
// height is known only on a canvas): the ticks stop at the data's top.
// Data of one value (one item, or equal scores) gets half a unit either
// side first, since a range of zero width has no ticks (gonum/plot panics
// on it).
func legendRoom(p *plot.Plot) {
	if !(p.Y.Max > p.Y.Min) {
		p.Y.Min, p.Y.Max = p.Y.Min-0.5, p.Y.Max+0.5
	}
	p.Y.Tick.Marker = dataTicks{top: p.Y.Max}
}

// legendGap is the room between the legend's band and the data's top: more
// than a glyph's radius (3 points) or a line's half width.
const legendGap = 4 * vg.Millimeter / 3

// fitLegend raises the top of the y axis of a plot readied by legendRoom
// until the legend, drawn at the top of canvas c, lies wholly above the
// data's top: the band is as tall as the legend, however many entries and
// whatever the figure's size. The data's canvas depends a little on the
// range (glyphs at its edge pad it), so the fit is taken three times.
func fitLegend(p *plot.Plot, c draw.Canvas) {
	t, ok := p.Y.Tick.Marker.(dataTicks)
	height := p.Legend.Rectangle(c).Size().Y
	if !ok || height == 0 {
		return
	}
	top := c.Max.Y // the legend's top: the canvas's, below the title
	if p.Title.Text != "" {
		top -= p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}
	bottom := top - height - p.Legend.TextStyle.FontExtents().Descent - legendGap
	for range 3 {
		dc := p.DataCanvas(c)
		span := dc.Max.Y - dc.Min.Y
		room := max(bottom-dc.Min.Y, span/5) // a legend taller than the plot leaves the data a fifth
		p.Y.Max = p.Y.Min + (t.top-p.Y.Min)*float64(span/room)
	}
}

// dataTicks marks the y axis up to the data's top only, not in the
// legend's band, with at least three labelled ticks: gonum/plot's
// default gives two on some ranges (0 and 0.25 over 0 … 0.27), too few to
// read a scale from.
type dataTicks struct{ top float64 }

func (t dataTicks) Ticks(lo, _ float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, t.top)
	if labelled(ticks) >= 3 {
		return ticks
	}
	return evenTicks(lo, t.top)
}

func labelled(ticks []plot.Tick) int {
	n := 0
	for _, tk := range ticks {
		if tk.Label != "" {
			n++
		}
	}
	return n
}

// evenTicks labels the multiples of the widest step of 1, 2 or 5 times a
// power of ten that puts at least three in [lo, hi], with as many
// decimals as the step has.
func evenTicks(lo, hi float64) []plot.Tick {
	mag := math.Pow(10, math.Floor(math.Log10(hi-lo)))
	for _, step := range []float64{5 * mag, 2 * mag, mag, mag / 2, mag / 5, mag / 10} {
		first, last := math.Ceil(lo/step), math.Floor(hi/step)
		if last-first < 2 {
			continue
		}
		decimals := max(0, int(math.Ceil(-math.Log10(step)-1e-9)))
		var ticks []plot.Tick
		for k := first; k <= last; k++ {
			v := k * step
			if k == 0 {
				v = 0 // not −0
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		}
		return ticks
	}
	return plot.DefaultTicks{}.Ticks(lo, hi)
}

func dashes(a int) []vg.Length {
	if a%2 == 0 {
		return nil
	}
	return []vg.Length{vg.Points(4), vg.Points(2)}
}

func (r *Report) strataFigure() (Figure, error) {
	x := r.strataName()
	if r.Protocol.Strata == ByCells {
		x = "number of cells (n_c)"
	}
	p := newPlot("Scores by "+r.strataName()+" (Insa-Cabrera et al. 2011, Fig. 4 left)", x, r.scoreLabel())
	n := len(r.Agents)
	slot := 0.8 / float64(n)                                     // of a stratum's unit width
	boxWidth := vg.Length(0.7*slot) * (wide - 2*vg.Centimeter) / // in points, about
		vg.Length(len(r.Strata)+1)
	var ticks []plot.Tick
	for k, st := range r.Strata {
		ticks = append(ticks, plot.Tick{Value: float64(k), Label: st.Label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.6, float64(len(r.Strata))-0.4
	for a, s := range r.Summaries {
		scores := r.scores(a)
		offset := (float64(a) - float64(n-1)/2) * slot
		means := make(plotter.XYs, len(r.Strata))
		for k, st := range r.Strata {
			b, err := plotter.NewBoxPlot(boxWidth, float64(k)+offset, plotter.Values(pick(scores, st.Items)))
			if err != nil {
				return Figure{}, err
			}
			b.BoxStyle.Color = colour(a, 0xFF)
			b.WhiskerStyle.Color = colour(a, 0xFF)
			b.MedianStyle.Color = colour(a, 0xFF)
			b.FillColor = colour(a, 0x30)
			b.GlyphStyle.Color = colour(a, 0xFF)
			p.Add(b)
			means[k] = plotter.XY{X: float64(k) + offset, Y: s.Strata[k].Mean}
		}
		line, pts, err := plotter.NewLinePoints(means)
		if err != nil {
			return Figure{}, err
		}
		line.LineStyle = draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.5), Dashes: dashes(a)}
		pts.GlyphStyle = draw.GlyphStyle{Color: colour(a, 0xFF), Radius: vg.Points(3), Shape: glyphs[a%len(glyphs)]}
		p.Add(line, pts)
		p.Legend.Add(s.Agent.Name+" (boxes; means joined)", line, pts)
	}
	legendRoom(p)
	return Figure{ID: "strata", Caption: "Box plots of the item scores in each stratum, one box an agent (median, quartiles, whiskers to 1.5 IQR, outliers), with each agent's means joined.",
		Plot: p, Width: wide, Height: tall}, nil
}

// histogramBins are the bins of the score distributions: those of
// Insa-Cabrera et al. (2011), [−1, 1] in twentieths when every score lies
// there (v‖τ, v̌‖τ, V|γ|τ always do), else twenty bins over the scores'
// range.
func histogramBins(all []float64) []plotter.HistogramBin {
	lo, hi := -1.0, 1.0
	if mn, mx := slices.Min(all), slices.Max(all); mn < lo || mx > hi {
		lo, hi = mn, mx
		if lo == hi {
			lo, hi = lo-0.5, hi+0.5
		}
	}
	const n = 20
	bins := make([]plotter.HistogramBin, n)
	for k := range bins {
		bins[k].Min = lo + (hi-lo)*float64(k)/n
		bins[k].Max = lo + (hi-lo)*float64(k+1)/n
	}
	return bins
}

func (r *Report) distributionFigure() (Figure, error) {
	p := newPlot("Score distributions (Insa-Cabrera et al. 2011, Fig. 3)", r.scoreLabel(), "density")
	p.Legend.Left = false
	var all []float64
	for a := range r.Agents {
		all = append(all, r.scores(a)...)
	}
	for a, s := range r.Summaries {
		bins := histogramBins(all)
		for _, x := range r.scores(a) {
			k := int(math.Floor((x - bins[0].Min) / (bins[0].Max - bins[0].Min)))
			bins[min(max(k, 0), len(bins)-1)].Weight++
		}
		h := &plotter.Histogram{Bins: bins, Width: bins[0].Max - bins[0].Min, FillColor: colour(a, 0x40),
			LineStyle: draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.2), Dashes: dashes(a)}}
		h.Normalize(1)
		p.Add(h)
		p.Legend.Add(fmt.Sprintf("%s (mean %s)", s.Agent.Name, signedShort(s.Mean)), h)
	}
	legendRoom(p)
	return Figure{ID: "distribution", Caption: "Histograms of the item scores, one an agent, scaled to unit area (density).",
		Plot: p, Width: wide, Height: tall}, nil
}

// rankingFigure draws each agent's mean normalised score (or mean score,
// without bounds) with its 95% interval, in the order of the ranking.
func (r *Report) rankingFigure() (Figure, error) {
	y, what := r.scoreLabel(), "mean score"
	if r.byNormalised() {
		y, what = "normalised score (0 random's expectation, 1 the optimum)", "mean normalised score"
	}
	p := newPlot("Ranking of the agents by "+what, "", y)
	p.Legend.Left = false
	var ticks []plot.Tick
	for k, rk := range r.Ranking {
		s := r.Summaries[rk.Agent]
		mean, ci, n := s.Mean, s.CI95, s.N
		if nf := s.Normalised; nf != nil && r.byNormalised() {
			mean, ci, n = nf.Mean, nf.CI95, nf.N
		}
		ticks = append(ticks, plot.Tick{Value: float64(k), Label: s.Agent.Name})
		if math.IsNaN(mean) {
			continue
		}
		pt := plotter.XYs{{X: float64(k), Y: mean}}
		dot, err := plotter.NewScatter(pt)
		if err != nil {
			return Figure{}, err
		}
		dot.GlyphStyle = draw.GlyphStyle{Color: colour(rk.Agent, 0xFF), Radius: vg.Points(4), Shape: glyphs[rk.Agent%len(glyphs)]}
		p.Add(dot)
		p.Legend.Add(fmt.Sprintf("%s (%s)", s.Agent.Name, signedShort(mean)), dot)
		if n >= 2 {
			bars, err := plotter.NewYErrorBars(struct {
				plotter.XYs
				plotter.YErrors
			}{pt, plotter.YErrors{{Low: mean - ci[0], High: ci[1] - mean}}})
			if err != nil {
				return Figure{}, err
			}
			bars.LineStyle = draw.LineStyle{Color: colour(rk.Agent, 0xFF), Width: vg.Points(1.5)}
			p.Add(bars)
		}
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.X.Min, p.X.Max = -0.5, float64(len(r.Ranking))-0.5
	legendRoom(p)
	caption := "Each agent's mean score over the items with its 95% interval, the best first."
	if r.byNormalised() {
		caption = fmt.Sprintf("Each agent's mean normalised score over the %s with a scale, with its 95%% interval, the best first: "+
			"0 is random's expected score and 1 the optimum of each item.", count(len(r.Scaled()), "item"))
	}
	return Figure{ID: "ranking", Caption: caption, Plot: p, Width: wide, Height: short}, nil
}

func (r *Report) curveFigure(j int) (Figure, error) {
	x := "fraction of each item's τ"
	if r.Settings.Tau > 0 {
		x = fmt.Sprintf("fraction of τ = %s s", g(r.Settings.Tau))
	}
	p := newPlot("Anytime curve of "+payoffNames[j], x, payoffNames[j])
	p.X.Min, p.X.Max = 0, 1
	for a, s := range r.Summaries {
		pts := make(plotter.XYs, len(s.Curve))
		for k, v := range s.Curve {
			pts[k] = plotter.XY{X: v.Tau, Y: payoffsOf(v)[j]}
		}
		line, err := plotter.NewLine(pts)
		if err != nil {
			return Figure{}, err
		}
		line.LineStyle = draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.5), Dashes: dashes(a)}
		p.Add(line)
		p.Legend.Add(s.Agent.Name, line)
	}
	legendRoom(p)
	return Figure{ID: fmt.Sprintf("anytime-%d", j+1), Caption: fmt.Sprintf("The mean over the items of %s, read at %s evenly spaced test times up to each item's τ.", payoffNames[j], fmt.Sprint(r.Settings.CurvePoints)),
		Plot: p, Width: narrow, Height: short}, nil
}

// draw draws the figure on c, its legend in a band of its own.
func (f Figure) draw(c draw.Canvas) {
	fitLegend(f.Plot, c)
	f.Plot.Draw(c)
}

// SVG draws a figure as an SVG element, without the XML declaration, to be
// put inline in a page.
func (f Figure) SVG() ([]byte, error) {
	c := vgsvg.New(f.Width, f.Height)
	f.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if i := bytes.Index(out, []byte("<svg")); i >= 0 {
		out = out[i:]
	}
	return out, nil
}

// signedShort prints a figure in legends: three decimals with a sign, 0.000
// for one that rounds to zero (not −0.000, which reads as a negative
// figure), or n/a.
func signedShort(x float64) string {
	switch s := fmt.Sprintf("%+.3f", x); {
	case math.IsNaN(x):
		return "n/a"
	case s == "-0.000" || s == "+0.000":
		return "0.000"
	default:
		return s
	}
}
