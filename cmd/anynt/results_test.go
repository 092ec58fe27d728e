package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
)

// TestResultsReport reports a study's finished participant beside
// Q-learning: the report has people's and Q-learning's items (the same
// ones), people's scores are the recorded rewards' means (--score
// per-cycle), and the HTML page is written.
func TestResultsReport(t *testing.T) {
	db, _ := playedStudy(t, true)
	out, errw, code := anynt(t, "", "results", "--db", db, "--json", "--score", "per-cycle", "--quiet")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw)
	}
	type line struct {
		Kind, Agent, Name string
		Score             float64
		Exercise          int
	}
	count := map[string]int{}
	people := map[int]float64{}
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		count[l.Kind+" "+l.Agent]++
		if l.Kind == "item" && l.Agent == "people" {
			people[l.Exercise] = l.Score
		}
	}
	want := map[string]int{"item people": 7, "item qlearning": 7, "summary people": 1, "summary qlearning": 1}
	for k, n := range want {
		if count[k] != n {
			t.Errorf("%d lines of %s; want %d (all: %v)", count[k], k, n, count)
		}
	}
	// people's score of an exercise is the mean of the rewards recorded
	s, err := study.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	sum, n := map[int]float64{}, map[int]float64{}
	err = s.Records(func(r study.Record) error {
		if r.Participant == 1 {
			sum[r.Exercise] += r.Reward
			n[r.Exercise]++
		}
		return nil
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	for x := 1; x <= 7; x++ {
		if mean := sum[x] / n[x]; math.Abs(people[x]-mean) > 1e-12 {
			t.Errorf("exercise %d: people's score %g; the recorded rewards' mean is %g", x, people[x], mean)
		}
	}
	html := filepath.Join(t.TempDir(), "results.html")
	if _, errw, code := anynt(t, "", "results", "--db", db, "--html", html, "--agent", "random,qlearning", "--quiet"); code != exitOK {
		t.Fatalf("--html: exit %d: %s", code, errw)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "people") || !strings.Contains(string(page), "<svg") {
		t.Fatalf("the HTML report does not draw people (%v)", err)
	}
	if err := oneMainLandmark(page); err != nil {
		t.Errorf("the HTML report: %v", err)
	}
	text, _, code := anynt(t, "", "results", "--db", db)
	if code != exitOK || !strings.Contains(text, "people") || !strings.Contains(text, "qlearning") {
		t.Fatalf("the text report (exit %d) does not name people and qlearning:\n%s", code, text)
	}
}

// TestResultsExports exports every recorded interaction and every session,
// finished or not, as CSV and as JSON lines.
func TestResultsExports(t *testing.T) {
	db, moves := playedStudy(t, true)
	out, errw, code := anynt(t, "", "results", "--db", db, "--interactions")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errw)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != moves+1 || strings.Join(rows[0], ",") != strings.Join(interactionHeader, ",") {
		t.Fatalf("%d rows under the header %v; want %d moves under %v", len(rows)-1, rows[0], moves, interactionHeader)
	}
	if last := rows[len(rows)-1]; last[0] != "test" || last[1] != "lambda-one" || last[2] != "3" || last[4] != "2" || last[5] != "P2" {
		t.Fatalf("the last row %v does not name the study (test, lambda-one, seed 3) and participant 2, code P2", last)
	}
	for _, row := range rows[1:] { // client_ms, server_ms, client_cut
		client, _ := strconv.ParseFloat(row[14], 64)
		server, _ := strconv.ParseFloat(row[15], 64)
		if cut := strconv.FormatBool(client > 0 && client < server-500); row[18] != cut {
			t.Fatalf("row %v: client_cut %q; want %s", row, row[18], cut)
		}
	}
	out, _, code = anynt(t, "", "results", "--db", db, "--interactions", "--json")
	if n := strings.Count(out, "\n"); code != exitOK || n != moves || !strings.Contains(out, `"client_ms":400`) ||
		!strings.Contains(out, `"client_cut":false`) {
		t.Fatalf("--interactions --json: exit %d, %d lines; want %d, with client_ms and client_cut", code, n, moves)
	}
	out, _, code = anynt(t, "", "results", "--db", db, "--participants", "--json")
	var ps []participantRow
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var p participantRow
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if code != exitOK || len(ps) != 2 || !ps[0].Finished || ps[1].Finished || ps[1].Moves != 25 || ps[1].Code != "P2" || ps[0].Test != 1 || ps[1].Test != 2 {
		t.Fatalf("--participants: exit %d, %+v", code, ps)
	}
	out, _, _ = anynt(t, "", "results", "--db", db, "--participants")
	if rows, err := csv.NewReader(strings.NewReader(out)).ReadAll(); err != nil || len(rows) != 3 || rows[2][6] != "false" || rows[2][7] != "[]" {
		t.Fatalf("--participants as CSV: %v (%v)", rows, err)
	}
}

// TestResultsNobodyFinished refuses the report of a study whose
// participants have not finished (exit 1, saying what to export instead),
// while the exports work.
func TestResultsNobodyFinished(t *testing.T) {
	db, moves := playedStudy(t, false)
	_, errw, code := anynt(t, "", "results", "--db", db)
	if code != exitFile || !strings.Contains(errw, "no participant has finished") || !strings.Contains(errw, "1 sessions") {
		t.Fatalf("exit %d, stderr %q; want exit 1 saying no participant has finished", code, errw)
	}
	out, _, code := anynt(t, "", "results", "--db", db, "--interactions")
	if code != exitOK || strings.Count(out, "\n") != moves+1 {
		t.Fatalf("--interactions: exit %d, %d lines; want the header and %d moves", code, strings.Count(out, "\n"), moves)
	}
}

// TestResultsRefuses checks anynt results' command line.
func TestResultsRefuses(t *testing.T) {
	db, _ := playedStudy(t, true)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no database", []string{"results"}, exitUsage, "--db FILE is required"},
		{"no such file", []string{"results", "--db", filepath.Join(t.TempDir(), "none.db")}, exitIO, "none.db"},
		{"two exports", []string{"results", "--db", db, "--interactions", "--participants"}, exitUsage, "choose one"},
		{"json and csv", []string{"results", "--db", db, "--json", "--csv"}, exitUsage, "choose one"},
		{"an agent for an export", []string{"results", "--db", db, "--interactions", "--agent", "random"}, exitUsage, "--agent means nothing to an export"},
		{"html for an export", []string{"results", "--db", db, "--participants", "--html", "x.html"}, exitUsage, "--html means nothing"},
		{"alpha without qlearning", []string{"results", "--db", db, "--agent", "random", "--alpha", "0.5"}, exitUsage, "--alpha is a setting of qlearning"},
		{"no such agent", []string{"results", "--db", db, "--agent", "genius"}, exitUsage, "genius"},
		{"a file", []string{"results", "--db", db, "more.db"}, exitUsage, "takes no files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errw, code := anynt(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errw, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d saying %q", code, errw, tt.code, tt.want)
			}
		})
	}
}

// TestResultsExportsNeutraliseFormulas exports sessions whose codes a
// spreadsheet would run as formulas (CSV injection): the CSV exports put a
// single quote before them (and before a code that begins with one, so
// that one quote removed gives the code), the replies' column begins with
// "[" and keeps them raw, and the JSON exports keep every code raw.
func TestResultsExportsNeutraliseFormulas(t *testing.T) {
	items, err := exam.LambdaOneItems(3, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "study.db")
	s, err := study.Open(db, &study.Design{Version: "test", Protocol: "lambda-one", Complexity: "K_approx",
		Strata: "cells", Seed: 3, Tests: 1, Items: items, Intro: study.Intro{AskCode: true, Questions: []string{"Why?"}}})
	if err != nil {
		t.Fatal(err)
	}
	codes := []struct{ typed, csv string }{
		{`=HYPERLINK("http://example.org","x")`, `'=HYPERLINK("http://example.org","x")`},
		{"+1", "'+1"},
		{"-1", "'-1"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"'quoted", "''quoted"},
		{"P6", "P6"},
	}
	for _, c := range codes {
		tok, v, err := s.Start(study.Answers{Code: c.typed, Replies: []string{"=1+1"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, cell := range v.Cells {
			if cell.Accessible {
				if _, err := s.Move(tok, study.Move{Seq: v.Seq, Cell: cell.Number, ClientMillis: 400}); err != nil {
					t.Fatal(err)
				}
				break
			}
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	export := func(args ...string) [][]string {
		out, errw, code := anynt(t, "", append([]string{"results", "--db", db}, args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errw)
		}
		rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil || len(rows) != len(codes)+1 {
			t.Fatalf("%v: %d rows (%v); want %d", args, len(rows), err, len(codes)+1)
		}
		return rows[1:]
	}
	for i, row := range export("--interactions") {
		if row[5] != codes[i].csv {
			t.Errorf("--interactions: participant %d's code is %q; want %q", i+1, row[5], codes[i].csv)
		}
	}
	for i, row := range export("--participants") {
		if row[1] != codes[i].csv || row[7] != `["=1+1"]` {
			t.Errorf("--participants: participant %d's code is %q, replies %q; want %q, %q", i+1, row[1], row[7], codes[i].csv, `["=1+1"]`)
		}
	}
	for _, args := range [][]string{{"--interactions", "--json"}, {"--participants", "--json"}} {
		out, _, _ := anynt(t, "", append([]string{"results", "--db", db}, args...)...)
		for i, l := range strings.Split(strings.TrimSpace(out), "\n") {
			var row struct {
				Code string `json:"code"`
			}
			if err := json.Unmarshal([]byte(l), &row); err != nil || row.Code != codes[i].typed {
				t.Errorf("%v: line %d's code is %q (%v); want the raw %q", args, i+1, row.Code, err, codes[i].typed)
			}
		}
	}
}
