package study_test

import (
	"testing"

	"github.com/anynt/anynt/study"
)

// BenchmarkMove is the time of one move: checking it, playing it,
// committing its record (WAL, synchronous=FULL: a write and an fsync), and
// building the next view. A participant who finishes is followed by a new
// one.
func BenchmarkMove(b *testing.B) {
	s, _ := open(b, design(b, 1))
	c := newClicker(1)
	var token string
	v := study.View{Over: true}
	b.ReportAllocs()
	for b.Loop() {
		if v.Over {
			b.StopTimer()
			var err error
			if token, v, err = s.Start(study.Answers{}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		var err error
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 500}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMoveParallel is moves from many participants at once, each
// goroutine one participant after another: the throughput of the study,
// whose commits are serialised.
func BenchmarkMoveParallel(b *testing.B) {
	s, _ := open(b, design(b, 4))
	b.ReportAllocs()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		c := newClicker(2)
		var token string
		v := study.View{Over: true}
		for pb.Next() {
			var err error
			if v.Over {
				if token, v, err = s.Start(study.Answers{}); err != nil {
					b.Error(err)
					return
				}
			}
			if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 500}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkResume is the time to rebuild a session half-way through its
// test (175 moves, exercise 5) in a process that does not hold it, as
// after a restart: reading its records and replaying them from the seeds.
func BenchmarkResume(b *testing.B) {
	d := design(b, 1)
	s, path := open(b, d)
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		b.Fatal(err)
	}
	play(b, s, token, v, newClicker(3), 175)
	s.Close()
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		s, err := study.Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := s.View(token); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s.Close()
		b.StartTimer()
	}
}
