package reference

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/lang"
)

// rule makes a plain rule from one-character symbols; '∇' in rhs is a
// recall, and a leading '.' in rhs makes the rule terminating.
func rule(lhs, rhs string) lang.PlainRule {
	r := lang.PlainRule{LHS: lang.SymbolsOfClassicInput(lhs), MarkFrom: -1}
	if rest, ok := strings.CutPrefix(rhs, "."); ok {
		r.Terminating, rhs = true, rest
	}
	for _, sym := range lang.SymbolsOfClassicInput(rhs) {
		if sym == "∇" {
			r.RHS = append(r.RHS, lang.PlainItem{Recall: true})
		} else {
			r.RHS = append(r.RHS, lang.PlainItem{Sym: sym})
		}
	}
	return r
}

func syms(s string) []string { return lang.SymbolsOfClassicInput(s) }

// traced runs in on input and returns the run as "input →n s1 →m s2 …"
// (rule numbers 1-based, as the thesis writes them).
func traced(in *Interpreter, input string) (string, Result) {
	var b strings.Builder
	b.WriteString(input)
	in.Trace = func(rule int, s []string) {
		fmt.Fprintf(&b, " →%d %s", rule+1, strings.Join(s, ""))
	}
	res := in.Run(syms(input))
	return b.String(), res
}

var binaryToUnary = []lang.PlainRule{
	rule("|0", "0||"),
	rule("1", "0|"),
	rule("0", ""),
}

var roomy = Options{MaxSteps: 1000, MaxLen: 1000}

func TestThesisBinaryToUnary(t *testing.T) {
	// Master's thesis of the ANYNT project, §2.1.6: the classic (leftmost)
	// run of the binary-to-unary algorithm on 101.
	opts := roomy
	opts.Leftmost = true
	got, res := traced(New(binaryToUnary, opts), "101")
	want := "101 →2 0|01 →1 00||1 →2 00||0| →1 00|0||| →1 000||||| →3 00||||| →3 0||||| →3 |||||"
	if got != want {
		t.Errorf("trace\n got %s\nwant %s", got, want)
	}
	if res.Halt != NoRule || res.Steps != 8 || strings.Join(res.Output, "") != "|||||" {
		t.Errorf("result %v, %d steps, %q; want no rule applies, 8 steps, |||||", res.Halt, res.Steps, res.Output)
	}
}

func TestRightmostIsTheDefault(t *testing.T) {
	got, _ := traced(New(binaryToUnary, roomy), "101")
	want := "101 →2 100| →2 0|00| →1 00||0| →1 00|0||| →1 000||||| →3 00||||| →3 0||||| →3 |||||"
	if got != want {
		t.Errorf("trace\n got %s\nwant %s", got, want)
	}
}

func TestEmptyLHS(t *testing.T) {
	rules := []lang.PlainRule{rule("", ".x")}
	for _, tt := range []struct {
		leftmost bool
		want     string
	}{{false, "abx"}, {true, "xab"}} {
		opts := roomy
		opts.Leftmost = tt.leftmost
		res := New(rules, opts).Run(syms("ab"))
		if got := strings.Join(res.Output, ""); got != tt.want || res.Halt != Terminated || res.Steps != 1 {
			t.Errorf("leftmost=%v: %q %v %d steps; want %q terminated in 1 step", tt.leftmost, got, res.Halt, res.Steps, tt.want)
		}
	}
}

func TestFirstRuleWinsOverEarlierOccurrence(t *testing.T) {
	// The rule order decides, not the position of the occurrence.
	rules := []lang.PlainRule{rule("b", ".B"), rule("a", ".A")}
	res := New(rules, Options{Leftmost: true, MaxSteps: 10, MaxLen: 10}).Run(syms("ab"))
	if got := strings.Join(res.Output, ""); got != "aB" {
		t.Errorf("got %q, want aB", got)
	}
}

func TestLimits(t *testing.T) {
	grow := []lang.PlainRule{rule("a", "aa")}
	tests := []struct {
		name     string
		rules    []lang.PlainRule
		input    string
		maxSteps int
		maxLen   int
		want     string
		halt     Halt
		steps    int
	}{
		{"step limit while a rule applies", grow, "a", 3, 100, "aaaa", StepLimit, 3},
		{"no step allowed", grow, "a", 0, 100, "a", StepLimit, 0},
		{"no step allowed, no rule applies", grow, "b", 0, 100, "b", NoRule, 0},
		{"limit reached exactly, then no rule", []lang.PlainRule{rule("a", "b")}, "aa", 2, 100, "bb", NoRule, 2},
		{"limit reached exactly by a terminating rule", []lang.PlainRule{rule("a", ".b")}, "a", 1, 100, "b", Terminated, 1},
		{"rewrite that would be too long is not applied", grow, "a", 100, 3, "aaa", LengthLimit, 2},
		{"terminating rewrite that would be too long", []lang.PlainRule{rule("a", ".aa")}, "a", 100, 1, "a", LengthLimit, 0},
		{"string may reach MaxLen", []lang.PlainRule{rule("a", ".aa")}, "a", 100, 2, "aa", Terminated, 1},
		{"input too long, even if no rule applies", nil, "aaaa", 100, 3, "aaaa", InputTooLong, 0},
		{"input too long, no step allowed", grow, "aaaa", 0, 3, "aaaa", InputTooLong, 0},
		{"a negative step limit allows no step", grow, "a", -1, 100, "a", StepLimit, 0},
		{"a negative length limit counts as zero", nil, "", 100, -1, "", NoRule, 0},
		{"step limit is checked before length", grow, "a", 2, 3, "aaa", StepLimit, 2},
		{"shrinking at MaxLen is fine", []lang.PlainRule{rule("aa", "a")}, "aaa", 100, 3, "a", NoRule, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := New(tt.rules, Options{MaxSteps: tt.maxSteps, MaxLen: tt.maxLen}).Run(syms(tt.input))
			got := strings.Join(res.Output, "")
			if got != tt.want || res.Halt != tt.halt || res.Steps != tt.steps {
				t.Errorf("got %q, %v, %d steps; want %q, %v, %d steps", got, res.Halt, res.Steps, tt.want, tt.halt, tt.steps)
			}
		})
	}
}

func TestMemory(t *testing.T) {
	t.Run("store the whole string, recall it later", func(t *testing.T) {
		store := rule("a", "b")
		store.StoreWhole = true
		in := New([]lang.PlainRule{store, rule("b", ".∇")}, roomy)
		got, res := traced(in, "xa")
		if want := "xa →1 xb →2 xxb"; got != want || res.Halt != Terminated {
			t.Errorf("trace %s (%v), want %s (terminated)", got, res.Halt, want)
		}
		if m := strings.Join(in.Memory(), ""); m != "xb" {
			t.Errorf("memory %q, want xb", m)
		}
	})

	t.Run("recall writes the memory of before the step; memory survives runs until Reset", func(t *testing.T) {
		r := rule("a", ".∇b")
		r.StoreWhole = true
		in := New([]lang.PlainRule{r}, roomy)
		for _, want := range []string{"b", "bb", "bbb"} {
			if got := strings.Join(in.Run(syms("a")).Output, ""); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		}
		in.Reset()
		if got := strings.Join(in.Run(syms("a")).Output, ""); got != "b" {
			t.Errorf("after Reset: got %q, want b", got)
		}
	})

	t.Run("marked LHS symbols", func(t *testing.T) {
		r := rule("xyz", ".q∇")
		r.MarkFrom, r.MarkTo = 1, 3
		in := New([]lang.PlainRule{r}, roomy)
		if got := strings.Join(in.Run(syms("xyz")).Output, ""); got != "q" {
			t.Errorf("first run: got %q, want q", got)
		}
		if got := strings.Join(in.Run(syms("xyz")).Output, ""); got != "qyz" {
			t.Errorf("second run: got %q, want qyz", got)
		}
	})

	t.Run("the whole string wins over a mark", func(t *testing.T) {
		r := rule("ab", ".c")
		r.MarkFrom, r.MarkTo = 0, 1
		r.StoreWhole = true
		in := New([]lang.PlainRule{r}, roomy)
		in.Run(syms("abd"))
		if m := strings.Join(in.Memory(), ""); m != "cd" {
			t.Errorf("memory %q, want cd", m)
		}
	})

	t.Run("a rewrite that is not applied stores nothing", func(t *testing.T) {
		r := rule("a", "aa")
		r.StoreWhole = true
		in := New([]lang.PlainRule{r}, Options{MaxSteps: 100, MaxLen: 2})
		res := in.Run(syms("a"))
		if res.Halt != LengthLimit {
			t.Fatalf("halt %v, want length limit", res.Halt)
		}
		if m := strings.Join(in.Memory(), ""); m != "aa" {
			t.Errorf("memory %q, want aa (from the one applied rewrite)", m)
		}
	})
}

func TestRunLeavesItsInputAlone(t *testing.T) {
	input := syms("101")
	New(binaryToUnary, roomy).Run(input)
	if !slices.Equal(input, syms("101")) {
		t.Errorf("input changed to %q", input)
	}
}

func TestHaltString(t *testing.T) {
	for h, want := range map[Halt]string{
		Terminated: "terminated", NoRule: "no rule applies", StepLimit: "step limit", LengthLimit: "length limit", InputTooLong: "input too long", 9: "Halt(9)",
	} {
		if got := h.String(); got != want {
			t.Errorf("%d: %q, want %q", int(h), got, want)
		}
	}
}

// TestClassicCorpus runs every classic rule file of the corpus, in the
// classic leftmost mode, on its .in input and compares with its .out: the
// outputs published with the rule sets.
func TestClassicCorpus(t *testing.T) {
	files, err := fs.Glob(corpus.Files, "classic/*.markov")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, file := range files {
		name := strings.TrimSuffix(path.Base(file), ".markov")
		t.Run(name, func(t *testing.T) {
			src, err := fs.ReadFile(corpus.Files, file)
			if err != nil {
				t.Fatal(err)
			}
			f, err := lang.ParseClassic(file, src)
			if err != nil {
				t.Fatal(err)
			}
			input := readLine(t, strings.TrimSuffix(file, ".markov")+".in")
			want := readLine(t, strings.TrimSuffix(file, ".markov")+".out")
			in := New(plainRules(t, f), Options{Leftmost: true, MaxSteps: 100_000, MaxLen: 10_000})
			res := in.Run(lang.SymbolsOfClassicInput(input))
			if res.Halt != Terminated && res.Halt != NoRule {
				t.Fatalf("halted by %v after %d steps", res.Halt, res.Steps)
			}
			if got := strings.Join(res.Output, ""); got != want {
				t.Errorf("output %q, want %q", got, want)
			}
		})
	}
}

// plainRules converts the rules of a classic file, whose sides are all
// symbols, to plain rules.
func plainRules(t *testing.T, f *lang.File) []lang.PlainRule {
	t.Helper()
	var out []lang.PlainRule
	for _, e := range f.Rules() {
		r, ok := e.(*lang.Rule)
		if !ok {
			t.Fatalf("%v: entry %T, want *lang.Rule", e.Pos(), e)
		}
		p := lang.PlainRule{Pos: r.At, Terminating: r.Terminating, MarkFrom: -1}
		for _, el := range r.LHS {
			p.LHS = append(p.LHS, el.(*lang.Symbol).Name)
		}
		for _, el := range r.RHS {
			p.RHS = append(p.RHS, lang.PlainItem{Sym: el.(*lang.Symbol).Name})
		}
		out = append(out, p)
	}
	return out
}

// readLine reads a file holding one line: the string and a newline.
func readLine(t *testing.T, path string) string {
	t.Helper()
	b, err := fs.ReadFile(corpus.Files, path)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := strings.CutSuffix(string(b), "\n")
	if !ok || strings.Contains(s, "\n") {
		t.Fatalf("%s: want exactly one line ending in a newline", path)
	}
	return s
}
