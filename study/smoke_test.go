package study_test

import (
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
)

func TestSmoke(t *testing.T) {
	items, err := exam.LambdaOneItems(3, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	d := &study.Design{Protocol: "lambda-one", Seed: 3, Tests: 2, Items: items}
	s, err := study.Open(filepath.Join(t.TempDir(), "s.db"), d)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tok, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %+v", tok, v)
	for !v.Over {
		c := 0
		for _, cell := range v.Cells {
			if cell.Accessible {
				c = cell.Number
			}
		}
		v, err = s.Move(tok, study.Move{Seq: v.Seq, Cell: c, ClientMillis: 500})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%+v", v)
}
