package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
)

// printError prints errors one a line; a positioned error gets the line of
// its file and a caret under the column. At most maxFileErrors errors of a
// file are printed, then a line that counts the rest: one mistake can give
// an error a character (a line of stray braces), and each error quotes its
// line.
func printError(w io.Writer, err error) {
	var list lang.ErrorList
	if errors.As(err, &list) {
		var src sources
		shown := 0
		for i, e := range list {
			if i > 0 && e.Pos.File != list[i-1].Pos.File {
				shown = 0
			}
			if shown++; shown <= maxFileErrors {
				src.printPositioned(w, e)
				continue
			}
			if i+1 == len(list) || list[i+1].Pos.File != e.Pos.File {
				printMore(w, e.Pos.File, shown-maxFileErrors)
			}
		}
		return
	}
	var one *lang.Error
	if errors.As(err, &one) {
		new(sources).printPositioned(w, one)
		return
	}
	fmt.Fprintf(w, "anynt: %v\n", err)
}

// maxFileErrors is how many errors of one file are printed.
const maxFileErrors = 20

// printMore says how many errors of file were not printed.
func printMore(w io.Writer, file string, n int) {
	noun := "errors"
	if n == 1 {
		noun = "error"
	}
	if file == "" {
		fmt.Fprintf(w, "and %d more %s\n", n, noun)
		return
	}
	fmt.Fprintf(w, "%s: and %d more %s\n", file, n, noun)
}

// sources holds the text of the file the last error pointed into, so
// that a file of n errors, which come together in a sorted list, is read
// once, not n times: for a large file of many errors (a file may be 64
// MiB) that would be quadratic. Holding one file, not every file met,
// keeps the memory of one. A file that cannot be read has no lines, and
// its errors print alone. The line last found is a cursor into the text:
// errors come in order of lines, so finding each one's line walks the
// file once, without splitting it into lines.
type sources struct {
	file     string
	text     string
	read     bool
	readable bool
	// lineNo is the line that starts at byte off of text.
	lineNo, off int
}

func (src *sources) printPositioned(w io.Writer, e *lang.Error) {
	fmt.Fprintln(w, e.Error())
	line, ok := src.line(e.Pos)
	if !ok {
		return
	}
	line, col := quoted(line, e.Pos.Col)
	fmt.Fprintf(w, "\t%s\n\t%s^\n", line, caretPad(line, col))
}

// line is line p.Line of file p.File, reading the file the first time.
func (src *sources) line(p lang.Pos) (string, bool) {
	if p.File == "" || p.Line < 1 {
		return "", false
	}
	if !src.read || src.file != p.File {
		src.file, src.text, src.read, src.readable = p.File, "", true, false
		if text, err := generate.ReadSource(p.File); err == nil {
			src.text, src.readable = strings.TrimPrefix(string(text), "\uFEFF"), true
		}
		src.lineNo, src.off = 1, 0
	}
	if !src.readable {
		return "", false
	}
	if p.Line < src.lineNo {
		src.lineNo, src.off = 1, 0
	}
	for src.lineNo < p.Line {
		i := strings.IndexByte(src.text[src.off:], '\n')
		if i < 0 {
			return "", false
		}
		src.lineNo, src.off = src.lineNo+1, src.off+i+1
	}
	line, _, _ := strings.Cut(src.text[src.off:], "\n")
	return strings.TrimRight(line, "\r"), true
}

// maxLineShown is the most characters of a line printed under an error: a
// window of the line around the column, marked with … where it is cut.
const maxLineShown = 120

// quoted cuts line to at most maxLineShown characters around column col,
// and gives the column in what it returns.
func quoted(line string, col int) (string, int) {
	n := utf8.RuneCountInString(line)
	if n <= maxLineShown {
		return line, col
	}
	from := min(max(col-1-maxLineShown/2, 0), n-maxLineShown)
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	i := 0
	for _, r := range line {
		if i >= from+maxLineShown {
			b.WriteString("…")
			break
		}
		if i >= from {
			b.WriteRune(r)
		}
		i++
	}
	if from > 0 {
		col += 1 - from // the … takes one column
	}
	return b.String(), col
}

// caretPad is the white space that puts a caret under column col, keeping
// the line's tabs so that it lines up.
func caretPad(line string, col int) string {
	var b strings.Builder
	i := 0
	for _, r := range line {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteRune(' ')
		}
		i++
	}
	return b.String()
}
