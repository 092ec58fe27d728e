package vm

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// storeCaptureThenRecall stores a capture and writes it twice:
//
//	(a|b)1^Δ c -> d
//	d ->. ∇ ∇
func storeCaptureThenRecall(a *asm) {
	a.sugared(
		code(save(0), split(4), a.sym("a"), jmp(5), a.sym("b"), save(1), a.sym("c"), match()),
		code(a.emit("d"), done()),
		store(0))
	a.plain("d", "∇ ∇", terminating)
}

var runTests = []struct {
	name     string
	alphabet string
	rules    func(a *asm)
	input    string
	opt      func(*Options) // changes DefaultOptions
	want     string
	steps    int
	halt     HaltReason
	rule     int
	memory   string
}{
	{
		name: "plain rule replaces the rightmost occurrence", alphabet: "a b c",
		rules: func(a *asm) { a.plain("a b", "c", terminating) },
		input: "a b a b", want: "a b c", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "plain rule replaces the leftmost occurrence in leftmost mode", alphabet: "a b c",
		rules: func(a *asm) { a.plain("a b", "c", terminating) },
		input: "a b a b", opt: func(o *Options) { o.Leftmost = true }, want: "c a b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "empty left-hand side matches at the right end", alphabet: "a b x",
		rules: func(a *asm) { a.plain("", "x", terminating) },
		input: "a b", want: "a b x", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "empty left-hand side matches at the left end in leftmost mode", alphabet: "a b x",
		rules: func(a *asm) { a.plain("", "x", terminating) },
		input: "a b", opt: func(o *Options) { o.Leftmost = true }, want: "x a b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "empty left-hand side matches the empty string", alphabet: "x",
		rules: func(a *asm) { a.plain("", "x", terminating) },
		input: "", want: "x", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "the first rule that applies fires, wherever the others match", alphabet: "a b c d",
		rules: func(a *asm) { a.plain("b", "c"); a.plain("a", "d", terminating) },
		input: "a b", want: "d c", steps: 2, halt: Terminated, rule: 1,
	},
	{
		name: "a terminating rule ends the run", alphabet: "a b c",
		rules: func(a *asm) { a.plain("a", "b"); a.plain("b", "c", terminating); a.plain("c", "a") },
		input: "a a", want: "b c", steps: 3, halt: Terminated, rule: 1,
	},
	{
		name: "no rule applies", alphabet: "a b c",
		rules: func(a *asm) { a.plain("a", "b") },
		input: "c", want: "c", steps: 0, halt: NoRule, rule: -1,
	},
	{
		name: "no rule applies after exactly MaxSteps rewrites", alphabet: "a b",
		rules: func(a *asm) { a.plain("a", "b") },
		input: "a a a", opt: func(o *Options) { o.MaxSteps = 3 }, want: "b b b", steps: 3, halt: NoRule, rule: 0,
	},
	{
		name: "step limit when a rule applies after MaxSteps rewrites", alphabet: "a b",
		rules: func(a *asm) { a.plain("a", "b") },
		input: "a a a a", opt: func(o *Options) { o.MaxSteps = 3 }, want: "a b b b", steps: 3, halt: StepLimit, rule: 0,
	},
	{
		name: "a terminating rule may be the last step allowed", alphabet: "a b",
		rules: func(a *asm) { a.plain("a", "b", terminating) },
		input: "a", opt: func(o *Options) { o.MaxSteps = 1 }, want: "b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "length limit stops a growing string before the rewrite", alphabet: "a",
		rules: func(a *asm) { a.plain("a", "a a") },
		input: "a", opt: func(o *Options) { o.MaxLen = 5 }, want: "a a a a a", steps: 4, halt: LengthLimit, rule: 0,
	},
	{
		name: "an input longer than MaxLen is not run", alphabet: "a b",
		rules: func(a *asm) { a.plain("a", "b") },
		input: "a a a", opt: func(o *Options) { o.MaxLen = 2 }, want: "a a a", steps: 0, halt: InputTooLong, rule: -1,
	},
	{
		name: "a string of exactly MaxLen symbols is allowed", alphabet: "a b",
		rules: func(a *asm) { a.plain("a", "b b") },
		input: "a a", opt: func(o *Options) { o.MaxLen = 4 }, want: "b b b b", steps: 2, halt: NoRule, rule: 0,
	},
	{
		name: "binary to unary", alphabet: "| 0 1",
		rules: binaryToUnary,
		input: "1 1", opt: func(o *Options) { o.Leftmost = true }, want: "| | |", steps: 5, halt: NoRule, rule: 2,
	},
	{
		name: "the first alternative wins over a match nearer the right end", alphabet: "x y a z",
		rules: alternation,
		input: "x a y a", want: "z x y a", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "the first alternative wins over a match nearer the left end in leftmost mode", alphabet: "x y a z",
		rules: alternation,
		input: "y a x a", opt: func(o *Options) { o.Leftmost = true }, want: "y a z x", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "the second alternative when the first does not occur", alphabet: "x y a z",
		rules: alternation,
		input: "y a y a", want: "y a z y", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "the second alternative when the first does not occur, leftmost", alphabet: "x y a z",
		rules: alternation,
		input: "y a y a", opt: func(o *Options) { o.Leftmost = true }, want: "z y y a", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "χ ranks symbols in alphabet order", alphabet: "p q r b",
		rules: func(a *asm) {
			a.sugared(
				code(save(0), a.any(""), save(1), a.sym("b"), match()),
				code(emitCap(0), emitCap(0), done()),
				terminating)
		},
		input: "q b p b r b", want: "q b p p r b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "χ ∉ skips the excluded symbols", alphabet: "p q r b",
		rules: func(a *asm) {
			a.sugared(
				code(save(0), a.any("p"), save(1), a.sym("b"), match()),
				code(emitCap(0), emitCap(0), done()),
				terminating)
		},
		input: "q b p b", want: "q q p b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "χ never matches a symbol outside the alphabet", alphabet: "p b", // o is not in it
		rules: func(a *asm) {
			a.sugared(code(a.any(""), a.sym("b"), match()), code(done()), terminating)
		},
		input: "o b", want: "o b", steps: 0, halt: NoRule, rule: -1,
	},
	{
		name: "a back-reference matches the captured text again", alphabet: "p q r d",
		rules: func(a *asm) {
			a.sugared(
				code(save(0), a.any(""), save(1), backref(0), match()),
				code(a.emit("d"), done()),
				terminating)
		},
		input: "q q r p p r", want: "q q r d r", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "an optional part present wins over it absent", alphabet: "a b c",
		rules: func(a *asm) { a.sugared(code(split(2), a.sym("a"), match()), code(a.emit("b"), done()), terminating) },
		input: "c a c", want: "c b c", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "an empty match at the right end", alphabet: "a b c",
		rules: func(a *asm) { a.sugared(code(split(2), a.sym("a"), match()), code(a.emit("b"), done()), terminating) },
		input: "c c", want: "c c b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "an empty match at the left end in leftmost mode", alphabet: "a b c",
		rules: func(a *asm) { a.sugared(code(split(2), a.sym("a"), match()), code(a.emit("b"), done()), terminating) },
		input: "c c", opt: func(o *Options) { o.Leftmost = true }, want: "b c c", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "an empty match in the empty string", alphabet: "a b c",
		rules: func(a *asm) { a.sugared(code(split(2), a.sym("a"), match()), code(a.emit("b"), done()), terminating) },
		input: "", want: "b", steps: 1, halt: Terminated, rule: 0,
	},
	{
		name: "the thesis fixture applies its expansion in order", alphabet: "A1 A2 π ⊙",
		rules: thesisFixture,
		input: "⊙ A1 π A2 A1 ⊙", want: "π ⊙ ⊙ A2", steps: 2, halt: NoRule, rule: 0,
	},
	{
		name: "a stored capture is recalled", alphabet: "a b c d",
		rules: storeCaptureThenRecall,
		input: "b c", want: "b b", steps: 2, halt: Terminated, rule: 1, memory: "b",
	},
	{
		name: "the whole new string is stored", alphabet: "a b c",
		rules: func(a *asm) { a.plain("a", "b", storeWhole); a.plain("b b", "∇ c", terminating) },
		input: "a b", want: "b b c", steps: 2, halt: Terminated, rule: 1, memory: "b b",
	},
	{
		name: "sorting with χ and memory", alphabet: "p q r", // $ is not in it
		rules: sortAny,
		input: "r q p $", want: "p q r r $", steps: 4, halt: Terminated, rule: 2, memory: "r",
	},
}

func TestRun(t *testing.T) {
	for _, tt := range runTests {
		t.Run(tt.name, func(t *testing.T) {
			forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
				a := newAsm(t, tt.alphabet, "o $")
				tt.rules(a)
				m := newMachine(a.build())
				opt := DefaultOptions()
				if tt.opt != nil {
					tt.opt(&opt)
				}
				out, res := m.Run(a.str(tt.input), opt)
				if got := a.text(out); got != tt.want {
					t.Errorf("output %q, want %q", got, tt.want)
				}
				want := Result{Steps: tt.steps, Halt: tt.halt, Rule: tt.rule}
				if res != want {
					t.Errorf("result %+v (%v), want %+v (%v)", res, res.Halt, want, want.Halt)
				}
				if got := a.text(m.Memory()); got != tt.memory {
					t.Errorf("memory %q, want %q", got, tt.memory)
				}
			})
		})
	}
}

// forEachSearch runs test with each way the machine finds the match of a
// sugared rule: searching for the literals of its ordered expansion, and
// running its matcher.
func forEachSearch(t *testing.T, test func(t *testing.T, newMachine func(*Program) *Machine)) {
	t.Run("expanded", func(t *testing.T) { test(t, New) })
	t.Run("matcher", func(t *testing.T) {
		test(t, func(p *Program) *Machine { return newMachine(p, 0) })
	})
}

// with returns DefaultOptions changed by f.
func with(f func(*Options)) Options {
	o := DefaultOptions()
	f(&o)
	return o
}

func TestDefaultLimits(t *testing.T) {
	a := newAsm(t, "a", "")
	a.plain("a", "a")
	_, res := New(a.build()).Run(a.str("a"), DefaultOptions())
	if want := (Result{Steps: DefaultMaxSteps, Halt: StepLimit, Rule: 0}); res != want {
		t.Errorf("a -> a: %+v, want %+v", res, want)
	}

	a = newAsm(t, "a", "")
	a.plain("", "a a")
	out, res := New(a.build()).Run(nil, DefaultOptions())
	if want := (Result{Steps: DefaultMaxLen / 2, Halt: LengthLimit, Rule: 0}); res != want || len(out) != DefaultMaxLen {
		t.Errorf("-> a a: %+v and %d symbols, want %+v and %d", res, len(out), want, DefaultMaxLen)
	}
}

// Zero and negative limits are taken literally, as the reference
// interpreter takes them: they do not mean the default.
func TestZeroLimits(t *testing.T) {
	tests := []struct {
		name  string
		input string
		opt   Options
		want  string
		halt  HaltReason
	}{
		{"no step allowed", "a", with(func(o *Options) { o.MaxSteps = 0 }), "a", StepLimit},
		{"a negative step limit allows none", "a", with(func(o *Options) { o.MaxSteps = -5 }), "a", StepLimit},
		{"the empty string fits MaxLen 0", "", with(func(o *Options) { o.MaxLen = 0 }), "", NoRule},
		{"a symbol does not fit MaxLen 0", "a", with(func(o *Options) { o.MaxLen = 0 }), "a", InputTooLong},
		{"a negative length limit counts as zero", "", with(func(o *Options) { o.MaxLen = -1 }), "", NoRule},
		{"the zero Options run nothing", "a", Options{}, "a", InputTooLong},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAsm(t, "a b", "")
			a.plain("a", "b")
			out, res := New(a.build()).Run(a.str(tt.input), tt.opt)
			if got := a.text(out); got != tt.want || res.Halt != tt.halt || res.Steps != 0 {
				t.Errorf("%q after %d steps, %v; want %q after 0, %v", got, res.Steps, res.Halt, tt.want, tt.halt)
			}
		})
	}
}

// The matcher's work is bounded: a rule whose search backtracks through
// every combination of its optionals halts with WorkLimit instead of
// running for minutes, and a budget that suffices changes nothing.
func TestWorkLimit(t *testing.T) {
	// [a]…[a] a…a c, k optionals and k a's: at a start position with
	// fewer than 2k a's before the c, the search tries about 2^k paths.
	const k = 16
	build := func(a *asm) {
		var c []Instr
		for range k {
			c = append(c, split(int32(len(c)+2)), a.sym("a"))
		}
		for range k {
			c = append(c, a.sym("a"))
		}
		c = append(c, a.sym("c"), match())
		a.sugared(code(c...), code(a.emit("b"), done()), terminating)
	}
	input := strings.Repeat("a ", k+4) + "c"
	forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
		a := newAsm(t, "a b c", "")
		build(a)
		m := newMachine(a.build())
		out, res := m.Run(a.str(input), with(func(o *Options) { o.MaxWork = 10_000 }))
		if res.Halt != WorkLimit || res.Steps != 0 || a.text(out) != input {
			t.Errorf("%+v (%v), want no step and a work limit", res, res.Halt)
		}
		out, res = m.Run(a.str(input), DefaultOptions())
		if want := "b"; res.Halt != Terminated || a.text(out) != want {
			t.Errorf("by default: %+v (%v) giving %q, want %q", res, res.Halt, a.text(out), want)
		}
	})
}

func TestHaltReasonString(t *testing.T) {
	for h, want := range map[HaltReason]string{
		Terminated:  "terminated",
		NoRule:      "no rule applies",
		StepLimit:   "step limit",
		LengthLimit: "length limit",
		9:           "HaltReason(9)",
	} {
		if got := h.String(); got != want {
			t.Errorf("%d: %q, want %q", h, got, want)
		}
	}
}

func TestTrace(t *testing.T) {
	a := newAsm(t, "| 0 1", "")
	binaryToUnary(a)
	var got []string
	trace := func(step, rule int, s []byte) {
		got = append(got, fmt.Sprintf("%d %d %s", step, rule, a.text(s)))
	}
	New(a.build()).Run(a.str("1 0"), with(func(o *Options) { o.Leftmost, o.Trace = true, trace }))
	want := []string{"1 1 0 | 0", "2 0 0 0 | |", "3 2 0 | |", "4 2 | |"}
	if !slices.Equal(got, want) {
		t.Errorf("trace\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMemoryAcrossRuns(t *testing.T) {
	forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
		a := newAsm(t, "a b c d m", "")
		a.plain("m", "∇", terminating)
		a.sugared( // (a|b)1^Δ c ->. d
			code(save(0), split(4), a.sym("a"), jmp(5), a.sym("b"), save(1), a.sym("c"), match()),
			code(a.emit("d"), done()),
			store(0), terminating)
		m := newMachine(a.build())
		run := func(input string) string {
			out, _ := m.Run(a.str(input), DefaultOptions())
			return a.text(out)
		}
		steps := []struct{ do, want string }{
			{"b c", "d"},
			{"m", "b"}, // stored by the previous run
			{"m", "b"},
			{"reset", ""},
			{"m", ""},
			{"set a b", ""},
			{"m", "a b"},
		}
		for i, st := range steps {
			switch {
			case st.do == "reset":
				m.Reset()
			case strings.HasPrefix(st.do, "set "):
				m.SetMemory(a.str(strings.TrimPrefix(st.do, "set ")))
			default:
				if got := run(st.do); got != st.want {
					t.Errorf("step %d: run %q: %q, want %q", i, st.do, got, st.want)
				}
			}
		}
	})
}

// A marked optional that is absent matched the empty string: its capture is
// bound and empty, and storing it empties the memory.
func TestStoreEmptyCaptureEmptiesMemory(t *testing.T) {
	forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
		a := newAsm(t, "a b c", "")
		a.sugared( // [a]^Δ b ->. c
			code(save(0), split(3), a.sym("a"), save(1), a.sym("b"), match()),
			code(a.emit("c"), done()),
			store(0), terminating)
		m := newMachine(a.build())
		m.SetMemory(a.str("a a"))
		out, _ := m.Run(a.str("b"), DefaultOptions())
		if a.text(out) != "c" || len(m.Memory()) != 0 {
			t.Errorf("output %q, memory %q; want \"c\" and empty memory", a.text(out), a.text(m.Memory()))
		}
	})
}

// A mark inside an alternative the match did not take leaves its capture
// unbound, and nothing is stored: the expansion's plain rule has no mark.
func TestStoreUnboundCaptureLeavesMemory(t *testing.T) {
	forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
		a := newAsm(t, "a b c", "")
		a.sugared( // (a^Δ|b) c ->. c
			code(split(5), save(0), a.sym("a"), save(1), jmp(6), a.sym("b"), a.sym("c"), match()),
			code(a.emit("c"), done()),
			store(0), terminating)
		m := newMachine(a.build())
		m.SetMemory(a.str("a a"))
		out, _ := m.Run(a.str("b c"), DefaultOptions())
		if a.text(out) != "c" || a.text(m.Memory()) != "a a" {
			t.Errorf("output %q, memory %q; want \"c\" and the memory unchanged", a.text(out), a.text(m.Memory()))
		}
	})
}

func TestRecallReadsMemoryBeforeTheStep(t *testing.T) {
	forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
		a := newAsm(t, "a b c e", "")
		a.sugared( // (a|b)1^Δ ->. ∇
			code(save(0), split(4), a.sym("a"), jmp(5), a.sym("b"), save(1), match()),
			code(emitMem(), done()),
			store(0), terminating)
		a.plain("e", "∇ ∇", storeWhole, terminating) // e ->. ∇ ∇ Δ
		m := newMachine(a.build())
		m.SetMemory(a.str("c"))
		for _, tt := range []struct{ input, want, memory string }{
			{"a", "c", "a"},
			{"e", "a a", "a a"},
			{"e", "a a a a", "a a a a"},
		} {
			out, _ := m.Run(a.str(tt.input), DefaultOptions())
			if a.text(out) != tt.want || a.text(m.Memory()) != tt.memory {
				t.Errorf("run %q: output %q, memory %q; want %q, %q",
					tt.input, a.text(out), a.text(m.Memory()), tt.want, tt.memory)
			}
		}
	})
}

func TestOutputMayBeTheNextInput(t *testing.T) {
	a := newAsm(t, "a b", "")
	a.plain("a", "b b", terminating)
	m := New(a.build())
	out, _ := m.Run(a.str("a a"), DefaultOptions())
	out, _ = m.Run(out[:2], DefaultOptions()) // a b
	if got := a.text(out); got != "b b b" {
		t.Errorf("%q, want \"b b b\"", got)
	}
}

// TestSugaredAgreesWithExpansion runs sugared rules and their ordered
// expansions on random strings: the machine must give the same result
// either way, and the same as the reference interpreter of the expansion.
func TestSugaredAgreesWithExpansion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tt := range []struct {
		name, alphabet     string
		sugared, expansion func(a *asm)
	}{
		{"thesis fixture", "A1 A2 π ⊙", thesisFixture, thesisFixtureExpansion},
		{"bound choice", "x y z w", boundChoice, boundChoiceExpansion},
		{"sort", "a b c", sortABC, sortABCExpansion},
		{"overlapping alternatives", "a b c d", overlapping, overlappingExpansion},
		{"two wildcards", "a b c", twoWildcards, twoWildcardsExpansion},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sugared, expansion := newAsm(t, tt.alphabet, ""), newAsm(t, tt.alphabet, "")
			tt.sugared(sugared)
			tt.expansion(expansion)
			me, mm := New(expansion.build()), newMachine(sugared.build(), 0)
			ms := New(sugared.build())
			if ms.plans[0].expanded == mm.plans[0].expanded {
				t.Fatal("both machines search the same way")
			}
			expanded := plainRules(t, expansion.build())
			symbols := strings.Fields(tt.alphabet)
			for range 3000 {
				input := make([]string, rng.IntN(12))
				for i := range input {
					input[i] = symbols[rng.IntN(len(symbols))]
				}
				opt := Options{Leftmost: rng.IntN(2) == 0, MaxSteps: 30, MaxLen: 20, MaxWork: DefaultMaxWork}
				outM, resM := mm.Run(sugared.str(strings.Join(input, " ")), opt)
				outS, resS := ms.Run(sugared.str(strings.Join(input, " ")), opt)
				outE, resE := me.Run(expansion.str(strings.Join(input, " ")), opt)
				outN, resN := referenceRun(expanded, input, opt)
				gotM, gotS := sugared.text(outM), sugared.text(outS)
				gotE, gotN := expansion.text(outE), strings.Join(outN, " ")
				if gotE != gotN || resE != resN {
					t.Fatalf("%q %+v: expansion %q %+v, reference %q %+v", input, opt, gotE, resE, gotN, resN)
				}
				if gotM != gotS || resM != resS {
					t.Fatalf("%q %+v: matcher %q %+v, expanded %q %+v", input, opt, gotM, resM, gotS, resS)
				}
				resS.Rule, resE.Rule = 0, 0 // rule numbers differ
				if gotS != gotE || resS != resE {
					t.Fatalf("%q %+v: sugared %q %+v, expansion %q %+v", input, opt, gotS, resS, gotE, resE)
				}
			}
		})
	}
}

func TestNoAllocationPerRun(t *testing.T) {
	for _, tt := range []struct {
		name, alphabet, input string
		rules                 func(a *asm)
		opt                   Options
	}{
		{"plain", "| 0 1", "1 1 1 1 1 1 1 1", binaryToUnary, with(func(o *Options) { o.Leftmost = true })},
		{"sugared", "p q r", strings.Repeat("r q p ", 20) + "$", sortAny, DefaultOptions()},
		{"sugared with trace", "x y z w", "y x z x z y", boundChoice, with(func(o *Options) { o.MaxSteps, o.Trace = 500, func(int, int, []byte) {} })},
	} {
		t.Run(tt.name, func(t *testing.T) {
			forEachSearch(t, func(t *testing.T, newMachine func(*Program) *Machine) {
				a := newAsm(t, tt.alphabet, "$")
				tt.rules(a)
				m, input := newMachine(a.build()), a.str(tt.input)
				_, res := m.Run(input, tt.opt) // grows the buffers
				if res.Steps < 10 {
					t.Fatalf("only %d steps", res.Steps)
				}
				if m.scan.due != 0 {
					t.Fatalf("a run of %d steps did not build the scanner", res.Steps)
				}
				if allocs := testing.AllocsPerRun(20, func() { m.Run(input, tt.opt) }); allocs != 0 {
					t.Errorf("%v allocations per run of %d steps", allocs, res.Steps)
				}
			})
		})
	}
}

// On strings longer than scanMaxLen the scanner serves only some steps
// (scannable): a run must give what it gives with no scanner at all, in
// both modes, as the string crosses the limits either way.
func TestLongStringsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tt := range []struct {
		name, alphabet string
		rules          func(a *asm)
	}{
		{"thesis fixture", "A1 A2 π ⊙", thesisFixture},
		{"bound choice", "x y z w", boundChoice},
		{"sort", "a b c", sortABC},
		{"overlapping alternatives", "a b c d", overlapping},
		{"two wildcards", "a b c", twoWildcards},
		{"binary to unary", "| 0 1", binaryToUnary},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := newAsm(t, tt.alphabet, "")
			tt.rules(a)
			p := a.build()
			scanning, searching := withScanner(New(p)), withoutScanner(New(p))
			if scanning.scan.scanner == nil {
				t.Fatal("the program has no scanner")
			}
			symbols := strings.Fields(tt.alphabet)
			for range 300 {
				input := make([]string, scanMaxLen-10+rng.IntN(scanFarLen))
				for i := range input {
					input[i] = symbols[rng.IntN(len(symbols))]
				}
				in := a.str(strings.Join(input, " "))
				opt := Options{Leftmost: rng.IntN(2) == 0, MaxSteps: 1 + rng.IntN(3000), MaxLen: len(input) + rng.IntN(200), MaxWork: DefaultMaxWork}
				outS, resS := scanning.Run(in, opt)
				gotS := a.text(outS)
				outN, resN := searching.Run(in, opt)
				if gotN := a.text(outN); gotS != gotN || resS != resN {
					t.Fatalf("%d symbols %+v: with the scanner %+v, without %+v", len(input), opt, resS, resN)
				}
			}
		})
	}
}
