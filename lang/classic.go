package lang

import (
	"strings"
	"unicode/utf8"
)

// The classic format is the one-rule-per-line notation used across the
// literature on Markov algorithms (Rosetta Code, "Execute a Markov
// algorithm"):
//
//	# a comment: the line starts with '#'
//	pattern -> replacement
//	pattern -> .replacement      (a terminating rule)
//
// Every character is a symbol, spaces included; there is no sugar, no
// subscripts and no escapes. The separator is the first "->" that has a
// space or tab just before it and a space, a tab or the end of the line just
// after it, so `->.* -> money` rewrites `->.*` and `Bgage -> ->.*` writes
// `->.*`. The pattern is the text from the first column of the line up to the
// run of whitespace before the separator: leading whitespace belongs to the
// pattern, and a line that starts with whitespace and then the separator has
// an empty pattern. The replacement is the text after the separator and the
// whitespace that follows it, up to the end of the line (trailing spaces
// included); a leading '.' marks the rule terminating and is not part of the
// replacement. Blank lines (only spaces and tabs) are skipped; a trailing
// "\r" is dropped.

// ParseClassic reads a rule file in the classic format. The declarations of
// the result are *Rule values whose sides hold one *Symbol per character, at
// the character's exact position; comments are kept in File.Comments. Every
// malformed line is reported; the error is an ErrorList. Like Parse, it
// returns the rules of the well-formed lines even when others have errors,
// so that a tool can check them too; a file is never nil.
//
// It keeps the bounds of Parse (limits.go): a comment or a rule is a
// statement, and every character of a rule's line a token, spaces and
// arrow included.
func ParseClassic(filename string, src []byte) (*File, error) {
	f := &File{Name: filename}
	var errs ErrorList
	stop := func(at Pos, limit int, what string) (*File, error) {
		errs.Add(at, "%w", &LimitError{Limit: limit, What: what})
		return f, errs.Err()
	}
	text := string(trimBOM(src))
	statements, tokens := 0, 0
	for lineNo := 1; text != "" || lineNo == 1; lineNo++ {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		line = strings.TrimSuffix(line, "\r")
		at := Pos{File: filename, Line: lineNo, Col: 1}
		if len(errs) > MaxErrors {
			return stop(at, MaxErrors, limitErrors)
		}
		if strings.Trim(line, " \t") == "" {
			continue
		}
		if statements++; statements > MaxStatements {
			return stop(at, MaxStatements, limitStatements)
		}
		if comment, ok := strings.CutPrefix(line, "#"); ok {
			f.Comments = append(f.Comments, &Comment{At: at, Text: comment})
			continue
		}
		n := utf8.RuneCountInString(line)
		if n > MaxStatementTokens {
			return stop(Pos{File: filename, Line: lineNo, Col: MaxStatementTokens + 1}, MaxStatementTokens, limitStatementToken)
		}
		if tokens += n; tokens > MaxTokens {
			return stop(Pos{File: filename, Line: lineNo, Col: n - (tokens - MaxTokens) + 1}, MaxTokens, limitTokens)
		}
		if col, ok := invalidUTF8(line); !ok {
			errs.Add(Pos{File: filename, Line: lineNo, Col: col}, "invalid UTF-8 encoding")
			continue
		}
		runes := []rune(line)
		arrow := classicArrow(runes)
		if arrow < 0 {
			errs.Add(Pos{File: filename, Line: lineNo, Col: 1},
				`no rule separator: a rule is "pattern -> replacement", with whitespace on both sides of "->"`)
			continue
		}
		patEnd := arrow
		for patEnd > 0 && isClassicSpace(runes[patEnd-1]) {
			patEnd--
		}
		repStart := arrow + 2
		for repStart < len(runes) && isClassicSpace(runes[repStart]) {
			repStart++
		}
		r := &Rule{At: Pos{File: filename, Line: lineNo, Col: 1}}
		if repStart < len(runes) && runes[repStart] == '.' {
			r.Terminating = true
			repStart++
		}
		r.LHS = classicSymbols(filename, lineNo, runes, 0, patEnd)
		r.RHS = classicSymbols(filename, lineNo, runes, repStart, len(runes))
		f.Decls = append(f.Decls, r)
	}
	return f, errs.Err()
}

// SymbolsOfClassicInput splits an input string of the classic format into
// its symbols: one per character.
func SymbolsOfClassicInput(s string) []string {
	syms := make([]string, 0, utf8.RuneCountInString(s))
	for _, r := range s {
		syms = append(syms, string(r))
	}
	return syms
}

// classicArrow returns the rune index of the separator "->" in a line, or -1.
func classicArrow(runes []rune) int {
	for i := 1; i+1 < len(runes); i++ {
		if runes[i] != '-' || runes[i+1] != '>' || !isClassicSpace(runes[i-1]) {
			continue
		}
		if i+2 == len(runes) || isClassicSpace(runes[i+2]) {
			return i
		}
	}
	return -1
}

func isClassicSpace(r rune) bool { return r == ' ' || r == '\t' }

// classicSymbols makes one symbol per rune of runes[from:to]; columns count
// from 1.
func classicSymbols(filename string, line int, runes []rune, from, to int) []Elem {
	elems := make([]Elem, 0, to-from)
	for i := from; i < to; i++ {
		elems = append(elems, &Symbol{
			At:   Pos{File: filename, Line: line, Col: i + 1},
			Name: string(runes[i]),
		})
	}
	return elems
}

// invalidUTF8 reports the column of the first invalid byte sequence of line,
// with ok false, or ok true when the line is valid UTF-8.
func invalidUTF8(line string) (col int, ok bool) {
	col = 1
	for i, r := range line {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(line[i:]); size == 1 {
				return col, false
			}
		}
		col++
	}
	return 0, true
}
