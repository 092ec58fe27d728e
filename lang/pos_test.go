package lang

import (
	"errors"
	"testing"
)

// An error added with %w keeps its cause, and errors.As finds the cause
// through the list; duplicates are dropped even when the cause is a value
// that == cannot compare.
func TestErrorListKeepsCauses(t *testing.T) {
	cause := &struct{ error }{errors.New("inner")}
	var l ErrorList
	l.Add(Pos{File: "f", Line: 2, Col: 1}, "outer: %w", cause)
	l.Add(Pos{File: "f", Line: 2, Col: 1}, "outer: %w", cause)
	l.Add(Pos{File: "f", Line: 3, Col: 1}, "list: %w", ErrorList{{Msg: "a slice"}})
	l.Add(Pos{File: "f", Line: 3, Col: 1}, "list: %w", ErrorList{{Msg: "a slice"}})
	l.Add(Pos{File: "f", Line: 1, Col: 1}, "plain %d", 1)
	err := l.Err()
	want := "f:1:1: plain 1\nf:2:1: outer: inner\nf:3:1: list: 0:0: a slice"
	if err.Error() != want {
		t.Fatalf("got %q, want %q", err.Error(), want)
	}
	var got *struct{ error }
	if !errors.As(err, &got) || got != cause {
		t.Errorf("errors.As did not find the cause through the list")
	}
}

// A list of several files keeps each file's errors together, the files by
// name, each file's errors by position: by line alone, the files' errors
// would interleave.
func TestErrorListKeepsFilesTogether(t *testing.T) {
	var l ErrorList
	l.Add(Pos{File: "z.anynt", Line: 3, Col: 1}, "z3")
	l.Add(Pos{File: "a.anynt", Line: 1, Col: 1}, "a1")
	l.Add(Pos{File: "z.anynt", Line: 1, Col: 1}, "z1")
	l.Add(Pos{File: "a.anynt", Line: 2, Col: 1}, "a2")
	want := "a.anynt:1:1: a1\na.anynt:2:1: a2\nz.anynt:1:1: z1\nz.anynt:3:1: z3"
	if got := l.Err().Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
