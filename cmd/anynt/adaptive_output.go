package main

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"text/tabwriter"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// adaptiveSettings are the settings every JSON object of the test carries.
type adaptiveSettings struct {
	TestTime  float64  `json:"test_time"`
	FirstTime float64  `json:"first_time"`
	TimeStep  float64  `json:"time_step"`
	MaxTime   *float64 `json:"max_time"` // null: no cap
	Up        float64  `json:"up"`
	Down      float64  `json:"down"`
	Ladder    string   `json:"ladder"`
	MaxLevel  int      `json:"max_level"`
	Pace      string   `json:"pace"`
	Score     string   `json:"score"`
	Lambda    float64  `json:"lambda"`
	// QLearning is there when an examinee is Q-learning.
	QLearning *qSettings `json:"qlearning,omitempty"`
}

// adaptiveHead is what every JSON line of the test carries: what decided
// it.
type adaptiveHead struct {
	Version  string           `json:"version"`
	Kind     string           `json:"kind"` // "adaptive-step" or "adaptive-result"
	Agent    string           `json:"agent"`
	Seed     uint64           `json:"seed"`
	Settings adaptiveSettings `json:"settings"`
}

// adaptiveStep is one environment of the trajectory, one JSON line.
type adaptiveStep struct {
	adaptiveHead
	Step         int      `json:"step"`
	Environment  string   `json:"environment"`
	Level        int      `json:"level"`
	Cells        int      `json:"cells"`
	Actions      int      `json:"actions"`
	KApprox      int      `json:"k_approx"`
	Bits         float64  `json:"bits"`
	Start        float64  `json:"start"`
	Time         float64  `json:"time"`
	Interactions int      `json:"interactions"`
	Stopped      bool     `json:"stopped"`
	Horizon      int      `json:"horizon,omitempty"`
	Score        float64  `json:"score"`
	Estimate     float64  `json:"estimate"`
	SE           *float64 `json:"se"`
}

// adaptiveResult is an examinee's final score, one JSON line after its
// steps.
type adaptiveResult struct {
	adaptiveHead
	Score float64  `json:"score"`
	SE    *float64 `json:"se"`
	// Low and High bound the score's 95% interval (exam.AdaptiveResult),
	// null as se is.
	Low          *float64 `json:"low"`
	High         *float64 `json:"high"`
	Environments int      `json:"environments"`
	MeanLevel    float64  `json:"mean_level"`
	TimeUsed     float64  `json:"time_used"`
	Unused       float64  `json:"unused"`
	// Fault says why the agent's test stopped early (optimal could not
	// plan the next environment); absent when it did not.
	Fault string `json:"fault,omitempty"`
}

// faultOf is why r's test stopped early, empty when it did not.
func faultOf(r exam.AdaptiveResult) string {
	if r.Fault == nil {
		return ""
	}
	return r.Fault.Error()
}

// se is a standard error for JSON: null below two environments, where the
// spread is unknown.
func se(v float64, n int) *float64 {
	if n < 2 {
		return nil
	}
	return &v
}

// writeAdaptiveReport writes the adaptive test's results in the form
// asked for: the HTML page with --html, then JSON lines, CSV or the text.
func writeAdaptiveReport(io *stdio, fl adaptiveFlags, s exam.AdaptiveSettings, seed uint64, form adaptiveForm, results []exam.AdaptiveResult) error {
	if fl.settings.Ladder != nil { // a pool's
		warnNeverUp(io, results, s.Up)
	}
	ladder := s.Ladder
	levels := ladder.Levels()
	set := adaptiveSettings{s.Tau, s.First, s.Growth, maxTime(s.Longest), s.Up, s.Down, ladder.String(), levels, s.Pace.String(), string(s.Score), s.Lambda, fl.qlearning}
	longest := "with no cap"
	if set.MaxTime != nil {
		longest = fmt.Sprintf("up to %g s", s.Longest)
	}
	header := fmt.Sprintf("adaptive anytime test (anynt %s), seed %d: test time %g s, environments of %g s + %g s each %s, up at %g, down below %g, ladder %s, pace %s, payoff %s, lambda %g",
		versionString(), seed, s.Tau, s.First, s.Growth, longest, s.Up, s.Down, ladder, s.Pace, s.Score, s.Lambda)
	var qline string
	if q := fl.qlearning; q != nil {
		qline = fmt.Sprintf("qlearning: alpha %g, gamma %g, q0 %g", q.Alpha, q.Gamma, q.Q0)
	}
	if fl.html != "" {
		page := &report.Adaptive{Title: header, Settings: qline, Seed: seed, Agents: fl.agents, Results: results}
		var b bytes.Buffer
		if err := page.WriteHTML(&b); err != nil {
			return err
		}
		if err := writeSource(fl.html, b.Bytes()); err != nil {
			return err
		}
	}
	switch form {
	case adaptiveJSONLines:
		return writeAdaptiveJSON(io, results, set)
	case adaptiveCSV:
		return writeAdaptiveCSV(io, results, set, seed)
	}
	fmt.Fprintln(io.out, header)
	if qline != "" {
		fmt.Fprintln(io.out, qline)
	}
	for _, r := range results {
		fmt.Fprintf(io.out, "\n%s\n", r.Agent)
		tw := tabwriter.NewWriter(io.out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "step\tlevel\tcells\tactions\tK_approx\tbits\tstart\ttime\tinteractions\tscore\testimate\tse\tenvironment\t")
		for _, st := range r.Steps {
			stop := ""
			if st.Stopped {
				stop = " (stopped)"
			}
			if st.Horizon > 0 {
				stop += fmt.Sprintf(" (horizon %d)", st.Horizon)
			}
			fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%.0f\t%g\t%g\t%d%s\t%+.4f\t%+.4f\t%s\t%s\t\n", st.Number, st.Level, st.Cells, st.Actions, st.KApprox,
				st.Bits, st.Start, st.Time, st.Interactions, stop, st.Score, st.Estimate, seText(st.SE, st.Number), st.Name)
		}
		if err := tw.Flush(); err != nil {
			return ioFailure(err)
		}
		used := s.Tau - r.Unused
		fmt.Fprintf(io.out, "%s: score %+.4f ± %s (standard error), 95%% interval %s, over %s in %g s of %g; mean level %.2f\n",
			r.Agent, r.Score, seText(r.SE, len(r.Steps)), intervalText(r), count(len(r.Steps), "environment"), used, s.Tau, r.MeanLevel)
		if r.Fault != nil {
			fmt.Fprintf(io.out, "%s: its test stopped early: %v\n", r.Agent, r.Fault)
		}
	}
	fmt.Fprintf(io.out, "\nscore: the mean over the environments of level/%d × the environment's payoff, from -1 to 1; a random agent scores 0 in expectation; the estimate at a step is the score had the test stopped there\n", levels)
	return nil
}

// warnNeverUp warns when no examinee's payoff reached up in any
// environment of a pool's ladder: every staircase then stayed at level 1,
// and the levels told the examinees nothing. Λ_one's rewards are ±1 each
// interaction, and the thresholds are set for them; the class's trace
// rewards, which halve as they age, keep even the oracle near 0.2 to 0.3.
func warnNeverUp(io *stdio, results []exam.AdaptiveResult, up float64) {
	best, n := math.Inf(-1), 0
	for _, r := range results {
		for _, st := range r.Steps {
			best = max(best, st.Score)
		}
		n += len(r.Steps)
	}
	if n == 0 || best >= up {
		return
	}
	fmt.Fprintf(io.err, "anynt: warning: --adaptive: no payoff reached --up %g in the %s given (the best was %+.4f), so every examinee stayed at level 1 and the levels cannot tell them apart; if the pool's rewards are not ±1 each interaction (trace rewards halve as they age), choose --up and --down on their scale (docs/tests.md, \"A ladder cut from a pool\")\n",
		up, count(n, "environment"), best)
}

// maxTime is the longest an environment is given, for JSON: nil for no
// cap, which JSON cannot write as a number.
func maxTime(longest float64) *float64 {
	if math.IsInf(longest, 1) {
		return nil
	}
	return &longest
}

// intervalText is the score's 95% interval, which is not score ± 1.96 se
// (docs/tests.md, "How sure the score is").
func intervalText(r exam.AdaptiveResult) string {
	if len(r.Steps) < 2 {
		return "n/a"
	}
	return fmt.Sprintf("[%+.4f, %+.4f]", r.Low, r.High)
}

func seText(v float64, n int) string {
	if n < 2 {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", v)
}

// adaptiveCSVHeader names the columns of the adaptive test's CSV: what
// decided the test, then one step of one agent's trajectory.
var adaptiveCSVHeader = []string{"version", "seed", "test_time", "first_time", "time_step", "max_time", "up", "down", "ladder", "max_level",
	"pace", "score_payoff", "lambda", "alpha", "gamma", "q0", "agent", "step", "environment", "level", "cells", "actions",
	"k_approx", "bits", "start", "time", "interactions", "stopped", "score", "estimate", "se", "horizon"}

// writeAdaptiveCSV writes a row for each step of each agent, the version
// and the settings in every row as the test report's CSV does
// (docs/reports.md); a standard error of fewer than two environments is
// an empty field, as is the horizon of a step not planned within one, and
// a max_time of no cap is inf.
func writeAdaptiveCSV(io *stdio, results []exam.AdaptiveResult, set adaptiveSettings, seed uint64) error {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	d := strconv.Itoa
	q := []string{"", "", ""}
	if set.QLearning != nil {
		q = []string{g(set.QLearning.Alpha), g(set.QLearning.Gamma), g(set.QLearning.Q0)}
	}
	maxTimeText := "inf"
	if set.MaxTime != nil {
		maxTimeText = g(*set.MaxTime)
	}
	cw := csv.NewWriter(io.out)
	if err := cw.Write(adaptiveCSVHeader); err != nil {
		return ioFailure(err)
	}
	for _, r := range results {
		agentQ := []string{"", "", ""}
		if r.Agent == "qlearning" {
			agentQ = q
		}
		for _, st := range r.Steps {
			se, horizon := "", ""
			if st.Number >= 2 {
				se = g(st.SE)
			}
			if st.Horizon > 0 {
				horizon = d(st.Horizon)
			}
			row := []string{versionString(), strconv.FormatUint(seed, 10), g(set.TestTime), g(set.FirstTime), g(set.TimeStep), maxTimeText,
				g(set.Up), g(set.Down), set.Ladder, d(set.MaxLevel), set.Pace, set.Score, g(set.Lambda), agentQ[0], agentQ[1], agentQ[2],
				r.Agent, d(st.Number), st.Name, d(st.Level), d(st.Cells), d(st.Actions), d(st.KApprox), g(st.Bits), g(st.Start),
				g(st.Time), d(st.Interactions), strconv.FormatBool(st.Stopped), g(st.Score), g(st.Estimate), se, horizon}
			if err := cw.Write(row); err != nil {
				return ioFailure(err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return ioFailure(err)
	}
	return nil
}

func writeAdaptiveJSON(io *stdio, results []exam.AdaptiveResult, set adaptiveSettings) error {
	for _, r := range results {
		for _, st := range r.Steps {
			if err := writeJSON(io.out, adaptiveStep{adaptiveHead: adaptiveHead{versionString(), "adaptive-step", r.Agent, r.Seed, set},
				Step: st.Number, Environment: st.Name, Level: st.Level, Cells: st.Cells, Actions: st.Actions, KApprox: st.KApprox, Bits: st.Bits,
				Start: st.Start, Time: st.Time, Interactions: st.Interactions, Stopped: st.Stopped, Horizon: st.Horizon, Score: st.Score,
				Estimate: st.Estimate, SE: se(st.SE, st.Number)}); err != nil {
				return ioFailure(err)
			}
		}
		if err := writeJSON(io.out, adaptiveResult{adaptiveHead: adaptiveHead{versionString(), "adaptive-result", r.Agent, r.Seed, set},
			Score: r.Score, SE: se(r.SE, len(r.Steps)), Low: se(r.Low, len(r.Steps)), High: se(r.High, len(r.Steps)), Environments: len(r.Steps), MeanLevel: r.MeanLevel,
			TimeUsed: set.TestTime - r.Unused, Unused: r.Unused, Fault: faultOf(r)}); err != nil {
			return ioFailure(err)
		}
	}
	return nil
}
