package fuzz

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
	"github.com/google/go-cmp/cmp"
)

// FuzzStudy answers a study's intro with fuzzed answers and sends fuzzed
// moves (participant, seq, cell, the page's time), and checks what package
// study promises: answers are accepted or refused with ErrIntro; each move
// is played, or refused with the error its first fault calls for
// (another participant, a stale seq, the end of the test, a cell out of
// range, one no action reaches) and changes nothing; and a study opened
// again on the file resumes at the same view.
func FuzzStudy(f *testing.F) {
	f.Add(true, "P-1", "41", []byte{1, 1, 0, 1, 1, 2, 9, 0, 1, 3, 200, 1, 0, 0, 0, 2})
	f.Add(false, "", "", []byte{})
	f.Add(true, "a\x00b", "x", []byte{1, 1, 1, 1})
	f.Add(true, "P-2", "", []byte{1, 255, 7, 1, 0, 1, 7, 0, 2, 2, 7, 1, 1, 40, 7, 0})
	items, err := exam.LambdaOneItems(5, 1, "fuzz")
	if err != nil {
		f.Fatal(err)
	}
	d := &study.Design{Protocol: "lambda-one", Seed: 5, Tests: 1, Items: items[:2],
		Intro: study.Intro{Consent: "I agree.", AskCode: true, Questions: []string{"Age?"}}}
	f.Fuzz(func(t *testing.T, consent bool, code, reply string, moves []byte) {
		path := filepath.Join(t.TempDir(), "study.db")
		s, err := study.Open(path, d)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { s.Close() }()
		token, v, err := s.Start(study.Answers{Consent: consent, Code: code, Replies: []string{reply}})
		if err != nil {
			if !errors.Is(err, study.ErrIntro) {
				t.Fatalf("Start: %v; a refusal is ErrIntro", err)
			}
			if ps, err := s.Participants(); err != nil || len(ps) != 0 {
				t.Fatalf("a refused intro left %d sessions (%v)", len(ps), err)
			}
			return
		}
		for i := 0; i+4 <= len(moves) && i < 4*60; i += 4 {
			m := study.Move{Participant: int(moves[i] % 3), Seq: v.Seq + int(moves[i+1]%3) - 1,
				Cell: int(int8(moves[i+2])), ClientMillis: float64(moves[i+3]) * 37}
			want := expected(v, m)
			next, err := s.Move(token, m)
			if !errors.Is(err, want) || (err == nil) != (want == nil) {
				t.Fatalf("move %+v on view %+v: %v; want %v", m, v, err, want)
			}
			if err != nil {
				again, err := s.View(token)
				if err != nil || !cmp.Equal(again, v) {
					t.Fatalf("a refused move changed the view to %+v (%v)", again, err)
				}
				continue
			}
			if next.Seq != v.Seq+1 || next.Last == nil {
				t.Fatalf("move %+v went from seq %d to %d, last %+v", m, v.Seq, next.Seq, next.Last)
			}
			v = next
		}
		s.Close()
		if s, err = study.Open(path, d); err != nil {
			t.Fatal(err)
		}
		again, err := s.View(token)
		if err != nil || !cmp.Equal(again, v) {
			t.Fatalf("after reopening: %+v (%v); want %+v", again, err, v)
		}
	})
}

// expected is the refusal the study owes move m on view v, or nil.
func expected(v study.View, m study.Move) error {
	switch {
	case m.Participant != 0 && m.Participant != v.Participant:
		return study.ErrOtherSession
	case m.Seq != v.Seq:
		return study.ErrStale
	case v.Over:
		return study.ErrOver
	case m.Cell < 1 || m.Cell > len(v.Cells):
		return study.ErrOutOfRange
	case !v.Cells[m.Cell-1].Accessible:
		return study.ErrNotAccessible
	}
	return nil
}
