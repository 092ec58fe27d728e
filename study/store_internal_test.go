package study

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/anynt/anynt/exam"
)

// Every connection of the pool runs with the settings the durability
// promise rests on: WAL, synchronous=FULL (2), foreign keys, a busy
// timeout.
func TestConnectionsAreDurable(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), &Design{Protocol: "lambda-one", Seed: 1, Tests: 1, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.SetMaxIdleConns(0) // each query below on a new connection
	for range 3 {
		var mode string
		var sync, keys, busy int
		err := s.db.QueryRow(`SELECT journal_mode, synchronous, foreign_keys, timeout
			FROM pragma_journal_mode, pragma_synchronous, pragma_foreign_keys, pragma_busy_timeout`).Scan(&mode, &sync, &keys, &busy)
		if err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || sync != 2 || keys != 1 || busy < 1000 {
			t.Errorf("journal_mode %s, synchronous %d, foreign_keys %d, busy_timeout %d; want wal, 2, 1, ≥ 1000", mode, sync, keys, busy)
		}
	}
}

// A process keeps a bounded number of sessions in memory, however many
// are started (a script can start sessions as fast as the disk commits
// them); the ones it lets go, the least recently used, are rebuilt from
// the database when they come back, and every session plays on.
func TestSessionsInMemoryAreBounded(t *testing.T) {
	items, err := exam.LambdaOneItems(3, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), &Design{Protocol: "lambda-one", Seed: 3, Tests: 2, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.maxLive = 8
	var tokens []string
	var views []View
	for range 40 {
		token, v, err := s.Start(Answers{})
		if err != nil {
			t.Fatal(err)
		}
		tokens, views = append(tokens, token), append(views, v)
		if n := s.held(); n > s.maxLive {
			t.Fatalf("%d sessions in memory after %d started; at most %d", n, len(tokens), s.maxLive)
		}
	}
	for round := range 3 {
		for i, token := range tokens {
			v := views[i]
			next, err := s.Move(token, Move{Participant: v.Participant, Seq: v.Seq, Cell: stay(v)})
			if err != nil {
				t.Fatalf("round %d, participant %d: %v", round, v.Participant, err)
			}
			if next.Participant != i+1 || next.Seq != round+1 {
				t.Fatalf("round %d: session %d is participant %d at seq %d", round, i+1, next.Participant, next.Seq)
			}
			views[i] = next
			if n := s.held(); n > s.maxLive {
				t.Fatalf("%d sessions in memory; at most %d", n, s.maxLive)
			}
		}
	}
}

// held is the number of sessions in memory.
func (s *Study) held() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.live)
}

// stay is the participant's own cell in v, which is always reachable.
func stay(v View) int {
	for _, c := range v.Cells {
		for _, o := range c.Objects {
			if o == "you" {
				return c.Number
			}
		}
	}
	return 0
}

// Sessions let go of while others play (go test -race) come back whole:
// many participants move at once, each with a second request racing its
// moves, in a memory that holds a few of them, and every move of every
// one is recorded, in order.
func TestSessionsLetGoWhilePlaying(t *testing.T) {
	items, err := exam.LambdaOneItems(4, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), &Design{Protocol: "lambda-one", Seed: 4, Tests: 1, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.maxLive = 4
	const people, moves = 16, 25
	var wg sync.WaitGroup
	errs := make(chan error, people)
	for range people {
		wg.Go(func() {
			token, v, err := s.Start(Answers{})
			if err != nil {
				errs <- err
				return
			}
			var views sync.WaitGroup
			defer views.Wait()
			for range moves {
				views.Go(func() { s.View(token) })
				if v, err = s.Move(token, Move{Participant: v.Participant, Seq: v.Seq, Cell: stay(v)}); err != nil {
					errs <- fmt.Errorf("participant %d: %w", v.Participant, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seqs := map[int]int{}
	err = s.Records(func(r Record) error {
		if r.Seq != seqs[r.Participant] {
			return fmt.Errorf("participant %d: record %d follows %d", r.Participant, r.Seq, seqs[r.Participant])
		}
		seqs[r.Participant]++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seqs) != people {
		t.Fatalf("%d participants recorded; want %d", len(seqs), people)
	}
	for p, n := range seqs {
		if n != moves {
			t.Errorf("participant %d: %d moves recorded; want %d", p, n, moves)
		}
	}
}
