package env_test

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/vm"
)

// loadedReach is a parsed and loaded environment of reachEnvs.
type loadedReach struct {
	f *lang.File
	e *env.Env
}

// loadedReachEnvs are reachEnvs parsed and loaded, by name; rule files
// are left out.
func loadedReachEnvs(t *testing.T) map[string]loadedReach {
	t.Helper()
	out := map[string]loadedReach{}
	for name, src := range reachEnvs(t) {
		f, err := lang.Parse(name, []byte(src))
		if err != nil || !env.IsEnvironment(f) {
			continue
		}
		e, err := env.Load(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = loadedReach{f, e}
	}
	return out
}

// reachEnvs are the environments the soundness tests run: the corpus's,
// the chaser trap, and small ones whose rules come alive only through
// what other rules write or through the memory.
func reachEnvs(t *testing.T) map[string]string {
	t.Helper()
	envs := map[string]string{}
	files, _ := fs.Glob(corpus.Files, "*/*.anynt")
	for _, file := range files {
		src, err := fs.ReadFile(corpus.Files, file)
		if err != nil {
			t.Fatal(err)
		}
		envs[file] = string(src)
	}
	trap, err := os.ReadFile("testdata/chaser-trap.anynt")
	if err != nil {
		t.Fatal(err)
	}
	envs["chaser-trap.anynt"] = string(trap)
	for name, src := range reachCrafted {
		envs[name] = src
	}
	return envs
}

// reachCrafted hold rules that only another rule's writing, or the memory,
// makes live, and a shared rule live in one of its users (ω1 S: ω2 sees
// ω1ω2S), beside rules that are dead.
var reachCrafted = map[string]string{
	"memory.anynt": `actions s l r
space thesis l-r+:l-r+:l-r+
object ω1 {
	Q π ->. l
	ω1 -> Q ∇
	π^Δ ->. s
	Z ->. r
}
goodevil {
	π ⊕ ->. l
	⊙ (χ ∉ {:}) -> ⊙ Y
	Y S ->. r
	Y ->. s
	->. l
}
`,
	"two objects.anynt": `actions s l r
space thesis l-r+:l-r+:l-r+
block seek {
	ω1 S ->. s
	π ω2 ->. l
}
object ω1 {
	use seek
	ω2 ω1 ->. s
	->. s
}
object ω2 {
	use seek
	->. s
}
goodevil {
	->. r
}
`,
}

// Every pair of symbols side by side in an observation, the string's
// start and end included, is one the lint's observation language allows:
// else a rule that can fire could be called dead.
func TestObservationPairsHoldEveryObservation(t *testing.T) {
	for name, le := range loadedReachEnvs(t) {
		e := le.e
		names := e.BaseSymbols()
		free := make([]int, 3+len(e.Objects))
		for i := range free {
			free[i] = -1
		}
		allowed := map[int]func(a, b string) bool{env.Good: env.ObservationPairs(e, env.Good)}
		for i := range e.Objects {
			allowed[3+i] = env.ObservationPairs(e, 3+i)
		}
		for seed := range uint64(300) {
			pos := e.PlaceRest(free, seed)
			for who := 1; who < len(pos); who++ {
				obs, err := e.Observe(pos, who)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				lang := allowed[max(who, env.Good)]
				if who == env.Evil {
					lang = allowed[env.Good]
				}
				prev := "^"
				for _, c := range append(obs, 255) {
					next := "$"
					if c != 255 {
						next = names[c]
					}
					if !lang(prev, next) {
						t.Fatalf("%s, %v: %s sees %s, whose pair %s%s the lint rules out", name, pos, e.ObjectName(who), e.Text(obs), prev, next)
					}
					prev = next
				}
			}
		}
	}
}

// No rule the lint calls dead ever fires: every behaviour runs on the
// observations of 60 random placements in turn, its memory carried from
// run to run as in an episode, and each rule that fires is looked up in
// the warnings.
func TestLintNeverWarnsOfARuleThatFires(t *testing.T) {
	fired := 0
	for name, le := range loadedReachEnvs(t) {
		f, e := le.f, le.e
		dead := map[string]string{}
		for _, w := range env.Lint(f, e) {
			if strings.Contains(w.Msg, "can never match") {
				dead[fmt.Sprintf("%d:%d", w.Pos.Line, w.Pos.Col)] = w.Msg
			}
		}
		free := make([]int, 3+len(e.Objects))
		for i := range free {
			free[i] = -1
		}
		for who := 1; who < 3+len(e.Objects); who++ {
			prog := e.Program(who)
			if prog == nil {
				continue
			}
			m := vm.New(prog)
			opts := e.RunOptions()
			opts.Trace = func(_, rule int, _ []byte) {
				p := prog.Rules[rule].Pos
				if msg, ok := dead[fmt.Sprintf("%d:%d", p.Line, p.Col)]; ok && p.File == name {
					t.Fatalf("%s: rule %s fired, but the lint says: %s", name, p, msg)
				}
				fired++
			}
			for seed := range uint64(60) {
				pos := e.PlaceRest(free, seed)
				obs, err := e.Observe(pos, who)
				if err != nil {
					t.Fatal(err)
				}
				m.Run(obs, opts)
			}
		}
	}
	if fired == 0 {
		t.Fatal("no rule fired: the test tried nothing")
	}
}

// The lint names the rules that can never match, at the rule, with the
// reason; rules that only another rule's writing or the memory makes
// live, and shared rules live in one of their users, are left alone.
func TestLintWarnsOfRulesThatNeverMatch(t *testing.T) {
	trap, err := os.ReadFile("testdata/chaser-trap.anynt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, src, want string }{
		{"the chaser trap", string(trap),
			"chaser-trap.anynt:11:2: object ω1: this rule can never match: it needs πL, but π is never directly followed by L in the strings it can see (its observations and what its rules write): after π come only ⊙; π⊙L can occur"},
		{"memory", reachCrafted["memory.anynt"],
			"memory.anynt:7:2: object ω1: this rule can never match: it needs Z, which is in none of the observations and no rule that can fire writes\n" +
				"memory.anynt:10:2: Good/Evil: this rule can never match: it needs ⊕, which is in none of the observations and no rule that can fire writes"},
		{"two objects", reachCrafted["two objects.anynt"],
			"two objects.anynt:9:2: object ω1: this rule can never match: it needs ω2ω1, but ω2 is never directly followed by ω1 …"},
		{"a sugared rule", lintHead + "object ω1 {\n\tπ (S|Φ) ->. l\n\t->. s\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:4:2: object ω1: this rule can never match: none of its 2 plain rules (its ordered expansion) can: it needs πS, …; it needs Φ, …"},
		{"the space generator", "actions s r\nspace generator thesis {\n\tQ ->. r+:r+\n\t->. r+:r+\n}\ngoodevil pattern r\n",
			"t.anynt:3:2: the space generator: this rule can never match: it needs Q, …"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := tc.name + ".anynt"
			if strings.HasPrefix(tc.want, "t.anynt") {
				name = "t.anynt"
			} else if tc.name == "the chaser trap" {
				name = "chaser-trap.anynt"
			}
			var got []string
			for _, line := range strings.Split(lint(t, name, tc.src), "\n") {
				if strings.Contains(line, "can never match") {
					got = append(got, line)
				}
			}
			if !matches(strings.Join(got, "\n"), tc.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}

// reachGenerated writes a random environment whose behaviours are short
// rules over the observation's symbols, two work symbols, ∇, Δ and a little
// sugar, so that many of its rules are dead and many come alive only
// through other rules or the memory.
func reachGenerated(rng *random.Rand) string {
	var b strings.Builder
	cells := 2 + rng.IntN(4)
	b.WriteString("actions s l r\nspace table {\n")
	for c := range cells {
		fmt.Fprintf(&b, "\t%d %d %d\n", c+1, (c+cells-1)%cells+1, 1+[]int{(c + 1) % cells, rng.IntN(cells), c}[rng.IntN(3)])
	}
	b.WriteString("}\n")
	lhs := []string{"π", "⊙", "ω1", "ω2", "S", "L", "R", ":", "x", "y", "[⊙]", "(x|:)", "χ", "(χ ∉ {:})"}
	rhs := []string{"π", "⊙", "ω1", ":", "L", "x", "y", "∇", "l", "r", "s"}
	rules := func() {
		for range 1 + rng.IntN(5) {
			b.WriteString("\t")
			for i := range 1 + rng.IntN(3) {
				sym := lhs[rng.IntN(len(lhs))]
				if i == 0 && rng.IntN(5) == 0 && !strings.ContainsAny(sym, "[(") {
					sym += "^Δ"
				}
				b.WriteString(sym + " ")
			}
			b.WriteString([]string{"->", "->."}[rng.IntN(2)])
			for range rng.IntN(4) {
				b.WriteString(" " + rhs[rng.IntN(len(rhs))])
			}
			if rng.IntN(5) == 0 {
				b.WriteString(" Δ")
			}
			b.WriteString("\n")
		}
		b.WriteString("\t->. " + []string{"s", "l", "r"}[rng.IntN(3)] + "\n")
	}
	for i := range 1 + rng.IntN(2) {
		fmt.Fprintf(&b, "object ω%d {\n", i+1)
		rules()
		b.WriteString("}\n")
	}
	b.WriteString("goodevil {\n")
	rules()
	b.WriteString("}\nset max-steps 200\nset max-len 200\n")
	return b.String()
}

// On random environments, no rule the lint calls dead ever fires, over
// random placements with each behaviour's memory carried from run to run;
// and the lint does call some rules dead, so the test tries something.
func TestLintSoundOnGeneratedEnvironments(t *testing.T) {
	rng := random.New(1, 0x11a7)
	warned, fired := 0, 0
	for range 300 {
		src := reachGenerated(rng)
		f, err := lang.Parse("g.anynt", []byte(src))
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		e, err := env.Load(f)
		if err != nil {
			continue // a ^Δ the compiler refuses, say
		}
		dead := map[vm.Pos]string{}
		for _, w := range env.Lint(f, e) {
			if strings.Contains(w.Msg, "can never match") {
				dead[vm.Pos{File: w.Pos.File, Line: w.Pos.Line, Col: w.Pos.Col}] = w.Msg
				warned++
			}
		}
		free := make([]int, 3+len(e.Objects))
		for i := range free {
			free[i] = -1
		}
		for who := 1; who < len(free); who++ {
			prog := e.Program(who)
			m := vm.New(prog)
			opts := e.RunOptions()
			opts.Trace = func(_, rule int, _ []byte) {
				if msg, ok := dead[prog.Rules[rule].Pos]; ok {
					t.Fatalf("rule %s fired, but the lint says: %s\n%s", prog.Rules[rule].Pos, msg, src)
				}
				fired++
			}
			for seed := range uint64(40) {
				obs, err := e.Observe(e.PlaceRest(free, seed+uint64(who)*1000), who)
				if err != nil {
					t.Fatal(err)
				}
				m.Run(obs, opts)
			}
		}
	}
	if warned == 0 || fired == 0 {
		t.Fatalf("%d rules warned dead, %d fired: the test tried nothing", warned, fired)
	}
	t.Logf("%d rules warned dead, %d rules fired", warned, fired)
}
