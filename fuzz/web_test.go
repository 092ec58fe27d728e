package fuzz

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// FuzzWeb sends fuzzed requests (method, path, headers, body, with or
// without the session's cookie) to the web server over a study on a real
// SQLite file, and checks what package web promises: every answer carries
// the security headers, a refusal is JSON with one of the documented
// statuses (never 500), and only a 200 to /api/move records a move, one.
func FuzzWeb(f *testing.F) {
	f.Add("POST", "/api/move", "application/json", "", "same-origin", true, []byte(`{"participant":1,"seq":0,"cell":1,"client_ms":5}`))
	f.Add("POST", "/api/move", "application/json; charset=utf-8", "http://example.com", "", true, []byte(`{"participant":1,"seq":0,"cell":2}`))
	f.Add("POST", "/api/move", "text/plain", "", "cross-site", true, []byte(`{"participant":1,"seq":0,"cell":1}`))
	f.Add("GET", "/api/view", "", "", "", false, []byte(nil)) // a first visit: no session yet, 204
	f.Add("POST", "/api/start", "application/json", "", "none", false, []byte(`{"consent":true,"code":"P1","replies":["x"]}`))
	f.Add("GET", "/api/view", "", "", "", true, []byte(nil))
	f.Add("GET", "/assets/app.js", "", "", "", false, []byte(nil))
	f.Add("PUT", "/api/move", "application/json", "", "", true, []byte(`{"participant":1,"seq":0,"cell":1}{}`))
	f.Add("POST", "/api/move", "application/json", "", "", true, []byte(`{"participant":1,"seq":0,"cell":1,"x":1}`))
	items, err := exam.LambdaOneItems(5, 1, "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	d := &study.Design{Protocol: "lambda-one", Seed: 5, Tests: 1, Items: items[:2],
		Intro: study.Intro{Consent: "I agree.", AskCode: true, Questions: []string{"Age?"}}}
	s, err := study.Open(filepath.Join(f.TempDir(), "study.db"), d)
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	token, _, err := s.Start(study.Answers{Consent: true, Code: "P0", Replies: []string{""}})
	if err != nil {
		f.Fatal(err)
	}
	h := web.New(s, web.Options{})
	// 429 is a start beyond the start limit, which a fuzzer's many starts
	// on one server reach.
	allowed := []int{200, 204, 400, 403, 404, 405, 409, 413, 422, 429}
	f.Fuzz(func(t *testing.T, method, path, contentType, origin, fetchSite string, cookie bool, body []byte) {
		req, err := http.NewRequest(method, "http://127.0.0.1:8080/", bytes.NewReader(body))
		if err != nil {
			return // not a request a client could send
		}
		req.URL.Path = path
		for k, v := range map[string]string{"Content-Type": contentType, "Origin": origin, "Sec-Fetch-Site": fetchSite} {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		if cookie {
			req.AddCookie(&http.Cookie{Name: "anynt_session", Value: token})
		}
		before := moves(t, s)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Fatalf("%s %s: %d without the security headers", method, path, rec.Code)
		}
		if !slices.Contains(allowed, rec.Code) {
			t.Fatalf("%s %s: status %d: %s", method, path, rec.Code, rec.Body)
		}
		if rec.Code == http.StatusTooManyRequests && rec.Header().Get("Retry-After") == "" {
			t.Fatalf("%s %s: 429 without Retry-After", method, path)
		}
		if rec.Code == http.StatusNoContent && rec.Body.Len() > 0 {
			t.Fatalf("%s %s: 204 with a body: %q", method, path, rec.Body)
		}
		if rec.Code != http.StatusOK && rec.Code != http.StatusNoContent {
			var e struct {
				Error string `json:"error"`
			}
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
				t.Fatalf("%s %s: %d is not a JSON refusal: %q", method, path, rec.Code, rec.Body)
			}
		}
		want := before
		if rec.Code == http.StatusOK && method == http.MethodPost && path == "/api/move" {
			want++
		}
		if after := moves(t, s); after != want {
			t.Fatalf("%s %s %q: status %d, %d moves recorded, was %d", method, path, body, rec.Code, after, before)
		}
	})
}

// moves counts the recorded moves.
func moves(t *testing.T, s *study.Study) int {
	n := 0
	if err := s.Records(func(study.Record) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	return n
}
