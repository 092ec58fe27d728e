package report

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"strconv"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/exam"
)

// number is a figure in JSON: null when it is NaN or infinite, which JSON
// cannot hold and which here means "cannot be computed".
type number float64

func (x number) MarshalJSON() ([]byte, error) {
	f := float64(x)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

// jsonSettings are the settings every JSON object carries.
type jsonSettings struct {
	Episodes    int     `json:"episodes"`
	Pace        string  `json:"pace"`
	Tau         float64 `json:"tau"`
	Lambda      float64 `json:"lambda"`
	Score       string  `json:"score"`
	CurvePoints int     `json:"curve_points"`
	Protocol    string  `json:"protocol_settings,omitempty"`
}

// jsonHead is what decided every figure: the tool, the test, the agent.
type jsonHead struct {
	Kind      string       `json:"kind"` // item or summary
	Version   string       `json:"version"`
	Protocol  string       `json:"protocol"`
	Seed      uint64       `json:"seed"`
	Tests     int          `json:"tests"`
	Settings  jsonSettings `json:"settings"`
	Agent     string       `json:"agent"`
	QLearning *jsonQ       `json:"qlearning,omitempty"`
	// AgentSettings are a learner's settings, defaults included
	// (agent.SpecSettings), by key.
	AgentSettings map[string]float64 `json:"agent_settings,omitempty"`
	Command       string             `json:"agent_cmd,omitempty"`
	Batch         int                `json:"agent_batch,omitempty"` // above 1 only
	Complexity    string             `json:"complexity_measure"`
}

type jsonQ struct {
	Alpha float64 `json:"alpha"`
	Gamma float64 `json:"gamma"`
	Q0    float64 `json:"q0"`
}

type jsonItem struct {
	jsonHead
	Test         int                `json:"test"`
	Exercise     int                `json:"exercise"`
	Name         string             `json:"name"`
	Cells        int                `json:"cells"`
	KApprox      *int               `json:"k_approx"` // null when Good and Evil run a program
	Bits         float64            `json:"bits"`
	Complexity   float64            `json:"complexity"`
	Interactions int                `json:"interactions"`
	ItemSeed     uint64             `json:"item_seed"`
	Tau          float64            `json:"tau"`
	Score        float64            `json:"score"`
	CI95         *[2]float64        `json:"ci95"`
	Scores       []float64          `json:"scores"`
	Values       aggregate.Values   `json:"values"`
	AtEnd        aggregate.Values   `json:"values_at_end"`
	Curve        []aggregate.Values `json:"curve"`
	Stopped      int                `json:"stopped"`
	Times        *jsonTimes         `json:"response_times,omitempty"`
	Fault        string             `json:"fault,omitempty"`
	Horizon      int                `json:"horizon,omitempty"`
	*jsonScale
}

// jsonScale is an item's scale in JSON (exam.Bound), present when the
// report has bounds: the figures are null when the item has none, and
// scale_error says why.
type jsonScale struct {
	Optimum        number  `json:"optimum"`
	OptimumHorizon int     `json:"optimum_horizon,omitempty"`
	Random         number  `json:"random_expected"`
	RandomPlays    int     `json:"random_plays,omitempty"`
	RandomSE       *number `json:"random_se,omitempty"`
	Normalised     number  `json:"normalised"`
	Error          string  `json:"scale_error,omitempty"`
}

// scaleOf is item i's scale for outcome o, nil without bounds.
func (r *Report) scaleOf(i int, o exam.Outcome) *jsonScale {
	if !r.hasScale() {
		return nil
	}
	b := r.Bounds[i]
	if b.Err != nil {
		return &jsonScale{Optimum: number(math.NaN()), Random: number(math.NaN()), Normalised: number(math.NaN()), Error: b.Err.Error()}
	}
	sc := &jsonScale{Optimum: number(b.Optimum), OptimumHorizon: b.Horizon, Random: number(b.Random), Normalised: number(b.Normalised(o.Score))}
	if b.RandomPlays > 0 {
		se := number(b.RandomSE)
		sc.RandomPlays, sc.RandomSE = b.RandomPlays, &se
	}
	return sc
}

// jsonNormalised are an agent's normalised figures in JSON, with its rank.
type jsonNormalised struct {
	N    int         `json:"n"`
	Mean number      `json:"mean"`
	SD   number      `json:"sd"`
	CI95 *[2]float64 `json:"ci95"`
}

// kApproxJSON is K_approx in JSON, null for an environment whose Good and
// Evil run a program (exam.Item.KApprox 0).
func kApproxJSON(k int) *int {
	if k == 0 {
		return nil
	}
	return &k
}

// kApproxCSV is K_approx in CSV, an empty field when there is none.
func kApproxCSV(k int) string {
	if k == 0 {
		return ""
	}
	return strconv.Itoa(k)
}

// jsonTimes are the measured response times of an agent outside anynt.
type jsonTimes struct {
	Actions int     `json:"actions"`
	Mean    float64 `json:"mean_seconds"`
	Max     float64 `json:"max_seconds"`
	// CutByTau counts the episodes an answer after τ ended before their
	// steps: the answers counted are then fewer than the interactions.
	CutByTau int `json:"cut_by_tau"`
}

// timesOf gives the response times of an agent outside anynt for JSON,
// with the episodes τ cut, nil for a built-in agent (which is not timed).
func timesOf(a Agent, t exam.Times, cut int) *jsonTimes {
	if a.Command == "" {
		return nil
	}
	return &jsonTimes{t.Actions, t.Mean().Seconds(), t.Max.Seconds(), cut}
}

// faultText is a fault's message, empty for none.
func faultText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

type jsonSummary struct {
	jsonHead
	N         int                `json:"n"`
	Mean      number             `json:"mean"`
	SD        number             `json:"sd"`
	TestSD    number             `json:"sd_of_test_means"`
	CI95      *[2]float64        `json:"ci95"`
	R         number             `json:"r"`
	P         number             `json:"p"`
	POne      number             `json:"p_one_tailed"`
	StrataBy  string             `json:"strata_by"`
	Strata    []jsonStratum      `json:"strata"`
	Payoffs   aggregate.Values   `json:"payoffs"`
	Curve     []aggregate.Values `json:"curve"`
	Stopped   int                `json:"stopped"`
	Times     *jsonTimes         `json:"response_times,omitempty"`
	Faults    *int               `json:"faults,omitempty"`
	Paired    *jsonPaired        `json:"paired,omitempty"`
	Published *PaperFigures      `json:"published,omitempty"`
	// Normalised is absent without bounds; Rank is the agent's place in
	// the ranking (Report.Ranking), from 1, and AgainstNext its paired
	// difference from the agent ranked next, absent for the last.
	Normalised  *jsonNormalised `json:"normalised,omitempty"`
	Rank        int             `json:"rank"`
	AgainstNext *jsonPaired     `json:"against_next,omitempty"`
}

type jsonStratum struct {
	Label string      `json:"label"`
	N     int         `json:"n"`
	Mean  number      `json:"mean"`
	SD    number      `json:"sd"`
	CI95  *[2]float64 `json:"ci95"`
	R     number      `json:"r"`
	P     number      `json:"p"`
	POne  number      `json:"p_one_tailed"`
}

type jsonPaired struct {
	Against string      `json:"against"`
	N       int         `json:"n"`
	Mean    number      `json:"mean_difference"`
	CI95    *[2]float64 `json:"ci95"`
	P       number      `json:"p"`
}

// interval is a 95% interval for JSON: null when it is unavailable (fewer
// than two values give no estimate of the spread).
func interval(ci [2]float64, n int) *[2]float64 {
	if n < 2 {
		return nil
	}
	return &ci
}

func (r *Report) head(kind string, a Agent) jsonHead {
	s := r.Settings
	h := jsonHead{Kind: kind, Version: r.Version, Protocol: r.Protocol.Name, Seed: r.Seed, Tests: r.Tests, Agent: a.Name,
		Complexity: r.Protocol.Complexity,
		Settings: jsonSettings{Episodes: s.Episodes, Pace: s.Pace.String(), Tau: s.Tau, Lambda: s.Lambda,
			Score: string(s.Score), CurvePoints: s.CurvePoints, Protocol: r.Protocol.Settings}}
	if q := a.QLearning; q != nil {
		h.QLearning = &jsonQ{q.Alpha, q.Gamma, q.Q0}
	}
	if len(a.Settings) > 0 {
		h.AgentSettings = map[string]float64{}
		for _, s := range a.Settings {
			h.AgentSettings[s.Key] = s.Value
		}
	}
	h.Command = a.Command
	if a.Batch > 1 {
		h.Batch = a.Batch
	}
	return h
}

// WriteJSON writes one JSON object a line (docs/output.md): one of kind
// "item" for each agent and item, agent by agent, then one of kind
// "summary" for each agent. Every object carries the version, the test's
// seed and settings and the agent's.
func (r *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for a, ag := range r.Agents {
		for i, it := range r.Items {
			o := r.Outcomes[a*len(r.Items)+i]
			if err := enc.Encode(jsonItem{jsonHead: r.head("item", ag), Test: it.Test, Exercise: it.Number, Name: it.Name,
				Cells: it.Cells, KApprox: kApproxJSON(it.KApprox), Bits: it.Bits, Complexity: it.Complexity, Interactions: it.Steps,
				ItemSeed: it.Seed, Tau: o.Tau, Score: o.Score, CI95: interval(o.CI95, len(o.Scores)), Scores: o.Scores,
				Values: o.Values, AtEnd: o.AtEnd, Curve: o.Curve, Stopped: o.Stopped, Times: timesOf(ag, o.Times, o.Cut), Fault: faultText(o.Fault), Horizon: o.Horizon,
				jsonScale: r.scaleOf(i, o)}); err != nil {
				return err
			}
		}
	}
	for a, s := range r.Summaries {
		if err := enc.Encode(r.jsonSummary(a, s)); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func (r *Report) jsonSummary(a int, s Summary) jsonSummary {
	js := jsonSummary{jsonHead: r.head("summary", s.Agent), N: s.N, Mean: number(s.Mean), SD: number(s.SD),
		TestSD: number(s.TestSD), CI95: interval(s.CI95, s.N), R: number(s.Corr.R), P: number(s.Corr.P), POne: number(s.Corr.POne),
		StrataBy: string(r.Protocol.Strata), Payoffs: s.Payoffs, Curve: s.Curve, Stopped: s.Stopped, Published: s.Paper,
		Times: timesOf(s.Agent, s.Times, s.Cut)}
	if s.Agent.Command != "" {
		js.Faults = &s.Faults
	}
	for k, f := range s.Strata {
		js.Strata = append(js.Strata, jsonStratum{Label: r.Strata[k].Label, N: f.N, Mean: number(f.Mean), SD: number(f.SD),
			CI95: interval(f.CI95, f.N), R: number(f.Corr.R), P: number(f.Corr.P), POne: number(f.Corr.POne)})
	}
	if p := s.Paired; p != nil {
		js.Paired = &jsonPaired{Against: p.Against, N: p.N, Mean: number(p.Mean), CI95: interval(p.CI95, p.N), P: number(p.P)}
	}
	if n := s.Normalised; n != nil {
		js.Normalised = &jsonNormalised{N: n.N, Mean: number(n.Mean), SD: number(n.SD), CI95: interval(n.CI95, n.N)}
	}
	for k, rk := range r.Ranking {
		if rk.Agent != a {
			continue
		}
		js.Rank = k + 1
		if p := rk.Next; p != nil {
			js.AgainstNext = &jsonPaired{Against: p.Against, N: p.N, Mean: number(p.Mean), CI95: interval(p.CI95, p.N), P: number(p.P)}
		}
	}
	return js
}

// csvHeader names the columns of WriteCSV: the settings first, so that
// every row says what decided it, then the item, then the outcome.
var csvHeader = []string{
	"version", "protocol", "seed", "tests", "episodes", "pace", "tau_setting", "lambda", "score_payoff", "curve_points",
	"protocol_settings", "agent", "alpha", "gamma", "q0",
	"test", "exercise", "name", "cells", "k_approx", "bits", "complexity", "interactions", "item_seed",
	"tau", "score", "ci95_low", "ci95_high", "count", "sum", "per_second", "per_cycle", "discounted", "diminishing", "stopped",
	"agent_cmd", "response_actions", "response_mean_seconds", "response_max_seconds", "response_cut_by_tau", "fault",
	"optimum", "random_expected", "normalised", "optimum_horizon", "random_plays", "random_se", "horizon",
}

// WriteCSV writes a header row and one row for each agent and item. The
// version and the settings are columns of every row, not a comment line,
// so that any CSV reader keeps them with the figures. A figure that
// cannot be computed (the interval of one episode, Q-learning's settings
// for another agent) is an empty field.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	s := r.Settings
	u := func(x uint64) string { return strconv.FormatUint(x, 10) }
	d := strconv.Itoa
	for a, ag := range r.Agents {
		q := []string{"", "", ""}
		if ag.QLearning != nil {
			q = []string{g(ag.QLearning.Alpha), g(ag.QLearning.Gamma), g(ag.QLearning.Q0)}
		}
		for i, it := range r.Items {
			o := r.Outcomes[a*len(r.Items)+i]
			lo, hi := "", ""
			if len(o.Scores) >= 2 {
				lo, hi = g(o.CI95[0]), g(o.CI95[1])
			}
			row := []string{r.Version, r.Protocol.Name, u(r.Seed), d(r.Tests), d(s.Episodes), s.Pace.String(), g(s.Tau), g(s.Lambda),
				string(s.Score), d(s.CurvePoints), r.Protocol.Settings, ag.Name, q[0], q[1], q[2],
				d(it.Test), d(it.Number), it.Name, d(it.Cells), kApproxCSV(it.KApprox), g(it.Bits), g(it.Complexity), d(it.Steps), u(it.Seed),
				g(o.Tau), g(o.Score), lo, hi, d(o.Values.Count)}
			for _, v := range payoffsOf(o.Values) {
				row = append(row, g(v))
			}
			row = append(row, d(o.Stopped), ag.Command)
			if t := timesOf(ag, o.Times, o.Cut); t != nil {
				row = append(row, d(t.Actions), g(t.Mean), g(t.Max), d(t.CutByTau))
			} else {
				row = append(row, "", "", "", "")
			}
			row = append(row, faultText(o.Fault))
			scale := []string{"", "", "", "", "", ""} // optimum … random_se
			if sc := r.scaleOf(i, o); sc != nil {
				for k, x := range []number{sc.Optimum, sc.Random, sc.Normalised} {
					if f := float64(x); !math.IsNaN(f) {
						scale[k] = g(f)
					}
				}
				if sc.OptimumHorizon > 0 {
					scale[3] = d(sc.OptimumHorizon)
				}
				if sc.RandomSE != nil {
					scale[4], scale[5] = d(sc.RandomPlays), g(float64(*sc.RandomSE))
				}
			}
			row = append(row, scale...)
			row = append(row, "")
			if o.Horizon > 0 {
				row[len(row)-1] = d(o.Horizon)
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}
