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
