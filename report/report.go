package report

import (
	"errors"
	"fmt"
	"slices"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/cores"
)

// Protocol says what kind of test the items come from, as far as the
// report needs to know.
type Protocol struct {
	Name string // lambda-one, battery, …
	// Complexity names the figure in exam.Item.Complexity: K_approx for
	// Λ_one, bits for a battery.
	Complexity string
	Strata     Strata
	// Settings names the protocol's own settings, those that drew its
	// items beyond the seed and the tests (a battery's files or generator,
	// weighting, sample and steps), so that the report says how to draw
	// them again; empty when there is none.
	Settings string
}

// Strata is how the items are grouped for the per-stratum figures.
type Strata string

const (
	// ByCells makes one stratum of each number of cells n_c, as Table 2 and
	// Fig. 4 (left) of Insa-Cabrera et al. (2011) do.
	ByCells Strata = "cells"
	// ByComplexity makes up to five bins of whole units of complexity
	// holding about equal numbers of items (docs/reports.md).
	ByComplexity Strata = "complexity"
)

// Agent is an examinee as the report names it: Outcome.Agent, and the
// settings that decided its behaviour.
type Agent struct {
	Name string
	// QLearning holds the settings of a Q-learning agent; nil for an agent
	// that has none.
	QLearning *agent.Settings
	// Settings are a learner's settings (agent.SpecSettings), defaults
	// included; nil for an agent whose settings are not in its spec.
	Settings []agent.Setting
	// Command is the command line of an agent outside anynt (anynt test
	// --agent-cmd), empty for a built-in agent.
	Command string
	// Batch is the number of items an agent outside anynt took at once
	// (--agent-batch, docs/protocol.md, Batches), each of its response
	// times a round's; 0 or 1 for one at a time.
	Batch int
}

// AgentOf names agent name (a spec, agent.Lookup) with the settings that
// decide its behaviour: s for Q-learning, the spec's for a learner that
// takes them there, as the report prints them.
func AgentOf(name string, s agent.Settings) Agent {
	a := Agent{Name: name, Settings: agent.SpecSettings(name)}
	if name == "qlearning" {
		a.QLearning = &s
	}
	return a
}

// Input is everything a report is built from: the test (its items, how
// it was given, its seed) and what the examinees did on it.
type Input struct {
	Version  string
	Protocol Protocol
	Seed     uint64
	Tests    int
	Settings exam.Settings
	Agents   []Agent
	Items    []exam.Item
	// Outcomes are exam.Take's: examinee by examinee in the order of
	// Agents, item by item in the order of Items.
	Outcomes []exam.Outcome
	// Bounds are the items' scales (exam.Bounds), one an item in the order
	// of Items, or none: then the report has no normalised scores.
	Bounds []exam.Bound
}

// Report is a test's figures, computed once and written as text, CSV,
// JSON or HTML.
type Report struct {
	Input
	Strata    []Stratum
	Summaries []Summary // one an agent, in the order of Agents
	// Ranking orders the agents, the best first (Rank).
	Ranking []Rank
	scaled  []int // Scaled
}

// Stratum is a group of items.
type Stratum struct {
	Label string // "3" for 3 cells, "12–17" for a bin of complexity
	Items []int  // indices into Items
}

// Summary holds one agent's figures over the whole test.
type Summary struct {
	Agent Agent
	N     int
	Mean  float64
	SD    float64 // the sample standard deviation of the item scores
	CI95  [2]float64
	// TestSD is the sample standard deviation of the tests' mean scores (the
	// items of one Item.Test), NaN with one test: the spread between
	// examinees in the design of Insa-Cabrera et al. (2011), where each test
	// went to one person.
	TestSD float64
	// Corr is Pearson's r between item score and complexity.
	Corr   Correlation
	Strata []StratumFigures // in the order of Report.Strata
	// Payoffs are the means over the items of every payoff at τ; its Tau
	// is 0, since the items' τ may differ.
	Payoffs aggregate.Values
	// Curve is the mean over the items of the payoffs at each curve point:
	// point k is at the fraction (k+1)/CurvePoints of each item's τ, which
	// its Tau holds.
	Curve []aggregate.Values
	// Stopped counts the episodes the agent stopped before its steps.
	Stopped int
	// Times sums the measured response times of an agent outside anynt,
	// zero for a built-in one; Faults counts the items it faulted in, Cut
	// the episodes τ ended before their steps.
	Times  exam.Times
	Faults int
	Cut    int
	// Paired compares the agent with the first one, item by item; nil for
	// the first agent.
	Paired *Paired
	// Paper is the figures of Insa-Cabrera et al. (2011) for this agent, when
	// its test and settings were the paper's; nil otherwise.
	Paper *PaperFigures
	// Normalised are its figures on the items' scales; nil when the
	// report has no bounds.
	Normalised *Normalised
}

// StratumFigures are an agent's figures over one stratum.
type StratumFigures struct {
	N    int
	Mean float64
	SD   float64
	CI95 [2]float64
	Corr Correlation
}

// ErrOutcomes is New's error when the outcomes do not match the items and
// agents they are said to come from.
var ErrOutcomes = errors.New("the outcomes do not match the items and agents")

// New computes the figures of a test. The agents' summaries are computed
// on all cores, each into its own slot, so they do not depend on the
// number of cores (docs/tests.md, "On all cores").
func New(in Input) (*Report, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	r := &Report{Input: in, Strata: strata(in.Items, in.Protocol.Strata)}
	base := in.scores(0)
	r.Summaries = make([]Summary, len(in.Agents))
	r.scaled = in.scaledItems()
	cores.Do(len(in.Agents), func(a int) {
		r.Summaries[a] = in.summary(a, base, r.Strata)
		if in.hasScale() {
			r.Summaries[a].Normalised = in.normalise(a, r.scaled)
		}
	}, nil)
	r.Ranking = r.rank()
	return r, nil
}

// summary computes agent a's figures; base holds the first agent's scores,
// from which the paired differences are taken.
func (in Input) summary(a int, base []float64, strata []Stratum) Summary {
	ag := in.Agents[a]
	scores := in.scores(a)
	s := summarize(ag, scores, in.complexities(), strata)
	s.TestSD = testSD(in.Items, scores)
	outs := in.Outcomes[a*len(in.Items) : (a+1)*len(in.Items)]
	s.Payoffs, s.Curve, s.Stopped = meanValues(outs)
	for _, o := range outs {
		s.Times.Merge(o.Times)
		s.Cut += o.Cut
		if o.Fault != nil {
			s.Faults++
		}
	}
	if a > 0 {
		s.Paired = pair(in.Agents[0].Name, base, scores)
	}
	s.Paper = paperFigures(in.Protocol.Name, ag)
	return s
}

func (in Input) check() error {
	switch {
	case len(in.Items) == 0 || len(in.Agents) == 0:
		return fmt.Errorf("%w: no items or no agents", ErrOutcomes)
	case len(in.Outcomes) != len(in.Items)*len(in.Agents):
		return fmt.Errorf("%w: %d outcomes for %d items × %d agents", ErrOutcomes, len(in.Outcomes), len(in.Items), len(in.Agents))
	case len(in.Bounds) != 0 && len(in.Bounds) != len(in.Items):
		return fmt.Errorf("%w: %d bounds for %d items", ErrOutcomes, len(in.Bounds), len(in.Items))
	case in.Protocol.Strata != ByCells && in.Protocol.Strata != ByComplexity:
		return fmt.Errorf("no strata %q (cells or complexity)", in.Protocol.Strata)
	}
	for k, o := range in.Outcomes {
		a, i := k/len(in.Items), k%len(in.Items)
		if o.Item != i || o.Agent != in.Agents[a].Name || len(o.Curve) != in.Settings.CurvePoints {
			return fmt.Errorf("%w: outcome %d is item %d of %s with %d curve points, not item %d of %s with %d",
				ErrOutcomes, k, o.Item, o.Agent, len(o.Curve), i, in.Agents[a].Name, in.Settings.CurvePoints)
		}
	}
	for i, ag := range in.Agents {
		if slices.ContainsFunc(in.Agents[:i], func(b Agent) bool { return b.Name == ag.Name }) {
			return fmt.Errorf("agent %s is named twice: paired figures need one name an examinee", ag.Name)
		}
	}
	return nil
}

// scores are agent a's item scores, in the order of the items.
func (in Input) scores(a int) []float64 {
	out := make([]float64, len(in.Items))
	for i := range out {
		out[i] = in.Outcomes[a*len(in.Items)+i].Score
	}
	return out
}

func (in Input) complexities() []float64 {
	out := make([]float64, len(in.Items))
	for i, it := range in.Items {
		out[i] = it.Complexity
	}
	return out
}

func summarize(ag Agent, scores, complexity []float64, strata []Stratum) Summary {
	s := Summary{Agent: ag, N: len(scores)}
	s.Mean, s.SD, s.CI95 = describe(scores)
	s.Corr = correlate(scores, complexity)
	for _, st := range strata {
		xs, cs := pick(scores, st.Items), pick(complexity, st.Items)
		f := StratumFigures{N: len(xs), Corr: correlate(xs, cs)}
		f.Mean, f.SD, f.CI95 = describe(xs)
		s.Strata = append(s.Strata, f)
	}
	return s
}

// testSD is the sample standard deviation of the mean score of each test.
func testSD(items []exam.Item, scores []float64) float64 {
	var tests []int
	sums := map[int]float64{}
	counts := map[int]int{}
	for i, it := range items {
		if counts[it.Test] == 0 {
			tests = append(tests, it.Test)
		}
		sums[it.Test] += scores[i]
		counts[it.Test]++
	}
	means := make([]float64, len(tests))
	for k, t := range tests {
		means[k] = sums[t] / float64(counts[t])
	}
	_, sd, _ := describe(means)
	return sd
}

func pick(xs []float64, idx []int) []float64 {
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = xs[i]
	}
	return out
}

// meanValues averages the payoffs at τ and the curves over the items.
func meanValues(outs []exam.Outcome) (at aggregate.Values, curve []aggregate.Values, stopped int) {
	var atTau aggregate.Average
	points := make([]aggregate.Average, len(outs[0].Curve))
	for _, o := range outs {
		atTau.Add(o.Values)
		for k, v := range o.Curve {
			points[k].Add(v)
		}
		stopped += o.Stopped
	}
	curve = make([]aggregate.Values, len(points))
	for k := range points {
		curve[k] = points[k].Values()
		curve[k].Tau = float64(k+1) / float64(len(curve))
	}
	return atTau.Values(), curve, stopped
}
