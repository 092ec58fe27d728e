package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
)

// TestServeRefuses checks the command line of anynt serve: each mistake
// exits with its status and a message that names it, before a database is
// made or a port opened.
func TestServeRefuses(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "study.db")
	empty := writeFile(t, "empty.txt", "  \n")
	many := []string{"serve", "--db", db}
	for range maxQuestions + 1 {
		many = append(many, "--question", "Why?")
	}
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no database", []string{"serve"}, exitUsage, "--db FILE is required"},
		{"every interface", []string{"serve", "--db", db, "--addr", ":8080"}, exitUsage, "not a loopback address"},
		{"another interface", []string{"serve", "--db", db, "--addr", "192.0.2.1:8080"}, exitUsage, "Add --public"},
		{"a host name", []string{"serve", "--db", db, "--addr", "example.org:80"}, exitUsage, "not a loopback address"},
		{"public on loopback", []string{"serve", "--db", db, "--addr", "localhost:8080", "--public"}, exitUsage, "--public means nothing"},
		{"no port", []string{"serve", "--db", db, "--addr", "127.0.0.1"}, exitUsage, "say HOST:PORT"},
		{"tests out of range", []string{"serve", "--db", db, "--tests", "0"}, exitUsage, "--tests is 0"},
		{"a battery's flag on lambda-one", []string{"serve", "--db", db, "--steps", "10"}, exitUsage, "--steps means nothing to --protocol lambda-one"},
		{"files on lambda-one", []string{"serve", "--db", db, "x.anynt"}, exitUsage, "files are for --protocol battery"},
		{"tests of a battery", []string{"serve", "--db", db, "--protocol", "battery", "--tests", "3", "x.anynt"}, exitUsage, "--tests means nothing to --protocol battery"},
		{"no such protocol", []string{"serve", "--db", db, "--protocol", "quiz"}, exitUsage, `no protocol "quiz"`},
		{"consent not found", []string{"serve", "--db", db, "--consent", filepath.Join(dir, "none.txt")}, exitIO, "none.txt"},
		{"empty consent", []string{"serve", "--db", db, "--consent", empty}, exitUsage, "is empty"},
		{"empty question", []string{"serve", "--db", db, "--question", " "}, exitUsage, "--question 1 must be"},
		{"too many questions", many, exitUsage, "at most 20"},
		{"empty title", []string{"serve", "--db", db, "--title", " "}, exitUsage, "--title must be"},
		{"a title of two lines", []string{"serve", "--db", db, "--title", "A\nB"}, exitUsage, "--title must be"},
		{"a long title", []string{"serve", "--db", db, "--title", strings.Repeat("x", maxTitleLen+1)}, exitUsage, "--title must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errw, code := anynt(t, "", tt.args...)
			if code != tt.code || !strings.Contains(errw, tt.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d saying %q", code, errw, tt.code, tt.want)
			}
			if _, err := os.Stat(db); err == nil {
				t.Fatalf("a refused command made the database %s", db)
			}
		})
	}
}

// TestServeNotADatabase gives anynt serve a file that is no SQLite
// database: it exits 4, saying so, and leaves the file alone.
func TestServeNotADatabase(t *testing.T) {
	const text = "my notes, not a database\n"
	name := writeFile(t, "notes.txt", text)
	_, errw, code := anynt(t, "", "serve", "--db", name, "--addr", "127.0.0.1:0")
	if code != exitIO || !strings.Contains(errw, "not a SQLite database") {
		t.Fatalf("exit %d, stderr %q; want exit 4 saying it is not a SQLite database", code, errw)
	}
	if got, err := os.ReadFile(name); err != nil || string(got) != text {
		t.Fatalf("the file now holds %q (%v)", got, err)
	}
}

// playedStudy makes a study of two Λ_one tests in a database and plays it
// with a clicker that always takes an accessible cell: participant 1
// finishes test 1, participant 2 plays moves of test 2.
func playedStudy(t *testing.T, finished bool) (db string, moves int) {
	t.Helper()
	items, err := exam.LambdaOneItems(3, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	db = filepath.Join(t.TempDir(), "study.db")
	s, err := study.Open(db, &study.Design{Version: "test", Protocol: "lambda-one", Complexity: "K_approx",
		Strata: "cells", Seed: 3, Tests: 2, Items: items, Intro: study.Intro{AskCode: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	play := func(code string, limit int) {
		tok, v, err := s.Start(study.Answers{Code: code})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; !v.Over && i < limit; i++ {
			var reach []int
			for _, c := range v.Cells {
				if c.Accessible {
					reach = append(reach, c.Number)
				}
			}
			if v, err = s.Move(tok, study.Move{Seq: v.Seq, Cell: reach[i%len(reach)], ClientMillis: 400}); err != nil {
				t.Fatal(err)
			}
			moves++
		}
	}
	if finished {
		play("P1", math.MaxInt)
	}
	play("P2", 25)
	return db, moves
}

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
	out, _, code = anynt(t, "", "results", "--db", db, "--interactions", "--json")
	if n := strings.Count(out, "\n"); code != exitOK || n != moves || !strings.Contains(out, `"client_ms":400`) {
		t.Fatalf("--interactions --json: exit %d, %d lines; want %d", code, n, moves)
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

// TestServedURL is the address anynt serve prints: --addr's host as
// given (0.0.0.0 is not [::], which is how Go's listener on it reports
// itself) and the port the listener got.
func TestServedURL(t *testing.T) {
	for _, c := range []struct {
		addr      string
		listening net.Addr
		want      string
	}{
		{"0.0.0.0:8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://0.0.0.0:8080/"},
		{"127.0.0.1:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}, "http://127.0.0.1:41234/"},
		{"localhost:0", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 41234}, "http://localhost:41234/"},
		{"[::1]:9000", &net.TCPAddr{IP: net.IPv6loopback, Port: 9000}, "http://[::1]:9000/"},
		{":8080", &net.TCPAddr{IP: net.IPv6unspecified, Port: 8080}, "http://[::]:8080/"},
	} {
		if got := servedURL(c.addr, c.listening); got != c.want {
			t.Errorf("--addr %s listening on %s prints %s; want %s", c.addr, c.listening, got, c.want)
		}
	}
}

// oneMainLandmark checks that an XHTML page's body is one main element,
// the landmark a screen reader goes to, with the page's heading in it.
func oneMainLandmark(page []byte) error {
	dec := xml.NewDecoder(bytes.NewReader(page))
	dec.Strict = false
	dec.AutoClose = xml.HTMLAutoClose
	dec.Entity = xml.HTMLEntity
	var path []string
	var inBody []string // the body's child elements
	headingInMain := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("not well-formed: %w", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if len(path) > 0 && path[len(path)-1] == "body" {
				inBody = append(inBody, tok.Name.Local)
			}
			if tok.Name.Local == "h1" && slices.Contains(path, "main") {
				headingInMain = true
			}
			path = append(path, tok.Name.Local)
		case xml.EndElement:
			path = path[:len(path)-1]
		}
	}
	if !slices.Equal(inBody, []string{"main"}) || !headingInMain {
		return fmt.Errorf("the body holds %v, the heading in main %t; want one main landmark holding the page", inBody, headingInMain)
	}
	return nil
}
