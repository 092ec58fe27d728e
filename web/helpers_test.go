package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// The tests drive a real server on loopback over a real study in a SQLite
// file, with a real cookie jar: nothing is mocked.

// view is the API's view as a page reads it, by the documented names.
type view struct {
	Participant int `json:"participant"`
	Test        int `json:"test"`
	Exercises   []struct {
		Number int `json:"number"`
		Steps  int `json:"steps"`
		Done   int `json:"done"`
	} `json:"exercises"`
	Exercise int `json:"exercise"`
	Step     int `json:"step"`
	Seq      int `json:"seq"`
	Cells    []struct {
		Number     int      `json:"number"`
		Objects    []string `json:"objects"`
		Accessible bool     `json:"accessible"`
	} `json:"cells"`
	Last *struct {
		Exercise int     `json:"exercise"`
		Step     int     `json:"step"`
		Value    float64 `json:"value"`
		Sign     int     `json:"sign"`
	} `json:"last"`
	Over bool `json:"over"`
}

// you is the cell the participant is in, 0 if none.
func (v view) you() int {
	for _, c := range v.Cells {
		for _, o := range c.Objects {
			if o == "you" {
				return c.Number
			}
		}
	}
	return 0
}

// cell returns the first cell whose accessibility is accessible, 0 if none.
func (v view) cell(accessible bool) int {
	for _, c := range v.Cells {
		if c.Accessible == accessible {
			return c.Number
		}
	}
	return 0
}

// design is a Λ_one test of the seed, one test, with the intro.
func design(t testing.TB, seed uint64, intro study.Intro) *study.Design {
	t.Helper()
	items, err := exam.LambdaOneItems(seed, 1, "web-test")
	if err != nil {
		t.Fatal(err)
	}
	return &study.Design{
		Version: "web-test", Protocol: "lambda-one", Complexity: "K_approx", Strata: "cells",
		Seed: seed, Tests: 1, Items: items, Intro: intro,
	}
}

// openStudy opens a new study in a SQLite file in a temporary directory.
func openStudy(t testing.TB, intro study.Intro) *study.Study {
	t.Helper()
	s, err := study.Open(filepath.Join(t.TempDir(), "study.db"), design(t, 2, intro))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// serve serves the study on loopback.
func serve(t testing.TB, s *study.Study) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.New(s, web.Options{}))
	t.Cleanup(srv.Close)
	return srv
}

// browser is a participant's browser: a client with its own cookie jar,
// sending what the page sends.
type browser struct {
	t      testing.TB
	base   string
	client *http.Client
}

func newBrowser(t testing.TB, srv *httptest.Server) *browser {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := *srv.Client() // a copy: the server's client is shared
	c.Jar = jar
	return &browser{t, srv.URL, &c}
}

// response is an answer: its status, headers and body.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with the page's headers (same-origin JSON) and the
// changes of edit, if any.
func (b *browser) do(method, path string, body []byte, edit func(*http.Request)) response {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, b.base+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", b.base)
	}
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if edit != nil {
		edit(req)
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	return response{res.StatusCode, res.Header, data}
}

// post sends v as JSON.
func (b *browser) post(path string, v any) response {
	b.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, path, data, nil)
}

// view decodes a view from a 200 answer.
func (b *browser) decode(r response) view {
	b.t.Helper()
	if r.status != http.StatusOK {
		b.t.Fatalf("status %d: %s", r.status, r.body)
	}
	var v view
	if err := json.Unmarshal(r.body, &v); err != nil {
		b.t.Fatalf("%v: %s", err, r.body)
	}
	return v
}

// start answers an intro that asks nothing and returns the first view.
func (b *browser) start() view {
	b.t.Helper()
	return b.decode(b.post("/api/start", map[string]any{"consent": true, "code": "", "replies": []string{}}))
}

// move clicks the cell in answer to the view.
func (b *browser) move(v view, cell int) response {
	b.t.Helper()
	return b.post("/api/move", map[string]any{"participant": v.Participant, "seq": v.Seq, "cell": cell, "client_ms": 1500.0})
}

// records are the study's recorded interactions.
func records(t testing.TB, s *study.Study) []study.Record {
	t.Helper()
	var rs []study.Record
	if err := s.Records(func(r study.Record) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rs
}

// errorOf is the message of a refusal's JSON body.
func errorOf(t testing.TB, r response) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil || e.Error == "" {
		t.Fatalf("status %d: the body is not {\"error\":…}: %s", r.status, r.body)
	}
	return e.Error
}
