package lang_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/anynt/anynt/lang"
)

// lines repeats line n times, each ended by a newline.
func lines(line string, n int) string { return strings.Repeat(line+"\n", n) }

// A file past one of the bounds of limits.go is refused at the token,
// statement or error that passes it, with a LimitError naming the bound;
// what precedes that point is parsed, nothing after it is.
func TestParseRefusesAFileWhereItPassesABound(t *testing.T) {
	long := strings.Repeat("a", lang.MaxStatementTokens-1) + " ->" // MaxStatementTokens tokens
	tests := []struct {
		name      string
		src       string
		classic   bool
		limit     int
		line, col int
		rules     int // parsed before the bound
	}{
		{"statements: comments count", lines("# c", lang.MaxStatements/2) + lines("a -> b", lang.MaxStatements/2+1),
			false, lang.MaxStatements, lang.MaxStatements + 1, 1, lang.MaxStatements / 2},
		{"symbols of a statement", strings.Repeat("a", lang.MaxStatementTokens+1) + " -> b\n",
			false, lang.MaxStatementTokens, 1, lang.MaxStatementTokens + 1, 0},
		{"marks of a statement", "a -> " + strings.Repeat("()", lang.MaxStatementTokens) + "\n",
			false, lang.MaxStatementTokens, 1, 6 + lang.MaxStatementTokens - 2, 0},
		{"tokens of a file", lines(long, lang.MaxTokens/lang.MaxStatementTokens) + "b -> c\n",
			false, lang.MaxTokens, lang.MaxTokens/lang.MaxStatementTokens + 1, 1, lang.MaxTokens / lang.MaxStatementTokens},
		{"participle's tokens", strings.Repeat("a ", lang.MaxGrammarTokens+1) + "-> ^\nb -> c\n",
			false, lang.MaxGrammarTokens, 1, 2*lang.MaxGrammarTokens + 1, 0},
		{"errors", strings.Repeat("}", 3*lang.MaxErrors) + "\na -> b\n",
			false, lang.MaxErrors, 1, lang.MaxErrors + 2, 0},
		{"lexical errors", strings.Repeat("\x01", 3*lang.MaxErrors) + " -> b\n",
			false, lang.MaxErrors, 1, lang.MaxErrors + 2, 0},
		{"classic statements", lines("# c", lang.MaxStatements/2) + lines("a -> b", lang.MaxStatements/2+1),
			true, lang.MaxStatements, lang.MaxStatements + 1, 1, lang.MaxStatements / 2},
		{"classic symbols of a line", strings.Repeat("a", lang.MaxStatementTokens) + " -> b\n",
			true, lang.MaxStatementTokens, 1, lang.MaxStatementTokens + 1, 0},
		{"classic tokens of a file", lines(strings.Repeat("a", lang.MaxStatementTokens-5)+" -> b", 4) + "cd -> e\n",
			true, lang.MaxTokens, 5, 1, 4},
		{"classic errors", lines("no separator", 3*lang.MaxErrors),
			true, lang.MaxErrors, lang.MaxErrors + 2, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parse := lang.Parse
			if tt.classic {
				parse = lang.ParseClassic
			}
			f, err := parse("big.anynt", []byte(tt.src))
			var list lang.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want an ErrorList", err)
			}
			last := list[len(list)-1]
			var limit *lang.LimitError
			if !errors.As(last, &limit) || limit.Limit != tt.limit {
				t.Fatalf("the last error is %v; want a LimitError of the bound %d", last, tt.limit)
			}
			if last.Pos.Line != tt.line || last.Pos.Col != tt.col {
				t.Errorf("the bound is passed at %d:%d, want %d:%d", last.Pos.Line, last.Pos.Col, tt.line, tt.col)
			}
			if !strings.Contains(last.Msg, "the rest of the file is not read") {
				t.Errorf("the message %q does not say that reading stopped", last.Msg)
			}
			if len(list) > lang.MaxErrors+3 {
				t.Errorf("%d errors, more than MaxErrors", len(list))
			}
			if got := len(f.Rules()); got != tt.rules {
				t.Errorf("%d rules parsed, want %d", got, tt.rules)
			}
		})
	}
}

// A file is refused as soon as it passes a bound, not after it is read:
// what parsing allocates past that point is the source's copy alone. A
// rule four times too long costs what a rule just too long does, and a
// file of twice too many rules what a file of one too many does (a 20 MB
// file was once read whole, in seconds and a gigabyte, before its rules
// were counted).
func TestParseStopsReadingAtABound(t *testing.T) {
	tests := []struct {
		name        string
		just, twice string
	}{
		{"a long rule",
			strings.Repeat("a", lang.MaxStatementTokens+1) + " -> b\n",
			strings.Repeat("a", 4*lang.MaxStatementTokens) + " -> b\n"},
		{"many rules", lines("a -> b", lang.MaxStatements+1), lines("a -> b", 2*lang.MaxStatements)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			just, more := allocated(t, tt.just), allocated(t, tt.twice)
			extra := uint64(2 * (len(tt.twice) - len(tt.just))) // the source, and its copy as a string
			if more > just+extra+just/10 {
				t.Errorf("the file past the bound by one allocates %d bytes, the larger one %d: more than its %d bytes of source", just, more, extra)
			}
		})
	}
}

// allocated is the bytes lang.Parse allocates on src, which must be
// refused.
func allocated(t *testing.T, src string) uint64 {
	b := []byte(src)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := lang.Parse("big.anynt", b)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Error("the file parsed")
	}
	return after.TotalAlloc - before.TotalAlloc
}

// A statement that the fast reader does not read goes to participle,
// which spends about two kilobytes a token: one of more than
// MaxGrammarTokens tokens is refused without it (a line of 200,000
// symbols and a stray ^ took 400 MB). The position of that refusal is
// in TestParseRefusesAFileWhereItPassesABound.
func TestLongStatementsAreNotGivenToTheGrammar(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("a ", lang.MaxGrammarTokens) + "-> ^\n",
		"alphabet " + strings.Repeat("a ", lang.MaxGrammarTokens) + "\n",
	} {
		used := allocated(t, src)
		if perByte := used / uint64(len(src)); perByte > 500 {
			t.Errorf("%.20q…: %d bytes allocated a byte of source, want at most 500", src, perByte)
		}
	}
}
