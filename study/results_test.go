package study_test

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
)

// The researcher's lists: every session with its answers and progress,
// and every interaction with the session's code and test, in order.
func TestParticipantsAndRecords(t *testing.T) {
	d := design(t, 2)
	d.Intro = study.Intro{AskCode: true, Questions: []string{"Age?"}}
	s, _ := open(t, d)
	begin := time.Now()
	a, va, err := s.Start(study.Answers{Code: "A1", Replies: []string{"30"}})
	if err != nil {
		t.Fatal(err)
	}
	b, vb, err := s.Start(study.Answers{Code: "B2", Replies: []string{"51"}})
	if err != nil {
		t.Fatal(err)
	}
	play(t, s, a, va, newClicker(8), -1)
	play(t, s, b, vb, newClicker(9), 12)
	ps, err := s.Participants()
	if err != nil {
		t.Fatal(err)
	}
	want := []study.Participant{
		{Number: 1, Code: "A1", Test: 1, Replies: []string{"30"}, Moves: 350, Finished: true},
		{Number: 2, Code: "B2", Test: 2, Replies: []string{"51"}, Moves: 12},
	}
	if len(ps) != len(want) {
		t.Fatalf("%d participants; want 2", len(ps))
	}
	for i, p := range ps {
		w := want[i]
		if p.Number != w.Number || p.Code != w.Code || p.Test != w.Test || !slices.Equal(p.Replies, w.Replies) ||
			p.Moves != w.Moves || p.Finished != w.Finished || p.Started.Before(begin.Add(-time.Second)) || p.Last.Before(p.Started) {
			t.Errorf("participant %+v; want %+v, started after the test began and before the last move", p, w)
		}
	}
	rs := records(t, s)
	if len(rs) != 362 {
		t.Fatalf("%d records; want 350 + 12", len(rs))
	}
	for i, r := range rs {
		p := ps[0]
		if i >= 350 {
			p = ps[1]
		}
		if r.Participant != p.Number || r.Code != p.Code || r.Test != p.Test || r.ClientMillis != 800 ||
			r.At.Before(p.Started) || r.At.After(p.Last) || r.Observation == "" {
			t.Fatalf("record %d: %+v, of participant %+v", i, r, p)
		}
	}
	stop := errors.New("enough")
	n := 0
	if err := s.Records(func(study.Record) error { n++; return stop }); err != stop || n != 1 {
		t.Errorf("Records went on after an error (%d calls) or did not return it: %v", n, err)
	}
}

// The time a move took is the page's when the server's measure bounds it,
// else the server's, and the page's (up to an hour) when the server's is
// unknown: right after a restart, which these moves come after.
func TestTheTimeAMoveTook(t *testing.T) {
	d := design(t, 1)
	s, path := open(t, d)
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	// The server serves the view, and the page says the click took 10 s:
	// more than the server measured, so the server's time counts.
	time.Sleep(5 * time.Millisecond)
	c := newClicker(10)
	if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 10_000}); err != nil {
		t.Fatal(err)
	}
	// The page's time within the server's counts.
	time.Sleep(5 * time.Millisecond)
	if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 2}); err != nil {
		t.Fatal(err)
	}
	// After a restart, the server has not served the view: the page's
	// time counts up to an hour, and beyond it the least, a millisecond.
	for _, client := range []float64{1500, 4_000_000, -3, 0.2} {
		s.Close()
		if s, err = study.Open(path, nil); err != nil {
			t.Fatal(err)
		}
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: client}); err != nil {
			t.Fatal(err)
		}
	}
	defer s.Close()
	rs := records(t, s)
	if r := rs[0]; !(r.ServerMillis >= 5 && r.ServerMillis < 10_000 && r.TookMillis == r.ServerMillis) {
		t.Errorf("a page claiming more than the server measured: %+v; the server's time counts", r)
	}
	if r := rs[1]; !(r.ServerMillis >= 5 && r.TookMillis == 2) {
		t.Errorf("a page's time within the server's: %+v; the page's counts", r)
	}
	for i, want := range []struct{ client, took float64 }{{1500, 1500}, {4_000_000, 1}, {0, 1}, {0.2, 1}} {
		if r := rs[2+i]; r.ServerMillis != 0 || r.ClientMillis != want.client || r.TookMillis != want.took {
			t.Errorf("after a restart: %+v; want client %v, took %v, server unknown", r, want.client, want.took)
		}
	}
}

// A step's server time runs from the first time its view was served: a
// page that asks for the view again (a reload, or a script that wants a
// short time) does not restart it, on the step's first view from Start
// or Move alike, and a second tab's view does not either. The time the
// step took is then the server's: the page's clock restarted with the
// page it drew again, and its time (here 1 ms) leaves out the think.
func TestTheServerTimesAStepFromItsFirstView(t *testing.T) {
	d := design(t, 1)
	s, _ := open(t, d)
	defer s.Close()
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	const think = 150 * time.Millisecond
	c := newClicker(11)
	for range 2 { // the first step's view came from Start, the second's from Move
		time.Sleep(think)
		if v, err = s.View(token); err != nil {
			t.Fatal(err)
		}
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range records(t, s) {
		if r.ServerMillis < float64(think.Milliseconds()) || r.TookMillis != r.ServerMillis || r.ClientMillis != 1 {
			t.Errorf("move %d: client_ms %v, server_ms %v, took_ms %v after %v of thought and a view served again; the timer must run from the step's first view, and its time count", i, r.ClientMillis, r.ServerMillis, r.TookMillis, think)
		}
	}
}

// A page's time is kept when it is a time a step can take, 0 to a day;
// otherwise (not a number, negative, absurdly long) it is kept as 0,
// unknown, and the server's time counts.
func TestThePagesTimeIsBounded(t *testing.T) {
	d := design(t, 1)
	s, _ := open(t, d)
	defer s.Close()
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClicker(12)
	sent := []float64{1e308, math.Inf(1), math.NaN(), -5, 86_400_001, 86_400_000, 250}
	kept := []float64{0, 0, 0, 0, 0, 86_400_000, 250}
	for _, ms := range sent {
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: ms}); err != nil {
			t.Fatal(err)
		}
	}
	for i, r := range records(t, s) {
		if r.ClientMillis != kept[i] {
			t.Errorf("client_ms %v is kept as %v; want %v", sent[i], r.ClientMillis, kept[i])
		}
		if kept[i] == 0 && r.TookMillis != max(r.ServerMillis, 1) {
			t.Errorf("client_ms %v: took_ms %v; want the server's %v", sent[i], r.TookMillis, r.ServerMillis)
		}
	}
}

// Outcomes gives the participants who finished as exam.Take gives an
// examinee: their tests' items renumbered by participant, and per item
// the payoffs of the run at the recorded times; v‖τ is the mean of the
// recorded rewards and τ the sum of the times the moves took.
func TestOutcomesAreThoseOfTheRecords(t *testing.T) {
	s, _ := open(t, design(t, 2))
	for p := range 3 {
		token, v, err := s.Start(study.Answers{})
		if err != nil {
			t.Fatal(err)
		}
		n := -1
		if p == 1 {
			n = 200 // participant 2 stops in exercise 5
		}
		play(t, s, token, v, newClicker(uint64(20+p)), n)
	}
	set := exam.DefaultSettings
	set.Score = exam.ScorePerCycle
	items, outs, who, err := s.Outcomes("people", set)
	if err != nil {
		t.Fatal(err)
	}
	if len(who) != 2 || who[0].Number != 1 || who[1].Number != 3 || len(items) != 14 || len(outs) != 14 {
		t.Fatalf("%d participants (%+v), %d items, %d outcomes; want participants 1 and 3, 14 items", len(who), who, len(items), len(outs))
	}
	design := s.Design().Items
	type key struct{ participant, exercise int }
	rewards, took := map[key][]float64{}, map[key]float64{}
	for _, r := range records(t, s) {
		k := key{r.Participant, r.Exercise}
		rewards[k] = append(rewards[k], r.Reward)
		took[k] += r.TookMillis
	}
	for i, o := range outs {
		p, x := who[i/7], i%7
		it := items[i]
		if want := design[(p.Test-1)*7+x]; it.Test != i/7+1 || it.Name != want.Name || it.Env != want.Env {
			t.Errorf("item %d is %s of test %d; want %s of test %d", i, it.Name, it.Test, want.Name, i/7+1)
		}
		k := key{p.Number, x + 1}
		mean := 0.0
		for _, r := range rewards[k] {
			mean += r
		}
		mean /= float64(len(rewards[k]))
		if o.Item != i || o.Agent != "people" || o.Values.Count != it.Steps || o.Values.PerCycle != mean || o.Score != mean {
			t.Errorf("participant %d, exercise %d: %+v; want v‖τ = score = %v, the mean recorded reward", p.Number, x+1, o, mean)
		}
		if want := took[k] / 1000; o.Tau < want-1e-6 || o.Tau > want+1e-6 {
			t.Errorf("participant %d, exercise %d: τ = %v s; the moves took %v s", p.Number, x+1, o.Tau, want)
		}
	}
	if _, _, _, err := s.Outcomes("people", exam.Settings{}); err == nil {
		t.Error("Outcomes with invalid settings gave no error")
	}
}
