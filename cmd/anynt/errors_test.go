package main

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// One mistake can give an error a character, and each error quotes its
// line: unbounded, a line of 16,000 stray braces wrote 385 MB of errors.
// At most maxFileErrors errors of each file are printed, then how many
// more there are; a long line is quoted as a window of maxLineShown
// characters around the column, the caret still under it.
func TestErrorOutputIsBounded(t *testing.T) {
	braces := writeFile(t, "braces.anynt", strings.Repeat("}", 2000)+"\n")
	few := writeFile(t, "few.anynt", strings.Repeat("}\n", maxFileErrors+3))
	_, errw, code := anynt(t, "", "check", braces, few)
	if code != exitFile {
		t.Fatalf("status %d, want %d", code, exitFile)
	}
	for _, file := range []string{braces, few} {
		if n := errorsPrinted(errw, file); n != maxFileErrors {
			t.Errorf("%s: %d errors printed, want %d", file, n, maxFileErrors)
		}
	}
	if want := few + ": and 3 more errors\n"; !strings.Contains(errw, want) {
		t.Errorf("the errors lack %q:\n%.2000s", want, errw)
	}
	if !strings.Contains(errw, braces+": and ") {
		t.Errorf("the errors of %s do not say how many more there are:\n%.2000s", braces, errw)
	}
	for line := range strings.Lines(errw) {
		if n := utf8.RuneCountInString(line); n > maxLineShown+len(braces)+80 {
			t.Errorf("a line of %d characters: %.80q…", n, line)
		}
	}
	if len(errw) > 2*maxFileErrors*(maxLineShown+len(braces)+80) {
		t.Errorf("%d bytes of errors", len(errw))
	}
}

// errorsPrinted counts the lines of errw that start an error of file.
func errorsPrinted(errw, file string) int {
	n := 0
	for line := range strings.Lines(errw) {
		var l, c int
		if rest, ok := strings.CutPrefix(line, file+":"); ok {
			if _, err := fmt.Sscanf(rest, "%d:%d:", &l, &c); err == nil {
				n++
			}
		}
	}
	return n
}

// A line longer than maxLineShown is cut around the column, and the caret
// points at the same character as in the whole line.
func TestLongLinesAreQuotedAroundTheColumn(t *testing.T) {
	for _, prefix := range []int{0, 10, 500} {
		t.Run(fmt.Sprint(prefix), func(t *testing.T) {
			text := strings.Repeat("a", prefix) + " -> χ " + strings.Repeat("b", 600)
			file := writeFile(t, "long.anynt", text+"\n")
			_, errw, code := anynt(t, "", "check", file)
			if code != exitFile {
				t.Fatalf("status %d, want %d", code, exitFile)
			}
			lines := strings.Split(errw, "\n")
			if len(lines) < 3 || !strings.HasPrefix(lines[0], fmt.Sprintf("%s:1:%d:", file, prefix+5)) {
				t.Fatalf("the error is not at column %d:\n%s", prefix+5, errw)
			}
			quoted := []rune(strings.TrimPrefix(lines[1], "\t"))
			pad := strings.TrimSuffix(strings.TrimPrefix(lines[2], "\t"), "^")
			if len(quoted) > maxLineShown+2 {
				t.Errorf("the line is quoted with %d characters, more than %d and two …", len(quoted), maxLineShown)
			}
			if at := utf8.RuneCountInString(pad); at >= len(quoted) || quoted[at] != 'χ' {
				t.Errorf("the caret is not under χ:\n%s\n%s", lines[1], lines[2])
			}
		})
	}
}
