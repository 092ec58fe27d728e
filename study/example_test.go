package study_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
)

// A study of one Λ_one test: a participant starts, sees the first
// exercise's cells, and clicks an accessible one; the move is committed to
// the database before Move returns, and the same request sent again (a
// replay) is refused.
func Example() {
	dir, err := os.MkdirTemp("", "study")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	items, err := exam.LambdaOneItems(1, 1, "example")
	if err != nil {
		log.Fatal(err)
	}
	s, err := study.Open(filepath.Join(dir, "study.db"), &study.Design{Protocol: "lambda-one", Seed: 1, Tests: 1, Items: items})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	token, v, err := s.Start(study.Answers{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("participant %d, test %d, exercise %d of %d (%d steps)\n", v.Participant, v.Test, v.Exercise, len(v.Exercises), v.Exercises[0].Steps)
	target := 0
	for _, c := range v.Cells {
		fmt.Printf("cell %d: %v accessible=%t\n", c.Number, c.Objects, c.Accessible)
		if c.Accessible {
			target = c.Number
		}
	}
	v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: target, ClientMillis: 1200})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("clicked cell %d: reward %v (sign %d), step %d, next seq %d\n", target, v.Last.Value, v.Last.Sign, v.Step, v.Seq)
	_, err = s.Move(token, study.Move{Seq: 0, Cell: target})
	fmt.Println(err)
	// Output:
	// participant 1, test 1, exercise 1 of 7 (20 steps)
	// cell 1: [you club] accessible=true
	// cell 2: [] accessible=false
	// cell 3: [bowtie] accessible=true
	// clicked cell 3: reward 1 (sign 1), step 1, next seq 1
	// the move does not answer the current view (replayed or out of order): the move answers view 0; the current view is 1
}

// A server holds the study's database for as long as it records moves in
// it: a second holder, in this process or another, is refused, while a
// reader (anynt results) opens the study beside it.
func ExampleOpenHeld() {
	dir, err := os.MkdirTemp("", "study")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	items, err := exam.LambdaOneItems(1, 1, "example")
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "study.db")
	server, err := study.OpenHeld(path, &study.Design{Protocol: "lambda-one", Seed: 1, Tests: 1, Items: items})
	if err != nil {
		log.Fatal(err)
	}
	defer server.Close()
	_, err = study.OpenHeld(path, nil)
	fmt.Println("a second holder is refused:", errors.Is(err, study.ErrHeld))
	reader, err := study.Open(path, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer reader.Close()
	ps, err := reader.Participants()
	fmt.Println("a reader reads:", len(ps), "participants,", err)
	// Output:
	// a second holder is refused: true
	// a reader reads: 0 participants, <nil>
}
