package report_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"gonum.org/v1/gonum/stat"
)

var lambdaOne = report.Protocol{Name: "lambda-one", Complexity: "K_approx", Strata: report.ByCells}

// input gives tests Λ_one tests of seed 7 to the named agents, with the
// thesis's Q-learning settings.
func input(t testing.TB, tests int, s exam.Settings, names ...string) report.Input {
	t.Helper()
	items, err := exam.LambdaOneItems(7, tests, "test")
	if err != nil {
		t.Fatal(err)
	}
	in := report.Input{Version: "9.9.9-test", Protocol: lambdaOne, Seed: 7, Tests: tests, Settings: s, Items: items}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		in.Agents = append(in.Agents, report.AgentOf(n, agent.DefaultSettings))
	}
	in.Outcomes, err = exam.Take(items, xs, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func build(t testing.TB, in report.Input) *report.Report {
	t.Helper()
	r, err := report.New(in)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The summary's figures are those of the outcomes' scores: the mean and sd
// over the items, the strata's means, and r against complexity.
func TestSummaryFiguresComeFromTheScores(t *testing.T) {
	in := input(t, 3, exam.DefaultSettings, "random", "qlearning")
	r := build(t, in)
	n := len(in.Items)
	for a, s := range r.Summaries {
		var scores, cx []float64
		for i := range n {
			scores = append(scores, in.Outcomes[a*n+i].Score)
			cx = append(cx, in.Items[i].Complexity)
		}
		mean, sd := stat.MeanStdDev(scores, nil)
		if s.N != n || math.Abs(s.Mean-mean) > 1e-12 || math.Abs(s.SD-sd) > 1e-12 {
			t.Errorf("%s: n %d mean %v sd %v, want %d %v %v", s.Agent.Name, s.N, s.Mean, s.SD, n, mean, sd)
		}
		if r := stat.Correlation(cx, scores, nil); math.Abs(s.Corr.R-r) > 1e-12 {
			t.Errorf("%s: r %v, want %v", s.Agent.Name, s.Corr.R, r)
		}
		var testMeans []float64
		for k := range 3 {
			testMeans = append(testMeans, stat.Mean(scores[7*k:7*k+7], nil))
		}
		if sd := stat.StdDev(testMeans, nil); math.Abs(s.TestSD-sd) > 1e-12 {
			t.Errorf("%s: sd of test means %v, want %v", s.Agent.Name, s.TestSD, sd)
		}
		if !(s.CI95[0] < s.Mean && s.Mean < s.CI95[1]) {
			t.Errorf("%s: interval %v does not hold the mean %v", s.Agent.Name, s.CI95, s.Mean)
		}
		// Λ_one's strata are the seven cell counts, each with one item a test.
		if len(r.Strata) != 7 || len(s.Strata) != 7 {
			t.Fatalf("%d strata, want 7", len(r.Strata))
		}
		for k, st := range r.Strata {
			var sum float64
			for _, i := range st.Items {
				sum += scores[i]
				if got := in.Items[i].Cells; st.Label != strconv.Itoa(got) {
					t.Errorf("item %d of %d cells in stratum %s", i, got, st.Label)
				}
			}
			if f := s.Strata[k]; f.N != 3 || math.Abs(f.Mean-sum/3) > 1e-12 {
				t.Errorf("%s, %s cells: n %d mean %v, want 3 and %v", s.Agent.Name, st.Label, f.N, f.Mean, sum/3)
			}
		}
		if (a == 0) != (s.Paired == nil) {
			t.Errorf("%s: paired %v; only agents after the first have one", s.Agent.Name, s.Paired)
		}
	}
	var diff float64
	for i := range n {
		diff += in.Outcomes[n+i].Score - in.Outcomes[i].Score
	}
	if p := r.Summaries[1].Paired; p.Against != "random" || math.Abs(p.Mean-diff/float64(n)) > 1e-12 {
		t.Errorf("paired %+v, want the mean difference %v against random", p, diff/float64(n))
	}
}

// paperSDColumn checks that the summary prints the sd of Insa-Cabrera et al.
// (2011) under "sd of test means", the figure of ours it matches (as the
// README says), and nothing under the items' "sd".
func paperSDColumn(t *testing.T, r *report.Report, sd string) {
	t.Helper()
	var summary report.Table
	for _, tb := range r.Tables() {
		if strings.HasPrefix(tb.Title, "summary") {
			summary = tb
		}
	}
	col := func(name string) int { return slices.Index(summary.Head, name) }
	for _, row := range summary.Rows {
		if !strings.Contains(row[0], "Insa-Cabrera et al. 2011") {
			continue
		}
		if row[col("sd of test means")] != sd || row[col("sd")] != "" {
			t.Errorf("the paper's row: sd %q, sd of test means %q; want its %s under sd of test means", row[col("sd")], row[col("sd of test means")], sd)
		}
		return
	}
	t.Errorf("no row of Insa-Cabrera et al. 2011 in %v", summary.Rows)
}

// The figures of Insa-Cabrera et al. (2011) are printed beside Q-learning's
// only for its test with the thesis's settings.
func TestPaperFiguresOnlyForThePapersTest(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "qlearning")
	r := build(t, in)
	if r.Summaries[0].Paper != nil || r.Summaries[1].Paper == nil || r.Summaries[1].Paper.Mean != 0.259 {
		t.Errorf("paper figures: random %v, qlearning %v", r.Summaries[0].Paper, r.Summaries[1].Paper)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	paperSDColumn(t, r, "0.122")
	for _, want := range []string{"-0.612 (0.002)", "-0.465 (0.019)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	other := in
	q := agent.DefaultSettings
	q.Alpha = 0.5
	other.Agents = []report.Agent{in.Agents[0], {Name: "qlearning", QLearning: &q}}
	if build(t, other).Summaries[1].Paper != nil {
		t.Error("paper figures printed for Q-learning with alpha 0.5")
	}
	other = in
	other.Protocol.Name = "battery"
	if build(t, other).Summaries[1].Paper != nil {
		t.Error("paper figures printed for another protocol")
	}
}

// People (anynt results) get the human figures of Insa-Cabrera et al. (2011)
// beside theirs on Λ_one, and only there.
func TestPaperFiguresOfPeople(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "qlearning")
	in.Agents[0].Name = report.People
	for i := range 7 {
		in.Outcomes[i].Agent = report.People
	}
	r := build(t, in)
	if p := r.Summaries[0].Paper; p == nil || p.Mean != 0.237 || p.TestSD != 0.150 || p.R != -0.257 {
		t.Fatalf("people's paper figures: %+v", p)
	}
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	paperSDColumn(t, r, "0.150")
	for _, want := range []string{"-0.474 (0.017)", "-0.146 (0.270)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	in.Protocol.Name = "battery"
	if build(t, in).Summaries[0].Paper != nil {
		t.Error("people's paper figures printed for another protocol")
	}
}

func TestNewRefusesOutcomesThatDoNotMatch(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "oracle")
	short := in
	short.Outcomes = in.Outcomes[:len(in.Outcomes)-1]
	swapped := in
	swapped.Agents = []report.Agent{in.Agents[1], in.Agents[0]}
	twice := in
	twice.Agents = []report.Agent{in.Agents[0], in.Agents[0]}
	none := in
	none.Items = nil
	for name, bad := range map[string]report.Input{"one outcome short": short, "agents swapped": swapped, "no items": none} {
		if _, err := report.New(bad); !errors.Is(err, report.ErrOutcomes) {
			t.Errorf("%s: error %v, want ErrOutcomes", name, err)
		}
	}
	if _, err := report.New(twice); err == nil {
		t.Error("an agent named twice was accepted")
	}
}

// The text names the version, the test, the seed and every setting, says
// what the chosen payoff, K_approx and bits are, has a row for each item,
// and no interval columns for one episode (they would all be n/a) but
// intervals from two.
func TestTextHeaderTableAndIntervals(t *testing.T) {
	s := exam.DefaultSettings
	s.Pace = exam.Pace{Model: "uniform", A: 0.5, B: 1.5}
	s.Lambda = 0.8
	s.Score = exam.ScorePerCycle
	r := build(t, input(t, 2, s, "random", "qlearning"))
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{"anynt 9.9.9-test", "test lambda-one", "seed 7", "2 tests", "14 items",
		"qlearning (alpha 0.05, gamma 0.35, q0 2)", "1 episode an item", "pace uniform:0.5:1.5", "tau 0", "lambda 0.8",
		"score per-cycle (v‖τ)", "20 curve points", "paired differences against random",
		"v‖τ (per-cycle): the mean reward of the n_τ actions done by τ", "K_approx: the length in bytes of Good and Evil's pattern compressed by zlib",
		"bits: the environment's description length"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}
	rows := 0
	itemsTable, _, _ := strings.Cut(text, "summary over")
	for _, line := range strings.Split(itemsTable, "\n") {
		if strings.HasPrefix(line, "1 ") || strings.HasPrefix(line, "2 ") {
			rows++
			if strings.Contains(line, "n/a") {
				t.Errorf("one episode: the row should have no interval: %q", line)
			}
		}
	}
	if rows != 14 || strings.Contains(text, "95% CI") && strings.Index(text, "95% CI") < strings.Index(text, "summary over") {
		t.Errorf("%d item rows, want 14, and no column of intervals:\n%s", rows, text)
	}
	s.Episodes = 2
	b.Reset()
	if err := build(t, input(t, 1, s, "random")).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	_, items, _ := strings.Cut(b.String(), "\n1 ")
	if first, _, _ := strings.Cut(items, "\n"); strings.Contains(first, "n/a") || !strings.Contains(first, "[") {
		t.Errorf("two episodes: the first item row should have an interval: %q", first)
	}
}

func TestCSVRowsCarryTheSettings(t *testing.T) {
	in := input(t, 2, exam.DefaultSettings, "random", "qlearning")
	var b bytes.Buffer
	if err := build(t, in).WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+2*14 {
		t.Fatalf("%d rows, want a header and 28", len(rows))
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, h := range []string{"version", "seed", "episodes", "pace", "tau_setting", "lambda", "score_payoff", "agent", "alpha",
		"test", "exercise", "cells", "k_approx", "bits", "score", "ci95_low", "diminishing"} {
		if _, ok := col[h]; !ok {
			t.Errorf("no column %s", h)
		}
	}
	for k, row := range rows[1:] {
		a, i := k/14, k%14
		o := in.Outcomes[k]
		if row[col["version"]] != "9.9.9-test" || row[col["seed"]] != "7" || row[col["pace"]] != "constant:1" ||
			row[col["agent"]] != in.Agents[a].Name || row[col["name"]] != in.Items[i].Name || row[col["score"]] != strconv.FormatFloat(o.Score, 'g', -1, 64) {
			t.Errorf("row %d: %v", k+1, row)
		}
		if (row[col["alpha"]] == "0.05") != (in.Agents[a].Name == "qlearning") || row[col["ci95_low"]] != "" {
			t.Errorf("row %d: alpha %q and ci %q", k+1, row[col["alpha"]], row[col["ci95_low"]])
		}
	}
}

// Each JSON line is an object with the version and settings: an item
// object for each agent and item, then a summary for each agent; figures
// that cannot be computed are null.
func TestJSONLines(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "stay")
	var b bytes.Buffer
	if err := build(t, in).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 2*7+2 {
		t.Fatalf("%d lines, want 16", len(lines))
	}
	for k, line := range lines {
		var o map[string]any
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		kind := "item"
		if k >= 14 {
			kind = "summary"
		}
		settings, _ := o["settings"].(map[string]any)
		if o["kind"] != kind || o["version"] != "9.9.9-test" || o["seed"] != 7.0 || settings["pace"] != "constant:1" || settings["score"] != "diminishing" {
			t.Errorf("line %d: %s", k+1, line)
		}
		if kind == "item" && o["ci95"] != nil {
			t.Errorf("line %d: one episode's ci95 is %v, want null", k+1, o["ci95"])
		}
	}
	// The stay agent's scores may all be equal (r n/a); its summary must
	// still be valid JSON, with null where a figure is NaN.
	var sum struct {
		Agent  string   `json:"agent"`
		R      *float64 `json:"r"`
		Strata []struct {
			R *float64 `json:"r"`
		} `json:"strata"`
		Paired struct {
			Against string `json:"against"`
		} `json:"paired"`
	}
	if err := json.Unmarshal([]byte(lines[15]), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Agent != "stay" || len(sum.Strata) != 7 || sum.Strata[0].R != nil || sum.Paired.Against != "random" {
		t.Errorf("stay's summary: %s", lines[15])
	}
}

// The same input gives the same bytes in every form.
func TestOutputIsDeterministic(t *testing.T) {
	forms := map[string]func(*report.Report, io.Writer) error{
		"text": (*report.Report).WriteText, "csv": (*report.Report).WriteCSV,
		"json": (*report.Report).WriteJSON, "html": (*report.Report).WriteHTML,
	}
	for name, write := range forms {
		var first, second bytes.Buffer
		if err := write(build(t, input(t, 1, exam.DefaultSettings, "random", "qlearning")), &first); err != nil {
			t.Fatal(err)
		}
		if err := write(build(t, input(t, 1, exam.DefaultSettings, "random", "qlearning")), &second); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Errorf("%s: two runs differ", name)
		}
	}
}

// element is an XML element with its attributes, text and children, for
// checking the page.
type element struct {
	XMLName  xml.Name
	Attrs    []xml.Attr `xml:",any,attr"`
	Text     string     `xml:",chardata"`
	Children []element  `xml:",any"`
}

func (e element) attr(name string) string {
	for _, a := range e.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func (e element) walk(f func(element)) {
	f(e)
	for _, c := range e.Children {
		c.walk(f)
	}
}

// parsePage checks that the page is well-formed XML and returns its tree.
func parsePage(t *testing.T, page []byte) element {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(page))
	d.Strict = true
	var root element
	if err := d.Decode(&root); err != nil {
		t.Fatalf("the page is not well-formed: %v", err)
	}
	return root
}

// seriesOf reports, for each figure of the page, which agents it draws:
// an agent is drawn when its name is a text of the figure's SVG (the
// legend entry goes with the series) and its colour strokes or fills a
// path there.
func seriesOf(page element, agents []string) map[string][]string {
	out := map[string][]string{}
	page.walk(func(fig element) {
		if fig.XMLName.Local != "figure" {
			return
		}
		var texts, styles []string
		svgs := 0
		fig.walk(func(e element) {
			switch e.XMLName.Local {
			case "svg":
				svgs++
			case "text":
				texts = append(texts, e.Text)
			case "path", "circle", "polygon":
				styles = append(styles, e.attr("style"))
			}
		})
		id := fig.attr("id")
		out[id] = nil
		if svgs != 1 {
			return
		}
		for a, name := range agents {
			named := false
			for _, tx := range texts {
				named = named || strings.HasPrefix(tx, name+" ") || tx == name
			}
			coloured := strings.Contains(strings.Join(styles, ";"), report.Colour(a))
			if named && coloured {
				out[id] = append(out[id], name)
			}
		}
	})
	return out
}

// The HTML page is well-formed, names the version, seed and settings, has the
// plots of Figs. 3 and 4 of Insa-Cabrera et al. (2011) and one anytime curve
// a payoff, and every plot draws every agent.
func TestHTMLIsWellFormedAndCarriesEverySeries(t *testing.T) {
	agents := []string{"random", "qlearning", "oracle"}
	r := build(t, input(t, 2, exam.DefaultSettings, agents...))
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, b.Bytes())
	for _, want := range []string{"9.9.9-test", "seed 7", "pace constant:1", "lambda 0.9", "score diminishing"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, bad := range []string{"http://", "https://", "src=", "<link", "@import"} {
		if strings.Contains(strings.ReplaceAll(b.String(), "http://www.w3.org/", ""), bad) {
			t.Errorf("the page refers outside itself: %q", bad)
		}
	}
	got := seriesOf(page, agents)
	for _, id := range []string{"complexity", "strata", "distribution", "ranking", "anytime-1", "anytime-2", "anytime-3", "anytime-4", "anytime-5"} {
		if strings.Join(got[id], ",") != strings.Join(agents, ",") {
			t.Errorf("figure %s draws %v, want %v", id, got[id], agents)
		}
	}
	if len(got) != 9 {
		t.Errorf("%d figures, want 9: %v", len(got), got)
	}
}

// The series check fails when a plot lacks an agent: the same page with
// one agent's series taken out of a plot is caught.
func TestSeriesCheckCatchesAMissingAgent(t *testing.T) {
	agents := []string{"random", "qlearning"}
	r := build(t, input(t, 1, exam.DefaultSettings, agents...))
	figs, err := r.Figures()
	if err != nil {
		t.Fatal(err)
	}
	// Draw the first figure with the first agent alone: its SVG lacks
	// qlearning.
	one := *r
	one.Agents = r.Agents[:1]
	one.Summaries = r.Summaries[:1]
	one.Outcomes = r.Outcomes[:len(r.Items)]
	partial, err := one.Figures()
	if err != nil {
		t.Fatal(err)
	}
	svg, err := partial[0].SVG()
	if err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, []byte(`<html><figure id="`+figs[0].ID+`">`+string(svg)+`</figure></html>`))
	if got := seriesOf(page, agents)[figs[0].ID]; len(got) != 1 || got[0] != "random" {
		t.Errorf("a plot of random alone was read as drawing %v", got)
	}
}

// A protocol stratified by complexity, scored by a payoff outside
// [−1, 1], still gets its strata and every plot of every agent.
func TestHTMLForComplexityStrataAndSums(t *testing.T) {
	s := exam.DefaultSettings
	s.Score = exam.ScoreSum
	agents := []string{"random", "oracle"}
	in := input(t, 4, s, agents...)
	in.Protocol = report.Protocol{Name: "battery", Complexity: "bits", Strata: report.ByComplexity}
	for i := range in.Items {
		in.Items[i].Complexity = in.Items[i].Bits
	}
	r := build(t, in)
	if len(r.Strata) != 2 {
		t.Errorf("28 items: %d complexity bins, want 2 (at least ten items a bin)", len(r.Strata))
	}
	var b bytes.Buffer
	if err := r.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	got := seriesOf(parsePage(t, b.Bytes()), agents)
	for id, names := range got {
		if strings.Join(names, ",") != strings.Join(agents, ",") {
			t.Errorf("figure %s draws %v, want %v", id, names, agents)
		}
	}
	if !strings.Contains(b.String(), "bits bin") || !strings.Contains(b.String(), "score (V↑τ, sum)") {
		t.Error("the page does not name the bins or the payoff")
	}
}

// A test too small or too even to spread its points still gets its page:
// one item (every plot holds one value an agent), and scores that are all
// the same (the y axis has no range). gonum/plot panicked on both, in the
// axis ticks kept below the legend's band.
func TestHTMLOfADegenerateTest(t *testing.T) {
	agents := []string{"random", "oracle"}
	one := input(t, 1, exam.DefaultSettings, agents...)
	n := len(one.Items)
	one.Items = one.Items[:1]
	one.Outcomes = []exam.Outcome{one.Outcomes[0], one.Outcomes[n]}
	even := input(t, 1, exam.DefaultSettings, agents...)
	for k := range even.Outcomes {
		even.Outcomes[k].Score = 0.5
	}
	for name, in := range map[string]report.Input{"one item": one, "equal scores": even} {
		var b bytes.Buffer
		if err := build(t, in).WriteHTML(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got := seriesOf(parsePage(t, b.Bytes()), agents)
		want := 9
		if name == "one item" {
			want = 8 // one stratum: no box plot of strata
		}
		if len(got) != want {
			t.Errorf("%s: %d figures, want %d", name, len(got), want)
		}
		for id, names := range got {
			// One complexity has no least-squares line, and seriesOf
			// knows an agent by its line's colour: its translucent
			// points are not matched.
			if name == "one item" && id == "complexity" {
				continue
			}
			if strings.Join(names, ",") != strings.Join(agents, ",") {
				t.Errorf("%s: figure %s draws %v, want %v", name, id, names, agents)
			}
		}
	}
}

// The adaptive test's page is well-formed, names its settings, and both
// of its plots draw every agent.
func TestAdaptiveHTMLCarriesEverySeries(t *testing.T) {
	names := []string{"random", "follower", "oracle"}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	s := exam.DefaultAdaptive
	s.Tau = 600
	results, err := exam.TakeAdaptive(xs, s, 4)
	if err != nil {
		t.Fatal(err)
	}
	a := &report.Adaptive{Title: "adaptive anytime test (anynt 9.9.9-test), seed 4", Seed: 4, Results: results}
	for _, n := range names {
		a.Agents = append(a.Agents, report.AgentOf(n, agent.DefaultSettings))
	}
	var b bytes.Buffer
	if err := a.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := parsePage(t, b.Bytes())
	if !strings.Contains(b.String(), "anynt 9.9.9-test), seed 4") || !strings.Contains(b.String(), "adaptive:4/1/1") {
		t.Errorf("the page lacks its header or its steps")
	}
	text := html.UnescapeString(b.String())
	for _, r := range results {
		if want := fmt.Sprintf("[%+.4f, %+.4f]", r.Low, r.High); !strings.Contains(text, want) {
			t.Errorf("the page lacks %s's 95%% interval %s", r.Agent, want)
		}
	}
	got := seriesOf(page, names)
	for _, id := range []string{"estimate", "level"} {
		if strings.Join(got[id], ",") != strings.Join(names, ",") {
			t.Errorf("figure %s draws %v, want %v", id, got[id], names)
		}
	}
	if len(got) != 2 {
		t.Errorf("%d figures, want 2: %v", len(got), got)
	}
}

// The text report is its header and its tables, each aligned as
// text/tabwriter aligns it with padding 2, for two agents and for three
// with several episodes (intervals in every cell).
func TestTextIsTabwriterAligned(t *testing.T) {
	three := exam.DefaultSettings
	three.Episodes = 3
	for _, in := range []report.Input{
		input(t, 2, exam.DefaultSettings, "random", "qlearning"),
		input(t, 3, three, "random", "qlearning", "oracle"),
	} {
		r := build(t, in)
		var want strings.Builder
		fmt.Fprintf(&want, "%s\n%s\n", r.Title(), r.SettingsText())
		var got strings.Builder
		if err := r.WriteText(&got); err != nil {
			t.Fatal(err)
		}
		want.WriteString(strings.Join(strings.SplitN(got.String(), "\n", 7)[2:6], "\n") + "\n") // the score's lines, as written
		for _, tb := range r.Tables() {
			want.WriteString("\n")
			if tb.Title != "" {
				want.WriteString(tb.Title + ":\n")
			}
			tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
			for _, line := range append([][]string{tb.Head}, tb.Rows...) {
				fmt.Fprintln(tw, strings.Join(line, "\t"))
			}
			tw.Flush()
		}
		if got.String() != want.String() {
			t.Errorf("%d agents: the text\n%s\nwant\n%s", len(in.Agents), got.String(), want.String())
		}
	}
}

// An environment whose Good and Evil run a program has no pattern to
// compress: its K_approx is n/a in text, null in JSON and an empty field
// in CSV, never a 0 that reads as a value.
func TestKApproxOfAProgramIsNotANumber(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random")
	in.Items[0].KApprox = 0
	r := build(t, in)
	items := r.Tables()[0]
	if k := items.Rows[0][slices.Index(items.Head, "K_approx")]; k != "n/a" {
		t.Errorf("text: K_approx %q, want n/a", k)
	}
	if k := items.Rows[1][slices.Index(items.Head, "K_approx")]; k != strconv.Itoa(in.Items[1].KApprox) {
		t.Errorf("text: K_approx %q of a pattern, want %d", k, in.Items[1].KApprox)
	}
	var js, cs bytes.Buffer
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(js.String(), "\n")
	if !strings.Contains(first, `"k_approx":null`) {
		t.Errorf("JSON: %s\nwant k_approx null", first)
	}
	if err := r.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if k := rows[1][slices.Index(rows[0], "k_approx")]; k != "" {
		t.Errorf("CSV: k_approx %q, want an empty field", k)
	}
}
