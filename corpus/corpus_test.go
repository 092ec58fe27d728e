package corpus_test

import (
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
	"github.com/google/go-cmp/cmp"
)

// load parses and compiles a corpus file, with extra symbols interned.
func load(t *testing.T, name string, classic bool, extra ...string) *vm.Program {
	t.Helper()
	src, err := fs.ReadFile(corpus.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	parse := lang.Parse
	if classic {
		parse = lang.ParseClassic
	}
	f, err := parse(name, src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	prog, err := compiler.Compile(f, compiler.Options{Extra: extra})
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return prog
}

type step struct {
	Rule   int // 1-based, as the papers number rules
	String string
}

// runTrace runs prog on input and returns the output and every step.
func runTrace(t *testing.T, prog *vm.Program, input []string, leftmost bool) (string, vm.Result, []step) {
	t.Helper()
	codes, err := prog.Encode(input)
	if err != nil {
		t.Fatal(err)
	}
	var steps []step
	opts := vm.DefaultOptions()
	opts.Leftmost = leftmost
	opts.Trace = func(_, rule int, s []byte) { steps = append(steps, step{rule + 1, prog.Text(s)}) }
	out, res := vm.New(prog).Run(codes, opts)
	return prog.Text(out), res, steps
}

// The thesis's binary-to-unary algorithm (Insa-Cabrera 2011, §2.1.6), run
// leftmost as the thesis runs it, turns 101 into five strokes with exactly
// its trace.
func TestBinaryToUnaryThesisTrace(t *testing.T) {
	prog := load(t, "classic/binary-to-unary.markov", true)
	out, res, steps := runTrace(t, prog, []string{"1", "0", "1"}, true)
	want := []step{
		{2, "0|01"}, {1, "00||1"}, {2, "00||0|"}, {1, "00|0|||"},
		{1, "000|||||"}, {3, "00|||||"}, {3, "0|||||"}, {3, "|||||"},
	}
	if diff := cmp.Diff(want, steps); diff != "" {
		t.Errorf("trace (-thesis +got):\n%s", diff)
	}
	if out != "|||||" || res.Halt != vm.NoRule {
		t.Errorf("got %q (%v), want ||||| (no rule applies)", out, res.Halt)
	}
}

// The space generator of the thesis's Fig. 3.3 writes the six-cell line from
// the empty string, firing 4-1-2-2-2-2-3.
func TestThesisSpaceGenerator(t *testing.T) {
	prog := load(t, "thesis/space-generator.anynt", false)
	out, res, steps := runTrace(t, prog, nil, false)
	var order []int
	for _, s := range steps {
		order = append(order, s.Rule)
	}
	if diff := cmp.Diff([]int{4, 1, 2, 2, 2, 2, 3}, order); diff != "" {
		t.Errorf("firing order (-thesis +got):\n%s", diff)
	}
	if out != "lr+:l-r+:l-r+:l-r+:l-r+:l-r" || res.Halt != vm.Terminated {
		t.Errorf("got %q (%v)", out, res.Halt)
	}
}

// Example 2's environment and Example 3's agent of Hernández-Orallo (2010b,
// §2) interact as the paper describes: the environment starts with + and b,
// then alternates w and b; the agent plays l on w and r on b, and every
// reward it gets is +.
func TestPaperExamples2And3Interact(t *testing.T) {
	env := load(t, "paper/example2-environment.anynt", false)
	agent := load(t, "paper/example3-agent.anynt", false, "+", "-", "|")
	envVM, agentVM := vm.New(env), vm.New(agent)
	var history []string // the interaction string, as symbols
	var rewards, observations, actions []string
	for range 8 {
		codes, _ := env.Encode(history)
		out, res := envVM.Run(codes, vm.DefaultOptions())
		if res.Halt != vm.Terminated {
			t.Fatalf("environment halted by %v", res.Halt)
		}
		history = env.Decode(out)
		rewards = append(rewards, rightmostOf(history, "+", "-"))
		observations = append(observations, rightmostOf(history, "w", "b"))

		codes, err := agent.Encode(history)
		if err != nil {
			t.Fatal(err)
		}
		out, res = agentVM.Run(codes, vm.DefaultOptions())
		if res.Halt != vm.Terminated {
			t.Fatalf("agent halted by %v", res.Halt)
		}
		history = agent.Decode(out)
		actions = append(actions, rightmostOf(history, "l", "r"))
	}
	if diff := cmp.Diff(strings.Split("+ + + + + + + +", " "), rewards); diff != "" {
		t.Errorf("rewards (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(strings.Split("b w b w b w b w", " "), observations); diff != "" {
		t.Errorf("observations (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(strings.Split("r l r l r l r l", " "), actions); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if got := strings.Join(history[:12], ""); got != "+br|+wl|+br|" {
		t.Errorf("history starts %q, want +br|+wl|+br|", got)
	}
}

// As printed, Example 2's rules are normal: the empty rule fires after every
// rewrite and the algorithm runs until a limit stops it (the erratum that
// the corpus file corrects).
func TestPaperExample2AsPrintedNeverHalts(t *testing.T) {
	src := "wl@ -> wl|+b@\nbl@ -> bl|-w@\nwr@ -> wr|-b@\nbr@ -> br|+w@\n-> +b@\n"
	f, err := lang.Parse("as-printed.anynt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, res := vm.New(prog).Run(nil, vm.Options{MaxSteps: 1000, MaxLen: 100, MaxWork: vm.DefaultMaxWork})
	if res.Halt != vm.LengthLimit && res.Halt != vm.StepLimit {
		t.Errorf("as printed, the algorithm halted (%v); it must run into a limit", res.Halt)
	}
}

func rightmostOf(s []string, syms ...string) string {
	for i := len(s) - 1; i >= 0; i-- {
		for _, x := range syms {
			if s[i] == x {
				return x
			}
		}
	}
	return ""
}

// Classic rule files from the literature run unmodified, leftmost, with the
// outputs their authors give (Rosetta Code's five conformance rulesets: one
// traps regular-expression interpreters, one is a unary multiplication
// engine, one a busy beaver).
func TestClassicCorpus(t *testing.T) {
	names, err := fs.Glob(corpus.Files, "classic/*.markov")
	if err != nil || len(names) < 6 {
		t.Fatalf("classic corpus: %v (%d files)", err, len(names))
	}
	for _, name := range names {
		t.Run(path.Base(name), func(t *testing.T) {
			base := strings.TrimSuffix(name, ".markov")
			in := readLine(t, base+".in")
			want := readLine(t, base+".out")
			input := lang.SymbolsOfClassicInput(in)
			prog := load(t, name, true, input...)
			codes, err := prog.Encode(input)
			if err != nil {
				t.Fatal(err)
			}
			opts := vm.DefaultOptions()
			opts.Leftmost = true
			out, res := vm.New(prog).Run(codes, opts)
			if got := prog.Text(out); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
			if res.Halt != vm.Terminated && res.Halt != vm.NoRule {
				t.Errorf("halted by %v", res.Halt)
			}
		})
	}
}

func readLine(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(corpus.Files, name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(string(b), "\n")
}

// Every notation file of the corpus is in the canonical form.
func TestCorpusIsFormatted(t *testing.T) {
	names, _ := fs.Glob(corpus.Files, "*/*.anynt")
	for _, name := range names {
		src, _ := fs.ReadFile(corpus.Files, name)
		f, err := lang.Parse(name, src)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if got := string(lang.Format(f)); got != string(src) {
			t.Errorf("%s is not formatted; anynt fmt gives:\n%s", name, got)
		}
	}
}

// actionsOf keeps the action symbols of an object's output, as the
// environment's post-processing does.
func actionsOf(s []string) []string {
	var out []string
	for _, x := range s {
		if x == "s" || x == "l" || x == "r" {
			out = append(out, x)
		}
	}
	return out
}

// The thesis's Good/Evil algorithm, with ω1 out of reach, moves three cells
// left, then three right, and again: its memory carries the pattern from one
// interaction to the next.
func TestThesisGoodEvilPattern(t *testing.T) {
	obs := strings.Fields("L : ⊙ S : π R : : ⊙ : ω1 :")
	prog := load(t, "thesis/goodevil.anynt", false, obs...)
	machine := vm.New(prog)
	codes, _ := prog.Encode(obs)
	var moves []string
	for range 8 {
		out, res := machine.Run(codes, vm.DefaultOptions())
		if res.Halt != vm.Terminated {
			t.Fatalf("halted by %v", res.Halt)
		}
		acts := actionsOf(prog.Decode(out))
		if len(acts) != 1 {
			t.Fatalf("want one action, got %v in %s", acts, prog.Text(out))
		}
		moves = append(moves, acts[0])
	}
	if diff := cmp.Diff(strings.Fields("l l l r r r l l"), moves); diff != "" {
		t.Errorf("moves (-want +got):\n%s", diff)
	}
}

// With ω1 reachable by its left move, Good/Evil stay instead of entering
// ω1's cell.
func TestThesisGoodEvilAvoidsOmega1(t *testing.T) {
	obs := strings.Fields("ω1 L : ⊙ S : R : ⊙ :")
	prog := load(t, "thesis/goodevil.anynt", false, obs...)
	codes, _ := prog.Encode(obs)
	out, _ := vm.New(prog).Run(codes, vm.DefaultOptions())
	if got := actionsOf(prog.Decode(out)); !cmp.Equal(got, []string{"s"}) {
		t.Errorf("actions %v in %s, want [s]", got, prog.Text(out))
	}
}

// The thesis's ω1 stays while π is only adjacent, remembering the side π is
// on, and flees to the other side when π enters its cell.
func TestThesisOmega1Flees(t *testing.T) {
	adjacent := strings.Fields("⊙ : : π L : ω1 S : R : ⊙ :") // π left of ω1
	entered := strings.Fields("⊙ : : : π ω1 S : R : ⊙ :")    // π came by its r
	prog := load(t, "thesis/omega1.anynt", false, adjacent...)
	machine := vm.New(prog)
	for _, step := range []struct {
		obs  []string
		want string
	}{{adjacent, "s"}, {entered, "r"}} {
		codes, _ := prog.Encode(step.obs)
		out, _ := machine.Run(codes, vm.DefaultOptions())
		acts := actionsOf(prog.Decode(out))
		if len(acts) == 0 || acts[len(acts)-1] != step.want {
			t.Errorf("on %s: output %s, want the action %s", strings.Join(step.obs, ""), prog.Text(out), step.want)
		}
	}
}
