package main

import (
	"bytes"
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
