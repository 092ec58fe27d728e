package lang

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Pos is a place in a source file. Line and Col count from 1; Col counts
// characters (runes), not bytes, so that a caret lines up under Unicode text.
type Pos struct {
	File string
	Line int
	Col  int
}

func (p Pos) String() string {
	if p.File == "" {
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Before orders positions within one file.
func (p Pos) Before(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// Error is one positioned message about a source file.
type Error struct {
	Pos   Pos
	Msg   string
	Cause error // what the message was made from, when another package's error
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Unwrap gives the cause, so that errors.As sees through a position.
func (e *Error) Unwrap() error { return e.Cause }

// ErrorList collects every error found in a file. It is itself an error;
// its text is one positioned message per line, sorted by file and position.
type ErrorList []*Error

// Add appends a formatted error at pos. The format may wrap an error with
// %w, as fmt.Errorf does; that error becomes the cause.
func (l *ErrorList) Add(pos Pos, format string, args ...any) {
	err := fmt.Errorf(format, args...)
	*l = append(*l, &Error{Pos: pos, Msg: err.Error(), Cause: errors.Unwrap(err)})
}

// Sort orders the errors by file name, then by position, and drops exact
// duplicates. A list of several files (a battery's, check's) so keeps each
// file's errors together: ordered by line alone, the files would
// interleave.
func (l *ErrorList) Sort() {
	sort.SliceStable(*l, func(i, j int) bool {
		a, b := (*l)[i].Pos, (*l)[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Before(b)
	})
	out := (*l)[:0]
	for _, e := range *l {
		// Compared by position and text: a cause need not be comparable.
		if n := len(out); n > 0 && e.Pos == out[n-1].Pos && e.Msg == out[n-1].Msg {
			continue
		}
		out = append(out, e)
	}
	*l = out
}

// Err returns nil for an empty list, else the sorted list.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

// Unwrap gives the errors of the list, so that errors.As finds a cause
// inside any of them.
func (l ErrorList) Unwrap() []error {
	out := make([]error, len(l))
	for i, e := range l {
		out[i] = e
	}
	return out
}

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}
