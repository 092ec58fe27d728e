package web_test

import (
	"encoding/json"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// TestWholeExercise plays the first exercise through the API, a different
// reachable cell each step, and checks that the server made each move
// (the participant is where it clicked), counted it, showed its reward, and
// recorded it as shown.
func TestWholeExercise(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	v := b.start()
	if v.Participant != 1 || v.Test != 1 || v.Exercise != 1 || v.Step != 0 || v.Seq != 0 || v.Last != nil || v.Over {
		t.Fatalf("first view %+v", v)
	}
	if len(v.Exercises) != 7 || v.Exercises[0].Number != 1 {
		t.Fatalf("exercises %+v", v.Exercises)
	}
	steps := v.Exercises[0].Steps
	type shown struct{ cell, sign int }
	var moves []shown
	for k := 1; k <= steps; k++ {
		var reachable []int
		for _, c := range v.Cells {
			if c.Accessible {
				reachable = append(reachable, c.Number)
			}
		}
		if v.you() == 0 || !slices.Contains(reachable, v.you()) {
			t.Fatalf("step %d: the participant's cell %d is not among the reachable %v", k, v.you(), reachable)
		}
		cell := reachable[k%len(reachable)]
		v = b.decode(b.move(v, cell))
		if v.Seq != k {
			t.Fatalf("step %d: seq %d", k, v.Seq)
		}
		if v.Last == nil || v.Last.Exercise != 1 || v.Last.Step != k {
			t.Fatalf("step %d: last %+v", k, v.Last)
		}
		if want := sign(v.Last.Value); v.Last.Sign != want {
			t.Fatalf("step %d: sign %d for the value %v", k, v.Last.Sign, v.Last.Value)
		}
		if k < steps {
			if v.Exercise != 1 || v.Step != k || v.Exercises[0].Done != k {
				t.Fatalf("step %d: exercise %d step %d done %d", k, v.Exercise, v.Step, v.Exercises[0].Done)
			}
			if v.you() != cell {
				t.Fatalf("step %d: clicked cell %d, the participant is in %d", k, cell, v.you())
			}
		}
		moves = append(moves, shown{cell, v.Last.Sign})
	}
	if v.Exercise != 2 || v.Step != 0 || v.Exercises[0].Done != steps {
		t.Fatalf("after the exercise: exercise %d step %d, done %d of %d", v.Exercise, v.Step, v.Exercises[0].Done, steps)
	}
	rs := records(t, s)
	if len(rs) != steps {
		t.Fatalf("%d records for %d moves", len(rs), steps)
	}
	for i, r := range rs {
		if r.Participant != 1 || r.Exercise != 1 || r.Step != i+1 || r.Seq != i {
			t.Errorf("record %d: participant %d exercise %d step %d seq %d", i, r.Participant, r.Exercise, r.Step, r.Seq)
		}
		if r.Cell != moves[i].cell || sign(r.Reward) != moves[i].sign {
			t.Errorf("record %d: cell %d reward %v, the page clicked %d and showed sign %d", i, r.Cell, r.Reward, moves[i].cell, moves[i].sign)
		}
		if r.ClientMillis != 1500 {
			t.Errorf("record %d: client_ms %v, sent 1500", i, r.ClientMillis)
		}
	}
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestRefusals sends each kind of bad request and checks its status, that
// it says why, and that the study recorded nothing for it.
func TestRefusals(t *testing.T) {
	s := openStudy(t, study.Intro{})
	srv := serve(t, s)
	b := newBrowser(t, srv)
	v := b.start()
	other := newBrowser(t, srv)
	otherView := other.start()
	stranger := newBrowser(t, srv) // no session
	move := func(fields string) []byte { return []byte("{" + fields + "}") }
	good := `"participant":1,"seq":0,"cell":` + strconv.Itoa(v.you()) + `,"client_ms":10`
	setHeader := func(k, val string) func(*http.Request) { return func(r *http.Request) { r.Header.Set(k, val) } }
	// oldBrowser sends an Origin without Sec-Fetch-Site, as a browser
	// from before 2023 does: the Origin alone must then refuse it (a
	// browser that sends Sec-Fetch-Site says same-origin only for this
	// server's own pages).
	oldBrowser := func(origin string) func(*http.Request) {
		return func(r *http.Request) { r.Header.Set("Origin", origin); r.Header.Del("Sec-Fetch-Site") }
	}
	for _, c := range []struct {
		name   string
		by     *browser
		method string
		path   string
		body   []byte
		edit   func(*http.Request)
		status int
		says   string
	}{
		{"cross origin", b, "POST", "/api/move", move(good), oldBrowser("http://evil.example"), 403, "cross-origin"},
		{"other port", b, "POST", "/api/move", move(good), oldBrowser("http://127.0.0.1:1"), 403, "cross-origin"},
		{"null origin", b, "POST", "/api/move", move(good), oldBrowser("null"), 403, "cross-origin"},
		{"cross site", b, "POST", "/api/move", move(good), setHeader("Sec-Fetch-Site", "cross-site"), 403, "cross-site"},
		{"same site", b, "POST", "/api/move", move(good), setHeader("Sec-Fetch-Site", "same-site"), 403, "cross-site"},
		{"cross-site view", b, "GET", "/api/view", nil, setHeader("Sec-Fetch-Site", "cross-site"), 403, "cross-site"},
		{"text/plain", b, "POST", "/api/move", move(good), setHeader("Content-Type", "text/plain"), 403, "application/json"},
		{"form", b, "POST", "/api/move", []byte("participant=1&seq=0&cell=1"), setHeader("Content-Type", "application/x-www-form-urlencoded"), 403, "application/json"},
		{"no content type", b, "POST", "/api/move", move(good), func(r *http.Request) { r.Header.Del("Content-Type") }, 403, "application/json"},
		{"unknown field", b, "POST", "/api/move", move(good + `,"action":2`), nil, 400, "unknown field"},
		{"malformed", b, "POST", "/api/move", []byte(`{"participant":1,`), nil, 400, "malformed"},
		{"two values", b, "POST", "/api/move", []byte("{" + good + "}{}"), nil, 400, "more than one"},
		{"not a number", b, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":"1"`), nil, 400, "malformed"},
		{"fraction", b, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":1.5`), nil, 400, "malformed"},
		{"no cell", b, "POST", "/api/move", move(`"participant":1,"seq":0`), nil, 400, "needs participant, seq and cell"},
		{"cell 0", b, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":0`), nil, 400, study.ErrOutOfRange.Error()},
		{"cell past the last", b, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":` + strconv.Itoa(len(v.Cells)+1)), nil, 400, study.ErrOutOfRange.Error()},
		{"huge cell", b, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":99999999999`), nil, 400, ""},
		{"seq ahead", b, "POST", "/api/move", move(`"participant":1,"seq":1,"cell":1`), nil, 409, study.ErrStale.Error()},
		{"seq behind", b, "POST", "/api/move", move(`"participant":1,"seq":-1,"cell":1`), nil, 409, study.ErrStale.Error()},
		{"participant 0", b, "POST", "/api/move", move(`"participant":0,"seq":0,"cell":1`), nil, 400, "from 1"},
		{"another session's participant", b, "POST", "/api/move", move(`"participant":2,"seq":0,"cell":1`), nil, 403, "another session"},
		{"the other way round", other, "POST", "/api/move", move(`"participant":1,"seq":0,"cell":` + strconv.Itoa(otherView.you())), nil, 403, "another session"},
		{"no cookie, move", stranger, "POST", "/api/move", move(good), nil, 403, "no session"},
		{"empty cookie, view", stranger, "GET", "/api/view", nil, setHeader("Cookie", "anynt_session="), 403, "no session"},
		{"unknown session", stranger, "GET", "/api/view", nil, setHeader("Cookie", "anynt_session=00112233445566778899aabbccddeeff"), 403, study.ErrNoSession.Error()},
		{"unknown session, move", stranger, "POST", "/api/move", move(good), setHeader("Cookie", "anynt_session=00112233445566778899aabbccddeeff"), 403, study.ErrNoSession.Error()},
		{"long cookie", stranger, "GET", "/api/view", nil, setHeader("Cookie", "anynt_session="+strings.Repeat("a", 65)), 403, "no session"},
		{"padded past the limit", b, "POST", "/api/move", []byte("{" + good + "}" + strings.Repeat(" ", 5000)), nil, 413, "larger than 4096"},
		{"body too large", b, "POST", "/api/move", move(good + `,"client_ms":1` + strings.Repeat("0", 5000)), nil, 413, "larger than 4096"},
		{"start too large", stranger, "POST", "/api/start", []byte(`{"code":"` + strings.Repeat("x", 5000) + `"}`), nil, 413, "larger than 4096"},
		{"GET move", b, "GET", "/api/move", nil, nil, 405, "use POST"},
		{"POST view", b, "POST", "/api/view", move(""), nil, 405, "use GET"},
		{"PUT start", b, "PUT", "/api/start", move(""), nil, 405, "use POST"},
		{"POST page", b, "POST", "/", move(""), nil, 405, "use GET"},
		{"DELETE asset", b, "DELETE", "/assets/app.js", nil, nil, 405, "use GET"},
		{"no such API", b, "GET", "/api/records", nil, nil, 404, "no such page"},
		{"asset directory", b, "GET", "/assets/", nil, nil, 404, "no such page"},
		{"index.html", b, "GET", "/assets/index.html", nil, nil, 404, "no such page"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := len(records(t, s))
			r := c.by.do(c.method, c.path, c.body, c.edit)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if msg := errorOf(t, r); !strings.Contains(msg, c.says) {
				t.Errorf("message %q does not say %q", msg, c.says)
			}
			if r.status == http.StatusMethodNotAllowed && r.header.Get("Allow") == "" {
				t.Errorf("405 without Allow")
			}
			if got := r.header.Get("Content-Type"); got != "application/json" {
				t.Errorf("Content-Type %q", got)
			}
			if after := len(records(t, s)); after != before {
				t.Errorf("%d records after the refusal, %d before", after, before)
			}
		})
	}
	// After all that, the honest move still goes through.
	if w := b.decode(b.move(v, v.you())); w.Seq != 1 {
		t.Fatalf("seq %d after one move", w.Seq)
	}
}

// TestReplay sends the same move twice: the second is refused and the
// database holds one record of it.
func TestReplay(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	v := b.start()
	first := b.move(v, v.you())
	if first.status != http.StatusOK {
		t.Fatalf("first: %d %s", first.status, first.body)
	}
	again := b.move(v, v.you())
	if again.status != http.StatusConflict {
		t.Fatalf("replay: status %d, want 409: %s", again.status, again.body)
	}
	if msg := errorOf(t, again); !strings.Contains(msg, study.ErrStale.Error()) {
		t.Errorf("replay says %q", msg)
	}
	rs := records(t, s)
	if len(rs) != 1 || rs[0].Seq != 0 {
		t.Fatalf("records %+v, want one of seq 0", rs)
	}
	if w := b.decode(b.do("GET", "/api/view", nil, nil)); w.Seq != 1 {
		t.Fatalf("the view after the replay has seq %d, want 1", w.Seq)
	}
}

// TestInaccessible clicks a cell that cannot be reached: 422, nothing
// recorded. It stays in its cell until a view has such a cell.
func TestInaccessible(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	v := b.start()
	for v.cell(false) == 0 {
		if v.Over {
			t.Fatal("the test ended without an unreachable cell: choose another seed")
		}
		v = b.decode(b.move(v, v.you()))
	}
	before := len(records(t, s))
	r := b.move(v, v.cell(false))
	if r.status != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422: %s", r.status, r.body)
	}
	if msg := errorOf(t, r); !strings.Contains(msg, study.ErrNotAccessible.Error()) {
		t.Errorf("message %q", msg)
	}
	if after := len(records(t, s)); after != before {
		t.Errorf("%d records, %d before", after, before)
	}
}

// TestWholeTest plays the whole test, staying put, and checks the end:
// the last view is over with no cells, a further move is refused with 409,
// and every move is recorded.
func TestWholeTest(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	v := b.start()
	total := 0
	for _, x := range v.Exercises {
		total += x.Steps
	}
	last := v
	for !v.Over {
		last = v
		v = b.decode(b.move(v, v.you()))
	}
	if v.Seq != total || v.Exercise != len(v.Exercises)+1 || len(v.Cells) != 0 || v.Cells == nil {
		t.Fatalf("the end: seq %d of %d, exercise %d, cells %v", v.Seq, total, v.Exercise, v.Cells)
	}
	r := b.post("/api/move", map[string]any{"participant": 1, "seq": v.Seq, "cell": last.you()})
	if r.status != http.StatusConflict || !strings.Contains(errorOf(t, r), study.ErrOver.Error()) {
		t.Fatalf("a move after the end: %d %s", r.status, r.body)
	}
	if n := len(records(t, s)); n != total {
		t.Fatalf("%d records, %d moves", n, total)
	}
	if w := b.decode(b.do("GET", "/api/view", nil, nil)); !w.Over {
		t.Fatalf("the view after the end is not over: %+v", w)
	}
}

// TestIntro checks that the intro says what the study asks, and that
// /api/start refuses answers that do not give it.
func TestIntro(t *testing.T) {
	intro := study.Intro{Consent: "I agree to take part.", AskCode: true, Questions: []string{"Age?", "Hand?"}}
	s := openStudy(t, intro)
	srv := serve(t, s)
	b := newBrowser(t, srv)
	r := b.do("GET", "/api/intro", nil, nil)
	want := `{"version":"web-test","consent":"I agree to take part.","ask_code":true,"questions":["Age?","Hand?"]}` + "\n"
	if r.status != 200 || string(r.body) != want {
		t.Fatalf("intro %d %s, want %s", r.status, r.body, want)
	}
	for _, c := range []struct {
		name   string
		answer map[string]any
		status int
	}{
		{"no consent", map[string]any{"consent": false, "code": "P1", "replies": []string{"30", "left"}}, 400},
		{"no code", map[string]any{"consent": true, "code": "", "replies": []string{"30", "left"}}, 400},
		{"long code", map[string]any{"consent": true, "code": strings.Repeat("x", 65), "replies": []string{"30", "left"}}, 400},
		{"code with a zero-width space", map[string]any{"consent": true, "code": "P\u200b1", "replies": []string{"30", "left"}}, 400},
		{"code after a tab", map[string]any{"consent": true, "code": "\tP1", "replies": []string{"30", "left"}}, 400},
		{"one reply short", map[string]any{"consent": true, "code": "P1", "replies": []string{"30"}}, 400},
		{"long reply", map[string]any{"consent": true, "code": "P1", "replies": []string{strings.Repeat("y", 1001), "left"}}, 400},
		{"unknown field", map[string]any{"consent": true, "code": "P1", "replies": []string{"30", "left"}, "email": "a@b"}, 400},
		{"answered", map[string]any{"consent": true, "code": "P1", "replies": []string{"30", strings.Repeat("é", 500)}}, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newBrowser(t, srv).post("/api/start", c.answer)
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if r.status != 200 {
				errorOf(t, r)
				if r.header.Get("Set-Cookie") != "" {
					t.Errorf("a refused start set a cookie")
				}
			}
		})
	}
	ps, err := s.Participants()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Code != "P1" || ps[0].Replies[0] != "30" {
		t.Fatalf("participants %+v, want the one answered", ps)
	}
}

// TestCookie checks the session cookie's attributes, and that the view
// resumes with it and only with it.
func TestCookie(t *testing.T) {
	s := openStudy(t, study.Intro{})
	srv := serve(t, s)
	b := newBrowser(t, srv)
	r := b.post("/api/start", map[string]any{"consent": true})
	res := http.Response{Header: r.header}
	cookies := res.Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies %v", r.header.Values("Set-Cookie"))
	}
	c := cookies[0]
	if c.Name != "anynt_session" || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" || c.Secure || c.MaxAge != 0 || !c.Expires.IsZero() {
		t.Fatalf("cookie %s", r.header.Get("Set-Cookie"))
	}
	if len(c.Value) != 32 {
		t.Errorf("token %q is not 128 bits in hex", c.Value)
	}
	v := b.decode(r)
	w := b.decode(b.do("GET", "/api/view", nil, nil))
	if w.Participant != v.Participant || w.Seq != v.Seq {
		t.Fatalf("resumed %+v, started %+v", w, v)
	}
	if strings.Contains(string(r.body), c.Value) {
		t.Errorf("the body shows the token")
	}
}

// TestFirstVisit asks for the view as the page does on a first visit,
// with no cookie: the answer is 204, no session yet, not a refusal the
// browser would log; no session is made.
func TestFirstVisit(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	r := b.do("GET", "/api/view", nil, nil)
	if r.status != http.StatusNoContent || len(r.body) != 0 {
		t.Fatalf("a first visit's view: status %d, body %q; want 204 and no body", r.status, r.body)
	}
	if ps, err := s.Participants(); err != nil || len(ps) != 0 {
		t.Fatalf("a first visit made %d sessions (%v)", len(ps), err)
	}
}

// TestViewDoesNotRestartTheTimer thinks, asks for the view again and
// moves at once: the server's time of the move is the whole think, from
// the step's first view, not from the view asked for last.
func TestViewDoesNotRestartTheTimer(t *testing.T) {
	s := openStudy(t, study.Intro{})
	b := newBrowser(t, serve(t, s))
	b.start()
	const think = 200 * time.Millisecond
	time.Sleep(think)
	v := b.decode(b.do("GET", "/api/view", nil, nil))
	b.decode(b.move(v, v.you()))
	if r := records(t, s)[0]; r.ServerMillis < float64(think.Milliseconds()) || r.TookMillis < float64(think.Milliseconds()) {
		t.Fatalf("a move after %v of thought and a view asked for again: server_ms %v, took_ms %v", think, r.ServerMillis, r.TookMillis)
	}
}

// TestRestart closes the study under a page and opens it again behind a
// new server (a restarted process): the page's next move, answering the
// view it showed before the restart, goes through, its time the page's
// (the server's is unknown); after another restart the view resumes where
// it stopped, nothing lost.
func TestRestart(t *testing.T) {
	path := t.TempDir() + "/study.db"
	d := design(t, 2, study.Intro{})
	s, err := study.Open(path, d)
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, serve(t, s))
	v := b.start()
	for range 3 {
		v = b.decode(b.move(v, v.you()))
	}
	restart := func() {
		t.Helper()
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if s, err = study.Open(path, d); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		b.base = serve(t, s).URL // the same browser, its cookie, a new server
	}

	restart()
	v = b.decode(b.move(v, v.you()))
	if v.Seq != 4 {
		t.Fatalf("seq %d after a move across the restart, want 4", v.Seq)
	}
	rs := records(t, s)
	if len(rs) != 4 {
		t.Fatalf("%d records, want 4", len(rs))
	}
	if r := rs[3]; r.ServerMillis != 0 || r.TookMillis != 1500 {
		t.Errorf("the move across the restart: server_ms %v took_ms %v, want 0 and the page's 1500", r.ServerMillis, r.TookMillis)
	}

	restart()
	w := b.decode(b.do("GET", "/api/view", nil, nil))
	if w.Seq != 4 || w.Step != v.Step || w.you() != v.you() || !slices.EqualFunc(w.Cells, v.Cells, func(a, b struct {
		Number     int      `json:"number"`
		Objects    []string `json:"objects"`
		Accessible bool     `json:"accessible"`
	}) bool {
		return a.Number == b.Number && a.Accessible == b.Accessible && slices.Equal(a.Objects, b.Objects)
	}) {
		t.Fatalf("after reopening: %+v, before %+v", w, v)
	}
	if n := len(records(t, s)); n != 4 {
		t.Fatalf("%d records after reopening, want 4", n)
	}
	if w = b.decode(b.move(w, w.you())); w.Seq != 5 || w.Last == nil || math.IsNaN(w.Last.Value) {
		t.Fatalf("after the reopened move: %+v", w)
	}
}

// TestServerFault closes the study under the server: the request fails
// with 500 and a message that names nothing, and the logger gets the
// cause.
func TestServerFault(t *testing.T) {
	s, err := study.Open(t.TempDir()+"/study.db", design(t, 2, study.Intro{}))
	if err != nil {
		t.Fatal(err)
	}
	var logged strings.Builder
	srv := httptest.NewServer(web.New(s, web.Options{Logger: slog.New(slog.NewTextHandler(&logged, nil))}))
	defer srv.Close()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r := newBrowser(t, srv).post("/api/start", map[string]any{"consent": true})
	if r.status != http.StatusInternalServerError {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
	if msg := errorOf(t, r); strings.Contains(msg, "study.db") || strings.Contains(msg, "closed") {
		t.Errorf("the message shows the cause: %q", msg)
	}
	if !strings.Contains(logged.String(), "closed") || !strings.Contains(logged.String(), "/api/start") {
		t.Errorf("the log does not say what failed: %q", logged.String())
	}
}

// TestTLS serves over TLS: the cookie is Secure, and the Origin of a
// browser that does not send Sec-Fetch-Site must say https.
func TestTLS(t *testing.T) {
	srv := httptest.NewTLSServer(web.New(openStudy(t, study.Intro{}), web.Options{}))
	defer srv.Close()
	b := newBrowser(t, srv)
	r := b.post("/api/start", map[string]any{"consent": true})
	cookies := (&http.Response{Header: r.header}).Cookies()
	if r.status != http.StatusOK || len(cookies) != 1 || !cookies[0].Secure {
		t.Fatalf("start over TLS: %d, cookie %q", r.status, r.header.Get("Set-Cookie"))
	}
	v := b.decode(r)
	body := []byte(`{"participant":1,"seq":0,"cell":` + strconv.Itoa(v.you()) + `}`)
	plain := "http://" + strings.TrimPrefix(srv.URL, "https://")
	oldBrowser := func(r *http.Request) { r.Header.Set("Origin", plain); r.Header.Del("Sec-Fetch-Site") }
	if r := b.do("POST", "/api/move", body, oldBrowser); r.status != http.StatusForbidden {
		t.Fatalf("Origin %s over TLS: status %d", plain, r.status)
	}
	if r := b.do("POST", "/api/move", body, nil); r.status != http.StatusOK {
		t.Fatalf("Origin %s: status %d: %s", srv.URL, r.status, r.body)
	}
}

// TestDNSRebinding sends what a page of another site sends once it made
// its name resolve to 127.0.0.1: its own name as Host and Origin. The
// server on loopback refuses it, page and API, and answers its loopback
// names.
func TestDNSRebinding(t *testing.T) {
	s := openStudy(t, study.Intro{})
	srv := serve(t, s)
	b := newBrowser(t, srv)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	as := func(host string) func(*http.Request) {
		return func(r *http.Request) {
			r.Host = host
			if r.Header.Get("Origin") != "" {
				r.Header.Set("Origin", "http://"+host)
			}
		}
	}
	for _, c := range []struct {
		host   string
		status int
	}{
		{"evil.example:" + port, 403},
		{"evil.example", 403},
		{"localhost.evil.example:" + port, 403},
		{"10.0.0.1:" + port, 403},
		{"localhost:" + port, 200},
		{"127.0.0.1:" + port, 200},
		{"127.0.0.2:" + port, 200},
		{"[::1]:" + port, 200},
	} {
		for _, path := range []string{"/", "/assets/app.js", "/api/intro"} {
			if r := b.do("GET", path, nil, as(c.host)); r.status != c.status {
				t.Errorf("GET %s as %s: status %d, want %d", path, c.host, r.status, c.status)
			}
		}
		r := b.do("POST", "/api/start", []byte(`{"consent":true}`), as(c.host))
		if r.status != c.status {
			t.Errorf("POST /api/start as %s: status %d, want %d: %s", c.host, r.status, c.status, r.body)
		}
	}
	ps, err := s.Participants()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 4 {
		t.Errorf("%d sessions, want the 4 started under loopback names", len(ps))
	}
}

// TestLongReplies answers five questions at the study's longest: the body
// is over 4 KiB and is taken, since /api/start makes room for each reply.
func TestLongReplies(t *testing.T) {
	s := openStudy(t, study.Intro{Questions: []string{"1", "2", "3", "4", "5"}})
	b := newBrowser(t, serve(t, s))
	reply := strings.Repeat("x", study.MaxReply)
	body, err := json.Marshal(map[string]any{"replies": []string{reply, reply, reply, reply, reply}})
	if err != nil {
		t.Fatal(err)
	}
	if len(body) <= 4096 {
		t.Fatalf("the body is only %d bytes", len(body))
	}
	if r := b.do("POST", "/api/start", body, nil); r.status != http.StatusOK {
		t.Fatalf("status %d: %s", r.status, r.body)
	}
}

// TestBehindAnHTTPSProxy serves plain HTTP as anynt does behind a reverse
// proxy that serves HTTPS (docs/people.md's advice for a study over a
// network): the browser's page is https://HOST, so its Origin says https
// while the server sees no TLS. A browser that says the request is
// same-origin (Sec-Fetch-Site, which no page can forge) is believed, so a
// participant can take the test; without that header the Origin must
// still be this server's scheme and host, and a cross-site request is
// still refused.
func TestBehindAnHTTPSProxy(t *testing.T) {
	s := openStudy(t, study.Intro{})
	srv := serve(t, s)
	b := newBrowser(t, srv)
	secure := "https://" + strings.TrimPrefix(srv.URL, "http://")
	viaProxy := func(r *http.Request) { r.Header.Set("Origin", secure) }
	r := b.do("POST", "/api/start", []byte(`{"consent":true}`), viaProxy)
	if r.status != http.StatusOK {
		t.Fatalf("start from %s through the proxy: status %d: %s", secure, r.status, r.body)
	}
	v := b.decode(r)
	body := []byte(`{"participant":1,"seq":0,"cell":` + strconv.Itoa(v.you()) + `}`)
	if r := b.do("POST", "/api/move", body, viaProxy); r.status != http.StatusOK {
		t.Fatalf("move from %s through the proxy: status %d: %s", secure, r.status, r.body)
	}
	for _, c := range []struct {
		name string
		edit func(*http.Request)
	}{
		{"an old browser", func(r *http.Request) { r.Header.Set("Origin", secure); r.Header.Del("Sec-Fetch-Site") }},
		{"another site", func(r *http.Request) {
			r.Header.Set("Origin", "https://evil.example")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}},
		{"another site, old browser", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example"); r.Header.Del("Sec-Fetch-Site") }},
	} {
		body := []byte(`{"participant":1,"seq":1,"cell":` + strconv.Itoa(v.you()) + `}`)
		if r := b.do("POST", "/api/move", body, c.edit); r.status != http.StatusForbidden {
			t.Errorf("%s: status %d, want 403: %s", c.name, r.status, r.body)
		}
	}
	if n := len(records(t, s)); n != 1 {
		t.Errorf("%d moves recorded; want the one through the proxy", n)
	}
}

// TestStartsAreLimited starts sessions beyond the limit: the starts past
// the burst are refused with 429 and a Retry-After in whole seconds, and
// open no session, while the sessions started play on.
func TestStartsAreLimited(t *testing.T) {
	s := openStudy(t, study.Intro{})
	// A refill of one start in a million seconds: none comes back during
	// the test, however slow the machine.
	srv := httptest.NewServer(web.New(s, web.Options{Starts: web.StartLimit{PerSecond: 1e-6, Burst: 3}}))
	t.Cleanup(srv.Close)
	var started []*browser
	for i := range 5 {
		b := newBrowser(t, srv)
		r := b.post("/api/start", map[string]any{"consent": false, "code": "", "replies": []string{}})
		switch {
		case i < 3 && r.status != http.StatusOK:
			t.Fatalf("start %d within the burst: status %d %s", i+1, r.status, r.body)
		case i < 3:
			started = append(started, b)
		case r.status != http.StatusTooManyRequests || r.header.Get("Retry-After") == "" || !strings.Contains(errorOf(t, r), "try again in"):
			t.Fatalf("start %d beyond the burst: status %d, Retry-After %q, body %s; want 429 saying when to try again",
				i+1, r.status, r.header.Get("Retry-After"), r.body)
		}
		if secs, err := strconv.Atoi(r.header.Get("Retry-After")); i >= 3 && (err != nil || secs < 1) {
			t.Errorf("Retry-After %q is not whole seconds", r.header.Get("Retry-After"))
		}
	}
	if ps, err := s.Participants(); err != nil || len(ps) != 3 {
		t.Fatalf("%d sessions after 3 starts and 2 refused (%v)", len(ps), err)
	}
	for _, b := range started {
		v := b.decode(b.do("GET", "/api/view", nil, nil))
		b.decode(b.move(v, v.you()))
	}
}
