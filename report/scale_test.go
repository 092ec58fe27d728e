package report_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// scaled is a report of random, qlearning and optimal on two Λ_one tests
// with the items' bounds, the third item's replaced by an error.
func scaled(t *testing.T) (report.Input, *report.Report) {
	t.Helper()
	in := input(t, 2, exam.DefaultSettings, "random", "qlearning", "optimal")
	in.Bounds = exam.Bounds(in.Items, in.Settings, nil)
	in.Bounds[2] = exam.Bound{Err: errors.New("too many states to plan over")}
	return in, build(t, in)
}

// TestNormalisedFiguresComeFromTheBounds checks each agent's normalised
// mean against the scores and bounds item by item, over the items with a
// scale, and that the optimal agent, which plays the optimum, has mean 1.
func TestNormalisedFiguresComeFromTheBounds(t *testing.T) {
	in, r := scaled(t)
	n := len(in.Items)
	if got := r.Scaled(); len(got) != n-1 || got[2] != 3 {
		t.Fatalf("scaled items %v: want every item but the third", got)
	}
	for a, s := range r.Summaries {
		var sum float64
		for i, b := range in.Bounds {
			if i != 2 {
				sum += (in.Outcomes[a*n+i].Score - b.Random) / (b.Optimum - b.Random)
			}
		}
		if s.Normalised == nil || s.Normalised.N != n-1 || math.Abs(s.Normalised.Mean-sum/float64(n-1)) > 1e-12 {
			t.Errorf("%s: normalised %+v, want the mean %v over %d items", s.Agent.Name, s.Normalised, sum/float64(n-1), n-1)
		}
	}
	if m := r.Summaries[2].Normalised.Mean; math.Abs(m-1) > 1e-9 {
		t.Errorf("optimal's normalised mean is %v, not 1", m)
	}
	if _, err := report.New(report.Input{Version: in.Version, Protocol: in.Protocol, Settings: in.Settings, Agents: in.Agents,
		Items: in.Items, Outcomes: in.Outcomes, Bounds: in.Bounds[1:]}); !errors.Is(err, report.ErrOutcomes) {
		t.Errorf("bounds for one item less: error %v", err)
	}
}

// TestRankingOrdersByNormalisedMean checks the ranking: optimal, then
// qlearning, then random, each paired with the next on the normalised
// scores, and the order of the first two significant.
func TestRankingOrdersByNormalisedMean(t *testing.T) {
	_, r := scaled(t)
	var names []string
	for _, rk := range r.Ranking {
		names = append(names, r.Agents[rk.Agent].Name)
	}
	if got := strings.Join(names, " "); got != "optimal qlearning random" {
		t.Fatalf("ranking %s", got)
	}
	first, second := r.Summaries[r.Ranking[0].Agent].Normalised, r.Summaries[r.Ranking[1].Agent].Normalised
	if p := r.Ranking[0].Next; p == nil || p.Against != "qlearning" || math.Abs(p.Mean-(first.Mean-second.Mean)) > 1e-12 || !(p.P < 0.05) {
		t.Errorf("optimal against qlearning: %+v", p)
	}
	if r.Ranking[2].Next != nil {
		t.Errorf("the last agent has a next: %+v", r.Ranking[2].Next)
	}
}

// forms writes r as text, JSON lines and CSV rows.
func forms(t *testing.T, r *report.Report) (text string, js []string, rows [][]string) {
	t.Helper()
	var tb, jb, cb bytes.Buffer
	if err := r.WriteText(&tb); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&jb); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteCSV(&cb); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cb).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return tb.String(), strings.Split(strings.TrimSuffix(jb.String(), "\n"), "\n"), rows
}

// TestScaleInEveryForm checks that the text, the JSON and the CSV carry
// each item's optimum, random's expectation and normalised score, and the
// reason of an item without a scale.
func TestScaleInEveryForm(t *testing.T) {
	in, r := scaled(t)
	n := len(in.Items)
	text, js, rows := forms(t, r)
	for _, want := range []string{"scale of each item", "too many states to plan over", "ranking by mean normalised score over the 13 items with a scale",
		"normalised: (score − random) / (optimum − random)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q", want)
		}
	}

	k := 0
	for _, line := range js {
		var o struct {
			Kind       string          `json:"kind"`
			Optimum    *float64        `json:"optimum"`
			Random     *float64        `json:"random_expected"`
			Normalised json.RawMessage `json:"normalised"` // an object in a summary
			ScaleError string          `json:"scale_error"`
			Rank       int             `json:"rank"`
		}
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatal(err)
		}
		if o.Kind == "summary" {
			if o.Rank < 1 || o.Rank > 3 || !strings.Contains(line, `"normalised":{"n":13`) {
				t.Errorf("summary %s", line)
			}
			continue
		}
		i, b := k%n, in.Bounds[k%n]
		var norm *float64
		if err := json.Unmarshal(o.Normalised, &norm); err != nil {
			t.Fatal(err)
		}
		switch {
		case i == 2 && (o.Optimum != nil || norm != nil || o.ScaleError == ""):
			t.Errorf("item 3 has no scale: %s", line)
		case i != 2 && (o.Optimum == nil || *o.Optimum != b.Optimum || *o.Random != b.Random ||
			norm == nil || *norm != b.Normalised(in.Outcomes[k].Score)):
			t.Errorf("item %d: %s", i+1, line)
		}
		k++
	}

	last := len(rows[0]) - 7
	if got := strings.Join(rows[0][last:], ","); got != "optimum,random_expected,normalised,optimum_horizon,random_plays,random_se,horizon" {
		t.Fatalf("the last columns are %s", got)
	}
	if got := strings.Join(rows[3][last:], ","); got != ",,,,,," {
		t.Errorf("item 3 has no scale, its row ends %q", got)
	}
	if rows[1][last] == "" || rows[1][last+2] == "" {
		t.Errorf("item 1's row ends %q", rows[1][last:])
	}
}

// TestAnApproximateScaleInEveryForm gives the fourth item a scale within
// a horizon, with random's expectation from plays, and the optimal agent's
// outcome on it a plan within a horizon: the text, the JSON and the CSV
// say so, each in its place.
func TestAnApproximateScaleInEveryForm(t *testing.T) {
	in := input(t, 2, exam.DefaultSettings, "random", "qlearning", "optimal")
	in.Bounds = exam.Bounds(in.Items, in.Settings, nil)
	n := len(in.Items)
	b := &in.Bounds[3]
	b.Horizon, b.RandomPlays, b.RandomSE = 4, 32, 0.0123
	in.Outcomes[2*n+3].Horizon = 4
	text, lines, rows := forms(t, build(t, in))
	for _, want := range []string{fmt.Sprintf("≥%+.4f (horizon 4)", b.Optimum), fmt.Sprintf("%+.4f ±0.0123", b.Random),
		"≥ optimum (horizon H): an item whose episodes have too many states", "from 32 plays of random actions an episode",
		"optimal planned 1 item within a horizon (4 interactions ahead or more)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "qlearning planned") {
		t.Errorf("the text says qlearning planned within a horizon")
	}
	for k, want := range map[int]string{
		3:       `"optimum_horizon":4,"random_expected":`,
		2*n + 3: `"horizon":4,`,
	} {
		if !strings.Contains(lines[k], want) || !strings.Contains(lines[k], `"random_plays":32,"random_se":0.0123,`) {
			t.Errorf("JSON line %d lacks %s: %s", k, want, lines[k])
		}
	}
	if strings.Contains(lines[2], "horizon") || strings.Contains(lines[2], "random_se") || strings.Contains(lines[n+3], `"horizon"`) {
		t.Errorf("JSON: an exact item or another agent says horizon: %s\n%s", lines[2], lines[n+3])
	}

	last := len(rows[0]) - 4
	for row, want := range map[int]string{1 + 3: "4,32,0.0123,", 1 + n + 3: "4,32,0.0123,", 1 + 2*n + 3: "4,32,0.0123,4", 1 + 2*n + 2: ",,,"} {
		if got := strings.Join(rows[row][last:], ","); got != want {
			t.Errorf("CSV row %d ends %q, want %q", row, got, want)
		}
	}
}

// TestRankingWithoutAnyScale checks a report whose items all lack a scale
// (a stopped test, items too large to plan): it ranks by mean score, says
// why, and gives no normalised mean (null in JSON), rather than ranking
// every agent at 0.
func TestRankingWithoutAnyScale(t *testing.T) {
	in := input(t, 1, exam.DefaultSettings, "random", "oracle")
	in.Bounds = make([]exam.Bound, len(in.Items))
	for i := range in.Bounds {
		in.Bounds[i].Err = exam.ErrNoBound
	}
	r := build(t, in)
	if got := r.Agents[r.Ranking[0].Agent].Name; got != "oracle" {
		t.Errorf("ranked first: %s, want oracle (the higher mean score)", got)
	}
	var text, js bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "ranking by mean score (no item has a scale)") {
		t.Errorf("the text:\n%s", text.String())
	}
	if !strings.Contains(js.String(), `"normalised":{"n":0,"mean":null`) {
		t.Errorf("the JSON summaries lack a null normalised mean:\n%s", js.String())
	}
}
