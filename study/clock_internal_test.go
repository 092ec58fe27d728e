package study

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/anynt/anynt/exam"
)

// fakeClock is a server clock a test moves by hand, so that a think of
// seconds takes none.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) pass(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// clockedStudy opens a study at path whose server timers run on a fake
// clock, holding at most maxLive sessions in memory.
func clockedStudy(t *testing.T, path string, clock *fakeClock, maxLive int) *Study {
	t.Helper()
	items, err := exam.LambdaOneItems(5, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, &Design{Protocol: "lambda-one", Seed: 5, Tests: 1, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.now, s.maxLive = clock.now, maxLive
	return s
}

// lastRecord is the last recorded interaction of the study.
func lastRecord(t *testing.T, s *Study) Record {
	t.Helper()
	var last Record
	if err := s.Records(func(r Record) error { last = r; return nil }); err != nil {
		t.Fatal(err)
	}
	return last
}

// A page's time counts only within the server's measure less
// NetworkAllowance and the server's: a page that claims 1 ms after 2 s
// of thought is counted the server's 2 s less the allowance, and the
// record says the claim was cut; an honest page's time, within the
// allowance, counts as it is; a longer one gives the server's. On the
// first step of a later exercise, whose server time holds the pause
// screen, the page's time counts below it.
func TestAShortClaimIsCut(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	s := clockedStudy(t, filepath.Join(t.TempDir(), "s.db"), clock, maxSessionsInMemory)
	token, v, err := s.Start(Answers{})
	if err != nil {
		t.Fatal(err)
	}
	const think = 2 * time.Second
	allowance := float64(NetworkAllowance.Milliseconds())
	for _, c := range []struct {
		client, took float64
		cut          bool
	}{
		{1, 2000 - allowance, true},
		{2000 - allowance - 1, 2000 - allowance, true},
		{2000 - allowance, 2000 - allowance, false},
		{1900, 1900, false},
		{2000, 2000, false},
		{2600, 2000, false},
		{0, 2000, false}, // no claim: the server's counts
	} {
		clock.pass(think)
		if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: c.client}); err != nil {
			t.Fatal(err)
		}
		r := lastRecord(t, s)
		if r.ServerMillis != 2000 || r.ClientMillis != c.client || r.TookMillis != c.took || r.ClientCut != c.cut {
			t.Errorf("a claim of %v ms after %v: server_ms %v, client_ms %v, took_ms %v, cut %t; want took %v, cut %t",
				c.client, think, r.ServerMillis, r.ClientMillis, r.TookMillis, r.ClientCut, c.took, c.cut)
		}
	}

	// The first step of the next exercise: the server's time holds the
	// pause screen, the page's does not, and counts; the step after has
	// the floor again.
	for v.Exercise == 1 {
		if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for step, want := range []struct {
		took float64
		cut  bool
	}{{1800, false}, {30_000 - allowance, true}} {
		clock.pass(30 * time.Second)
		if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1800}); err != nil {
			t.Fatal(err)
		}
		if r := lastRecord(t, s); r.Exercise != 2 || r.Step != step+1 || r.TookMillis != want.took || r.ClientCut != want.cut {
			t.Errorf("a claim of 1800 ms 30 s after the view: exercise %d step %d, took_ms %v, cut %t; want exercise 2 step %d, took %v, cut %t",
				r.Exercise, r.Step, r.TookMillis, r.ClientCut, step+1, want.took, want.cut)
		}
	}
}

// The server's timer of a participant's move survives their session
// being let go from memory by a flood of new sessions: the participant's
// claim of 1 ms after 2 s is still cut to the server's time less the
// allowance, and a view served again before the flood still makes the
// server's time count. A timer of another process (a restart) stays
// unknown, and the page's time counts.
func TestAnEvictionKeepsTheServersTimer(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	path := filepath.Join(t.TempDir(), "s.db")
	s := clockedStudy(t, path, clock, 8)
	flood := func() {
		t.Helper()
		for range 3 * s.maxLive {
			if _, _, err := s.Start(Answers{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	token, v, err := s.Start(Answers{})
	if err != nil {
		t.Fatal(err)
	}
	hash := hashToken(token)
	evicted := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.live[hash] == nil
	}
	allowance := float64(NetworkAllowance.Milliseconds())

	clock.pass(2 * time.Second)
	flood()
	if !evicted() {
		t.Fatal("the flood did not let the participant's session go; the test tests nothing")
	}
	if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, s); r.ServerMillis != 2000 || r.TookMillis != 2000-allowance || !r.ClientCut {
		t.Errorf("a claim of 1 ms after 2 s and an eviction: server_ms %v, took_ms %v, cut %t; want 2000, %v, true",
			r.ServerMillis, r.TookMillis, r.ClientCut, 2000-allowance)
	}

	clock.pass(time.Second)
	if _, err := s.View(token); err != nil { // served again: the page's clock restarted
		t.Fatal(err)
	}
	clock.pass(time.Second)
	flood()
	if !evicted() {
		t.Fatal("the second flood did not let the participant's session go")
	}
	if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, s); r.ServerMillis != 2000 || r.TookMillis != 2000 || r.ClientCut {
		t.Errorf("a view served again, an eviction, and a claim of 1 ms: server_ms %v, took_ms %v, cut %t; want the server's 2000",
			r.ServerMillis, r.TookMillis, r.ClientCut)
	}

	s.Close()
	restarted := clockedStudy(t, path, clock, 8)
	clock.pass(2 * time.Second)
	if _, err = restarted.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1500}); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, restarted); r.ServerMillis != 0 || r.TookMillis != 1500 || r.ClientCut {
		t.Errorf("a move across a restart: server_ms %v, took_ms %v, cut %t; want unknown, the page's 1500", r.ServerMillis, r.TookMillis, r.ClientCut)
	}
}

// A session whose timer could not be written to the database is not let
// go from memory, where its timer is, however many sessions start: the
// claim of 1 ms after 2 s is still cut.
func TestAnUnkeptTimerKeepsItsSession(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	s := clockedStudy(t, filepath.Join(t.TempDir(), "s.db"), clock, 8)
	timers := s.clock
	timers.Close() // every timer's write now fails
	token, v, err := s.Start(Answers{})
	if err != nil {
		t.Fatal(err)
	}
	s.clock = nil // the others' timers are not written, and the study closes
	for range 3 * s.maxLive {
		if _, _, err := s.Start(Answers{}); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	held := s.live[hashToken(token)] != nil
	s.mu.Unlock()
	if !held {
		t.Fatal("the session whose timer could not be written was let go")
	}
	clock.pass(2 * time.Second)
	if _, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, s); r.ServerMillis != 2000 || !r.ClientCut {
		t.Errorf("a claim of 1 ms after 2 s, the timer unkept: server_ms %v, cut %t; want 2000, cut", r.ServerMillis, r.ClientCut)
	}
}
