package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/anynt/anynt/exam"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Adaptive is the report of an adaptive anytime test: its header lines
// (the version, the seed and every setting, as the command prints them),
// the agents and their results.
type Adaptive struct {
	Title, Settings string
	Seed            uint64
	Agents          []Agent
	Results         []exam.AdaptiveResult // in the order of Agents
}

// WriteHTML writes the adaptive test as one self-contained page, in the
// same form as a test's report: the header, a summary table, the plots of
// the estimate and of the level over the test time, and every step.
func (r *Adaptive) WriteHTML(w io.Writer) error {
	hf, agents, err := pageParts([]Figure{r.estimateFigure(), r.levelFigure()}, r.Agents)
	if err != nil {
		return err
	}
	summary := Table{Title: "score per agent (the mean of level/levels × payoff, ± its standard error, and its 95% interval, which is not ± 1.96 standard errors)",
		Head: []string{"agent", "score", "standard error", "95% interval", "environments", "mean level", "time used (s)"}}
	steps := Table{Head: []string{"agent", "step", "level", "environment", "cells", "K_approx", "bits", "start", "time", "interactions", "score", "estimate", "se"}}
	for a, res := range r.Results {
		summary.Rows = append(summary.Rows, []string{agentText(r.Agents[a]), signed(res.Score), seOf(res.SE, len(res.Steps)), intervalOf(res),
			fmt.Sprint(len(res.Steps)), fmt.Sprintf("%.2f", res.MeanLevel), g(endOf(res))})
		for _, st := range res.Steps {
			steps.Rows = append(steps.Rows, []string{res.Agent, fmt.Sprint(st.Number), fmt.Sprint(st.Level), st.Name, fmt.Sprint(st.Cells),
				fmt.Sprint(st.KApprox), fmt.Sprintf("%.1f", st.Bits), g(st.Start), g(st.Time), fmt.Sprint(st.Interactions),
				signed(st.Score), signed(st.Estimate), seOf(st.SE, st.Number)})
		}
	}
	bw := bufio.NewWriter(w)
	if err := page.Execute(bw, map[string]any{
		"Title": r.Title, "Protocol": "adaptive", "Seed": r.Seed, "Settings": r.Settings,
		"Score":  "score: the estimate had the test stopped at each time; a random agent scores 0 in expectation",
		"Agents": agents, "Tables": []Table{summary}, "Figures": hf, "Items": steps,
		"ItemsHeading": "Steps", "ItemsSummary": "every environment each agent was given, in order",
	}); err != nil {
		return err
	}
	return bw.Flush()
}

// estimateFigure draws each agent's estimate at the end of each
// environment, with a band of ± one standard error: the anytime score.
func (r *Adaptive) estimateFigure() Figure {
	p := newPlot("The adaptive test's score at any time", "test time (s)", "score (estimate ± standard error)")
	for a, res := range r.Results {
		pts := make(plotter.XYs, len(res.Steps))
		band := make(plotter.XYs, 0, 2*len(res.Steps))
		for k, st := range res.Steps {
			pts[k] = plotter.XY{X: st.End(), Y: st.Estimate}
			band = append(band, plotter.XY{X: st.End(), Y: st.Estimate + st.SE})
		}
		for k := len(res.Steps) - 1; k >= 0; k-- {
			band = append(band, plotter.XY{X: res.Steps[k].End(), Y: res.Steps[k].Estimate - res.Steps[k].SE})
		}
		if poly, err := plotter.NewPolygon(band); err == nil {
			poly.Color, poly.LineStyle.Width = colour(a, 0x30), 0
			p.Add(poly)
		}
		if line, err := plotter.NewLine(pts); err == nil {
			line.LineStyle = draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.5), Dashes: dashes(a)}
			p.Add(line)
			p.Legend.Add(fmt.Sprintf("%s (%s)", res.Agent, signedShort(res.Score)), line)
		}
	}
	legendRoom(p)
	return Figure{ID: "estimate", Caption: "Each agent's score had the test stopped at the end of each environment (line) and ± one standard error (band).",
		Plot: p, Width: wide, Height: tall}
}

// levelFigure draws the staircase: each agent's level through the test.
func (r *Adaptive) levelFigure() Figure {
	p := newPlot("Level through the test", "test time (s)", "level")
	for a, res := range r.Results {
		var pts plotter.XYs
		for _, st := range res.Steps {
			pts = append(pts, plotter.XY{X: st.Start, Y: float64(st.Level)}, plotter.XY{X: st.End(), Y: float64(st.Level)})
		}
		if line, err := plotter.NewLine(pts); err == nil {
			line.LineStyle = draw.LineStyle{Color: colour(a, 0xFF), Width: vg.Points(1.5), Dashes: dashes(a)}
			p.Add(line)
			p.Legend.Add(fmt.Sprintf("%s (mean %.2f)", res.Agent, res.MeanLevel), line)
		}
	}
	legendRoom(p)
	return Figure{ID: "level", Caption: "Each agent's level in each environment: the staircase of the test.",
		Plot: p, Width: wide, Height: short}
}

func endOf(r exam.AdaptiveResult) float64 {
	if len(r.Steps) == 0 {
		return 0
	}
	return r.Steps[len(r.Steps)-1].End()
}

// seOf prints a standard error, n/a below two environments.
// intervalOf is the score's 95% interval, n/a below two environments.
func intervalOf(r exam.AdaptiveResult) string {
	if len(r.Steps) < 2 {
		return "n/a"
	}
	return "[" + signed(r.Low) + ", " + signed(r.High) + "]"
}

func seOf(se float64, n int) string {
	if n < 2 {
		return "n/a"
	}
	return plain(se)
}
