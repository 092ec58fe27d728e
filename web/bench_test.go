package web_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// player is a simulated participant for the benchmarks: its own browser
// (cookie jar and connection) on loopback, clicking a different reachable
// cell at each step, and starting a new session when its test is over.
type player struct {
	base   string
	client *http.Client
	view   view
	turn   int
}

func newPlayer(b *testing.B, srv *httptest.Server) *player {
	b.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	p := &player{base: srv.URL, client: &http.Client{Jar: jar, Transport: &http.Transport{}}}
	b.Cleanup(p.client.CloseIdleConnections)
	if err := p.start(); err != nil {
		b.Fatal(err)
	}
	return p
}

// call sends a request as the page does and decodes the view.
func (p *player) call(path string, body any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, p.base+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", p.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: status %d: %s", path, res.StatusCode, answer)
	}
	p.view = view{}
	return json.Unmarshal(answer, &p.view)
}

func (p *player) start() error {
	return p.call("/api/start", map[string]any{"consent": true})
}

// step makes one move.
func (p *player) step() error {
	if p.view.Over {
		if err := p.start(); err != nil {
			return err
		}
	}
	var reachable []int
	for _, c := range p.view.Cells {
		if c.Accessible {
			reachable = append(reachable, c.Number)
		}
	}
	p.turn++
	v := p.view
	return p.call("/api/move", map[string]any{
		"participant": v.Participant, "seq": v.Seq, "cell": reachable[p.turn%len(reachable)], "client_ms": 1500.0,
	})
}

// BenchmarkMove is the time of one move of one participant, as the page
// sees it over loopback: the request, the checks, the study's move and its
// commit to SQLite (synchronous=FULL: one fsync a move), the answer.
func BenchmarkMove(b *testing.B) {
	p := newPlayer(b, serve(b, openStudy(b, study.Intro{})))
	b.ReportAllocs()
	for b.Loop() {
		if err := p.step(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParticipants is the server's throughput under many participants
// moving at once, each with its own connection, as fast as answers come:
// moves/s in all, and ns/op the wall time per move.
func BenchmarkParticipants(b *testing.B) {
	for _, n := range []int{1, 16, 64} {
		b.Run(fmt.Sprintf("participants=%d", n), func(b *testing.B) {
			srv := serve(b, openStudy(b, study.Intro{}))
			players := make([]*player, n)
			for i := range players {
				players[i] = newPlayer(b, srv)
			}
			var (
				next  atomic.Int64
				wg    sync.WaitGroup
				mu    sync.Mutex
				first error
			)
			b.ReportAllocs()
			b.ResetTimer()
			began := time.Now()
			for _, p := range players {
				wg.Go(func() {
					for next.Add(1) <= int64(b.N) {
						if err := p.step(); err != nil {
							mu.Lock()
							first = err
							mu.Unlock()
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(began)
			b.StopTimer()
			if first != nil {
				b.Fatal(first)
			}
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "moves/s")
		})
	}
}

// BenchmarkMoveHandler is the server's own time per move, without the
// network or a client: the handler called directly, the checks, the
// study's move and its commit, the JSON answer.
func BenchmarkMoveHandler(b *testing.B) {
	h := web.New(openStudy(b, study.Intro{}), web.Options{})
	var cookie *http.Cookie
	var v view
	serveJSON := func(path string, body any) {
		data, err := json.Marshal(body)
		if err != nil {
			b.Fatal(err)
		}
		req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		if cookie != nil {
			req.AddCookie(cookie)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("%s: %d %s", path, rec.Code, rec.Body)
		}
		if c := rec.Result().Cookies(); len(c) > 0 {
			cookie = c[0]
		}
		v = view{}
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			b.Fatal(err)
		}
	}
	serveJSON("/api/start", map[string]any{"consent": true})
	b.ReportAllocs()
	for b.Loop() {
		if v.Over {
			serveJSON("/api/start", map[string]any{"consent": true})
		}
		serveJSON("/api/move", map[string]any{"participant": v.Participant, "seq": v.Seq, "cell": v.you(), "client_ms": 1500.0})
	}
}
