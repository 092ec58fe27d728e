package report

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/cores"
)

// payoffNames name the payoffs of Hernández-Orallo (2010a) in the order of
// payoffsOf, in the papers' notation and in words.
var payoffNames = []string{"V↑τ (sum)", "ω‖τ (per second)", "v‖τ (per cycle)", "V|γ|τ (discounted)", "v̌‖τ (diminishing)"}

func payoffsOf(v aggregate.Values) []float64 {
	return []float64{v.Sum, v.PerSecond, v.PerCycle, v.Discounted, v.Diminishing}
}

// scoreNotation is the papers' symbol of a payoff.
var scoreNotation = map[exam.Score]string{
	exam.ScoreSum: "V↑τ", exam.ScorePerSecond: "ω‖τ", exam.ScorePerCycle: "v‖τ",
	exam.ScoreDiscounted: "V|γ|τ", exam.ScoreDiminishing: "v̌‖τ",
}

// agentText names an agent with its settings.
func agentText(a Agent) string {
	if a.Command != "" && a.Batch > 1 {
		return fmt.Sprintf("%s (--agent-cmd %q, %d items at once)", a.Name, a.Command, a.Batch)
	}
	if a.Command != "" {
		return fmt.Sprintf("%s (--agent-cmd %q)", a.Name, a.Command)
	}
	if len(a.Settings) > 0 {
		kv := make([]string, len(a.Settings))
		for i, s := range a.Settings {
			kv[i] = s.Key + " " + g(s.Value)
		}
		return fmt.Sprintf("%s (%s)", a.Name, strings.Join(kv, ", "))
	}
	if a.QLearning == nil {
		return a.Name
	}
	q := a.QLearning
	return fmt.Sprintf("%s (alpha %s, gamma %s, q0 %s)", a.Name, g(q.Alpha), g(q.Gamma), g(q.Q0))
}

// Title is the report's first line: the tool's version, the test and its
// seed, its size and the agents.
func (r *Report) Title() string {
	names := make([]string, len(r.Agents))
	for i, a := range r.Agents {
		names[i] = agentText(a)
	}
	return fmt.Sprintf("anynt %s: test %s, seed %d, %s, %s, agents %s", r.Version, r.Protocol.Name, r.Seed,
		count(r.Tests, "test"), count(len(r.Items), "item"), strings.Join(names, ", "))
}

// SettingsText names every setting of the test.
func (r *Report) SettingsText() string {
	s := r.Settings
	tau := g(s.Tau) + " s"
	if s.Tau == 0 {
		tau = "0 (each item's interactions × the pace's mean delay)"
	}
	text := fmt.Sprintf("settings: %s an item; pace %s (seconds before each action); tau %s; lambda %s; score %s (%s); %s",
		count(s.Episodes, "episode"), s.Pace, tau, g(s.Lambda), s.Score, scoreNotation[s.Score], count(s.CurvePoints, "curve point"))
	if p := r.Protocol.Settings; p != "" {
		text += "; " + r.Protocol.Name + ": " + p
	}
	return text
}

// WriteText writes the per-item table, the summary per agent, the figures per
// stratum (Table 2 of Insa-Cabrera et al. 2011), the payoffs at τ and the
// paired differences, under a header naming the version, the test and every
// setting.
func (r *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n%s\n%s\n", r.Title(), r.SettingsText(), r.scoreText())
	for _, line := range r.keyLines() {
		fmt.Fprintln(bw, line)
	}
	for _, t := range r.Tables() {
		fmt.Fprintln(bw)
		if t.Title != "" {
			fmt.Fprintln(bw, t.Title+":")
		}
		t.writeAligned(bw)
	}
	return bw.Flush()
}

func (r *Report) scoreText() string {
	return fmt.Sprintf("score: an item's %s payoff at τ, the mean over its episodes; complexity: %s", r.Settings.Score, r.Protocol.Complexity)
}

// payoffMeaning says in words what each payoff is, after Hernández-Orallo
// (2010a), "On Evaluating Agent Performance in a Fixed Period of Time".
var payoffMeaning = map[exam.Score]string{
	exam.ScoreSum:        "the total reward of the actions done by τ",
	exam.ScorePerSecond:  "the total reward of the actions done by τ, divided by τ",
	exam.ScorePerCycle:   "the mean reward of the n_τ actions done by τ (the Λ_one score when every step is done)",
	exam.ScoreDiscounted: "the mean reward of the actions done by τ, the k-th weighted by λ^k",
	exam.ScoreDiminishing: "the mean reward of the first n* = ⌊n_τ·t_{n_τ}/τ⌋ of the n_τ actions done by τ, " +
		"so that time left unused before τ drops the latest rewards",
}

// keyLines say what the report's figures are: the chosen payoff, as
// Hernández-Orallo (2010a) defines it, and the complexity columns.
func (r *Report) keyLines() []string {
	s := r.Settings.Score
	lines := []string{
		fmt.Sprintf("%s (%s): %s (Hernández-Orallo 2010a, \"On Evaluating Agent Performance in a Fixed Period of Time\")", scoreNotation[s], s, payoffMeaning[s]),
		"K_approx: the length in bytes of Good and Evil's pattern compressed by zlib, the complexity of Insa-Cabrera et al. 2011, " +
			"\"Comparing humans and AI agents\"; n/a for an environment whose Good and Evil run a program",
		"bits: the environment's description length, in bits (docs/complexity.md)",
	}
	if r.hasScale() {
		lines = append(lines, "optimum: the highest score an agent keeping the pace could reach on an item's episodes, knowing their random draws "+
			"(the clairvoyant optimum, agent optimal); random: the expected score of random on them, exactly unless marked ±; "+
			"normalised: (score − random) / (optimum − random), 0 at random's expectation, 1 at the optimum (docs/reports.md)")
		if r.anyApproximateScale() {
			lines = append(lines, fmt.Sprintf("≥ optimum (horizon H): an item whose episodes have too many states for an exact optimum "+
				"has that of a plan looking H interactions ahead or more, a lower bound (a normalised score there can pass 1); "+
				"random ± SE: random's expectation estimated from %d plays of random actions an episode, with its standard error",
				exam.RandomPlaysAnEpisode))
		}
	}
	for _, a := range r.Agents {
		if n, h := r.horizoned(a.Name); n > 0 {
			lines = append(lines, fmt.Sprintf("%s planned %s within a horizon (%s ahead or more), not exactly: "+
				"there its score is a lower bound on the optimum, not the optimum", a.Name, count(n, "item"), count(h, "interaction")))
		}
	}
	return lines
}

// anyApproximateScale says whether an item's scale is approximate: its
// optimum from a plan within a horizon, or random's from plays.
func (r *Report) anyApproximateScale() bool {
	for _, b := range r.Bounds {
		if b.Err == nil && (b.Horizon > 0 || b.RandomPlays > 0) {
			return true
		}
	}
	return false
}

// horizoned counts the items agent planned within a horizon
// (Outcome.Horizon) and gives the fewest interactions it looked ahead.
func (r *Report) horizoned(agent string) (items, horizon int) {
	for _, o := range r.Outcomes {
		if o.Agent == agent && o.Horizon > 0 {
			if items++; horizon == 0 || o.Horizon < horizon {
				horizon = o.Horizon
			}
		}
	}
	return items, horizon
}

// Table is one table of the report, as text cells.
type Table struct {
	Title string
	Head  []string
	Rows  [][]string
	// PerItem marks a table of a row an item, which the HTML report folds.
	PerItem bool
}

// writeAligned writes the head and the rows a line each, every cell but a
// line's last padded with spaces to its column's widest cell and two more,
// widths in runes: what text/tabwriter writes with padding 2 when every
// line has the same cells (TestAlignedIsTabwriter), at a third of its
// cost, since the report's text is written on one core.
func (t Table) writeAligned(w *bufio.Writer) {
	lines := append([][]string{t.Head}, t.Rows...)
	var widths []int
	for _, cells := range lines {
		for c, cell := range cells[:max(len(cells)-1, 0)] {
			if c == len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], utf8.RuneCountInString(cell))
		}
	}
	for _, cells := range lines {
		for c, cell := range cells {
			w.WriteString(cell)
			if c < len(cells)-1 {
				for range widths[c] - utf8.RuneCountInString(cell) + 2 {
					w.WriteByte(' ')
				}
			}
		}
		w.WriteByte('\n')
	}
}

// Tables are the report's tables in the order they are printed: the
// items, the summary, the strata, the payoffs, with two agents or more the
// paired differences and the ranking, the items' scales (with bounds), and
// the agents outside anynt and the faults when there are any.
func (r *Report) Tables() []Table {
	ts := []Table{r.itemsTable(), r.summaryTable(), r.strataTable(), r.payoffsTable()}
	if len(r.Summaries) > 1 {
		ts = append(ts, r.pairedTable(), r.rankingTable())
	}
	if r.hasScale() {
		ts = append(ts, r.scaleTable())
	}
	if t, ok := r.outsideTable(); ok {
		ts = append(ts, t)
	}
	if t, ok := r.faultsTable(); ok {
		ts = append(ts, t)
	}
	return ts
}

// itemsTable has a row an item: its figures, and each agent's score with
// its 95% interval, a column that is left out when no item has one (one
// episode an item, the papers' protocol) and no agent faulted.
func (r *Report) itemsTable() Table {
	t := Table{Head: []string{"test", "exercise", "name", "cells", "K_approx", "bits", "interactions"}, PerItem: true}
	intervals := slices.ContainsFunc(r.Outcomes, func(o exam.Outcome) bool { return len(o.Scores) >= 2 || o.Fault != nil })
	for _, a := range r.Agents {
		t.Head = append(t.Head, a.Name)
		if intervals {
			t.Head = append(t.Head, "95% CI")
		}
	}
	// A row for each item and a cell for each agent: the rows are
	// written on all cores, since the report is what is left to do on one
	// core once a test is taken.
	t.Rows = make([][]string, len(r.Items))
	cores.Do(len(r.Items), func(i int) {
		it := r.Items[i]
		row := make([]string, 7, 7+2*len(r.Agents))
		row[0], row[1], row[2], row[3], row[4] = strconv.Itoa(it.Test), strconv.Itoa(it.Number), it.Name, strconv.Itoa(it.Cells), kApproxText(it.KApprox)
		row[5], row[6] = strconv.FormatFloat(it.Bits, 'f', 1, 64), strconv.Itoa(it.Steps)
		for a := range r.Agents {
			o := r.Outcomes[a*len(r.Items)+i]
			ci := ciText(o.CI95, len(o.Scores))
			if o.Fault != nil {
				ci = "fault"
			}
			row = append(row, signed(o.Score))
			if intervals {
				row = append(row, ci)
			}
		}
		t.Rows[i] = row
	}, nil)
	return t
}

// scaleTable has a row an item: its optimum, random's expectation and
// each agent's normalised score, "—" where the item has no scale (with
// the reason in the last column).
func (r *Report) scaleTable() Table {
	t := Table{Title: "scale of each item: the optimum (the clairvoyant best of its episodes) and random's expectation, " +
		"and each agent's normalised score, (score − random) / (optimum − random)",
		Head: []string{"test", "exercise", "name", "optimum", "random expected"}, PerItem: true}
	for _, a := range r.Agents {
		t.Head = append(t.Head, a.Name)
	}
	t.Head = append(t.Head, "no scale because")
	for i, it := range r.Items {
		b := r.Bounds[i]
		row := []string{strconv.Itoa(it.Test), strconv.Itoa(it.Number), it.Name, "—", "—"}
		why := ""
		if b.Err == nil {
			row[3], row[4] = signed(b.Optimum), signed(b.Random)
			if b.Horizon > 0 {
				row[3] = fmt.Sprintf("≥%s (horizon %d)", row[3], b.Horizon)
			}
			if b.RandomPlays > 0 {
				row[4] += " ±" + strconv.FormatFloat(b.RandomSE, 'f', 4, 64)
			}
		} else {
			why = b.Err.Error()
		}
		if why == "" && math.IsNaN(b.Normalised(0)) {
			why = "the optimum is random's expectation"
		}
		for a := range r.Agents {
			row = append(row, normalisedText(b.Normalised(r.Outcomes[a*len(r.Items)+i].Score)))
		}
		t.Rows = append(t.Rows, append(row, why))
	}
	return t
}

// normalisedText prints a normalised score, "—" when there is none.
func normalisedText(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return signed(x)
}

// rankingTable lists the agents from the best, each with its paired
// difference from the one below it and whether that order is significant
// (p < 0.05): by mean normalised score when the items have scales.
func (r *Report) rankingTable() Table {
	by := "mean score"
	switch {
	case r.byNormalised():
		by = fmt.Sprintf("mean normalised score over the %s with a scale", count(len(r.Scaled()), "item"))
	case r.hasScale():
		by = "mean score (no item has a scale)"
	}
	t := Table{Title: "ranking by " + by + "; against the next: the paired difference from the agent ranked next (the same items and episode seeds)",
		Head: []string{"rank", "agent", "mean score"}}
	if r.byNormalised() {
		t.Head = append(t.Head, "normalised", "95% CI")
	} else {
		t.Head = append(t.Head, "95% CI")
	}
	t.Head = append(t.Head, "against the next", "95% CI", "p (paired t)", "order significant (p < 0.05)")
	for k, rk := range r.Ranking {
		s := r.Summaries[rk.Agent]
		row := []string{strconv.Itoa(k + 1), s.Agent.Name, signed(s.Mean)}
		if n := s.Normalised; n != nil && r.byNormalised() {
			row = append(row, normalisedText(n.Mean), ciText(n.CI95, n.N))
		} else {
			row = append(row, ciText(s.CI95, s.N))
		}
		if p := rk.Next; p != nil {
			sig := "no"
			if p.P < 0.05 {
				sig = "yes"
			}
			row = append(row, signed(p.Mean), ciText(p.CI95, p.N), pText(p.P), sig)
		} else {
			row = append(row, "", "", "", "")
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (r *Report) summaryTable() Table {
	t := Table{Title: fmt.Sprintf("summary over the items (r: Pearson's r of score against %s)", r.Protocol.Complexity),
		Head: []string{"agent", "n", "mean", "sd", "sd of test means", "95% CI", "r", "p (two-tailed)", "p (one-tailed, r < 0)", "stopped episodes"}}
	for _, s := range r.Summaries {
		t.Rows = append(t.Rows, []string{s.Agent.Name, fmt.Sprint(s.N), signed(s.Mean), plain(s.SD), plain(s.TestSD), ciText(s.CI95, s.N),
			signed(s.Corr.R), pText(s.Corr.P), pText(s.Corr.POne), fmt.Sprint(s.Stopped)})
		if p := s.Paper; p != nil {
			t.Rows = append(t.Rows, []string{"  " + p.Source, fmt.Sprint(p.N), fmt.Sprintf("%+.3f", p.Mean), "",
				fmt.Sprintf("%.3f", p.TestSD), "", fmt.Sprintf("%+.3f", p.R), "", "", ""})
		}
	}
	return t
}

func (r *Report) strataName() string {
	if r.Protocol.Strata == ByCells {
		return "cells"
	}
	return r.Protocol.Complexity + " bin"
}

func (r *Report) strataTable() Table {
	t := Table{Title: fmt.Sprintf("by %s (as Table 2 of Insa-Cabrera et al. 2011: r of score against %s within each stratum, one-tailed p of r < 0)",
		r.strataName(), r.Protocol.Complexity),
		Head: []string{"agent", r.strataName(), "n", "mean", "sd", "95% CI", "r", "p (one-tailed)"}}
	paper := slices.ContainsFunc(r.Summaries, func(s Summary) bool { return s.Paper != nil })
	if paper {
		t.Head = append(t.Head, "Insa-Cabrera et al. 2011: r (p)")
	}
	for _, s := range r.Summaries {
		for k, f := range s.Strata {
			row := []string{s.Agent.Name, r.Strata[k].Label, fmt.Sprint(f.N), signed(f.Mean), plain(f.SD),
				ciText(f.CI95, f.N), signed(f.Corr.R), pText(f.Corr.POne)}
			if paper {
				cell := ""
				if ps, ok := s.Paper.stratum(r.Strata[k].Label); ok {
					cell = fmt.Sprintf("%+.3f (%.3f)", ps.R, ps.P)
				}
				row = append(row, cell)
			}
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func (r *Report) payoffsTable() Table {
	t := Table{Title: "payoffs of Hernández-Orallo 2010a at τ, means over the items", Head: append([]string{"agent", "interactions"}, payoffNames...)}
	for _, s := range r.Summaries {
		row := []string{s.Agent.Name, fmt.Sprint(s.Payoffs.Count)}
		for _, v := range payoffsOf(s.Payoffs) {
			row = append(row, signed(v))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func (r *Report) pairedTable() Table {
	t := Table{Title: fmt.Sprintf("paired differences against %s (the same items and episode seeds)", r.Agents[0].Name),
		Head: []string{"agent", "n", "mean difference", "95% CI", "p (paired t, two-tailed)"}}
	for _, s := range r.Summaries[1:] {
		p := s.Paired
		t.Rows = append(t.Rows, []string{s.Agent.Name, fmt.Sprint(p.N), signed(p.Mean), ciText(p.CI95, p.N), pText(p.P)})
	}
	return t
}

// outsideTable gives the response times of the agents outside anynt,
// which were measured, and their faults; none when every agent is
// built in.
func (r *Report) outsideTable() (Table, bool) {
	t := Table{Title: "agents outside anynt: response times, from writing observe to reading act (they replace the pace)",
		Head: []string{"agent", "command", "actions", "mean (ms)", "max (ms)", "episodes cut by τ", "faulted items"}}
	for _, s := range r.Summaries {
		if s.Agent.Command == "" {
			continue
		}
		ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()*1000) }
		t.Rows = append(t.Rows, []string{s.Agent.Name, s.Agent.Command, fmt.Sprint(s.Times.Actions), ms(s.Times.Mean()), ms(s.Times.Max),
			fmt.Sprint(s.Cut), fmt.Sprint(s.Faults)})
	}
	return t, len(t.Rows) > 0
}

// shortError is an error with a form on one line, as an agent's fault
// (agentproto.Fault) has one without the agent's standard error.
type shortError interface {
	error
	Short() string
}

// faultsTable quotes each fault with its item: the scores of a faulted
// item count the interactions done before the fault.
func (r *Report) faultsTable() (Table, bool) {
	t := Table{Title: "faults (a faulted item keeps the interactions done before its fault)", Head: []string{"agent", "item", "fault"}}
	for a, ag := range r.Agents {
		for i, it := range r.Items {
			if o := r.Outcomes[a*len(r.Items)+i]; o.Fault != nil {
				msg, _, _ := strings.Cut(o.Fault.Error(), "\n")
				var f shortError
				if errors.As(o.Fault, &f) {
					msg = f.Short()
				}
				t.Rows = append(t.Rows, []string{ag.Name, it.Name, msg})
			}
		}
	}
	return t, len(t.Rows) > 0
}

// kApproxText prints K_approx, n/a for an environment whose Good and Evil
// run a program, which has no pattern to compress (exam.Item.KApprox 0).
func kApproxText(k int) string {
	if k == 0 {
		return "n/a"
	}
	return strconv.Itoa(k)
}

// ciText prints an interval of n values, "n/a" when n < 2.
func ciText(ci [2]float64, n int) string {
	if n < 2 {
		return "n/a"
	}
	return "[" + plusFixed4(ci[0]) + ", " + plusFixed4(ci[1]) + "]"
}

func signed(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return plusFixed4(x)
}

// plusFixed4 writes x as fmt's %+.4f does (TestPlusFixed4IsPrintf),
// without fmt's cost: a report writes it for every item and agent.
func plusFixed4(x float64) string {
	b := make([]byte, 1, 16)
	b[0] = '+'
	b = strconv.AppendFloat(b, x, 'f', 4, 64)
	if b[1] == '-' || b[1] == '+' { // negative (−0 too), or ±Inf
		b = b[1:]
	}
	return string(b)
}

func plain(x float64) string {
	if math.IsNaN(x) {
		return "n/a"
	}
	return fmt.Sprintf("%.4f", x)
}

// pText prints a p-value, too small ones as a bound.
func pText(p float64) string {
	switch {
	case math.IsNaN(p):
		return "n/a"
	case p < 0.0001:
		return "<0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// g writes a number as short as it reads back exactly.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// count spells n things, "1 test" or "2 tests".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
