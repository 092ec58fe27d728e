package fuzz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	gen "github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// envGoodEvil are the Good/Evil behaviours a generated environment draws
// from: patterns come from the bytes; these programs react to what they see.
var envGoodEvil = []string{
	"->. a1",
	"π [⊙] A1 ->. a1 a1\n\t->. a0",
	"(π|:) ->\n\t⊙ A1 ->. a1\n\t->. a0",
	"⊙ (χ1 ∉ {:}) -> χ1\n\ta1 a1 ->. ∇\n\t-> a1 Δ",
	"x -> x\n\t-> x", // runs to its bound every time
}

// generatedEnvironment turns fuzz bytes into the source of a valid
// environment: 2–4 actions, 2–6 cells, a table repaired to be valid (the
// stay column loops, and action a1 leads round a ring so that the space is
// strongly connected), Good/Evil a pattern or one of envGoodEvil, zero to two
// objects, and settings drawn from the bytes.
func generatedEnvironment(data []byte) string {
	at := 0
	next := func(n int) int {
		if at >= len(data) || n <= 1 {
			return 0
		}
		at++
		return int(data[at-1]) % n
	}
	na, nc := 2+next(3), 2+next(5)
	var b strings.Builder
	b.WriteString("actions")
	for a := range na {
		fmt.Fprintf(&b, " a%d", a)
	}
	b.WriteString("\nspace table {\n")
	for c := range nc {
		b.WriteString("\t")
		for a := range na {
			d := c
			switch {
			case a == 1:
				d = (c + 1) % nc
			case a > 1:
				d = next(nc)
			}
			fmt.Fprintf(&b, "%d ", d+1)
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	for i := range next(3) {
		fmt.Fprintf(&b, "object ω%d {\n\t%s\n}\n", i+1, envGoodEvil[next(len(envGoodEvil))])
	}
	if next(2) == 0 {
		b.WriteString("goodevil pattern")
		for range 1 + next(6) {
			fmt.Fprintf(&b, " a%d", next(na))
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(&b, "goodevil {\n\t%s\n}\n", envGoodEvil[next(len(envGoodEvil))])
	}
	settings := []string{"set cycle off", "set garbage off", "set rewards lambda-one", "set cycle-bound 3", "reward 1", "reward 1/8"}
	for _, s := range settings {
		if next(4) == 0 {
			b.WriteString(s + "\n")
		}
	}
	// Runs are bounded at 40 or 1,000 steps, not the default 10,000: a
	// behaviour that never halts then costs an input about half a second
	// at most, where 10,000 steps made some take 5–7 s alone and over 10 s
	// on a loaded machine, which Go's fuzzing takes for a hung worker.
	if next(4) == 0 {
		b.WriteString("set max-steps 40\n")
	} else {
		b.WriteString("set max-steps 1000\n")
	}
	return b.String()
}

// FuzzGeneratedEnvironment runs agents in environments made from fuzz bytes
// and checks the invariants of a run: every reward and score lies in
// [−1, 1]; Good and Evil never share a cell; π's observation has one ':' a
// cell and π in exactly one cell; no interaction takes more VM steps than
// its behaviours' bounds allow; the same seed gives the same run; an
// episode of Evaluate plays as it would alone; and an episode with the
// memo of runs plays as one without it (NewPlainEpisode).
func FuzzGeneratedEnvironment(f *testing.F) {
	for _, seed := range [][]byte{{}, {0, 0, 1}, {2, 4, 1, 3, 0, 1, 2}, {1, 3, 2, 2, 1, 0, 4, 3, 2, 1, 0}, []byte("anynt environment")} {
		f.Add(seed, uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		src := generatedEnvironment(data)
		file, err := lang.Parse("generated.anynt", []byte(src))
		if err != nil {
			t.Fatalf("the generator wrote a file that does not parse: %v\n%s", err, src)
		}
		e, err := env.Load(file)
		if err != nil {
			t.Fatalf("the generator wrote an invalid environment: %v\n%s", err, src)
		}
		trace := func(name string) string {
			a, _ := agent.New(name, agent.DefaultSettings)
			var b strings.Builder
			ep := env.NewEpisode(e, a, seed)
			score := ep.Run(60, func(s env.Step) {
				if s.Reward < -1 || s.Reward > 1 {
					t.Fatalf("reward %v\n%s", s.Reward, src)
				}
				if s.Positions[env.Good] == s.Positions[env.Evil] {
					t.Fatalf("Good and Evil share cell %d\n%s", s.Positions[env.Good], src)
				}
				if cells := strings.Count(s.Observation, ":"); cells != e.Space.Cells() {
					t.Fatalf("π's observation %q has %d cells, not %d", s.Observation, cells, e.Space.Cells())
				}
				if strings.Count(s.Observation, "π") != 1 {
					t.Fatalf("π's observation %q does not hold π once", s.Observation)
				}
				fmt.Fprintf(&b, "%s %s %v %v|", s.Observation, s.Action, s.Reward, s.Positions)
			})
			if score < -1 || score > 1 {
				t.Fatalf("score %v\n%s", score, src)
			}
			runs := len(e.Objects) + 2
			if ep.MaxSteps > runs*e.Settings.MaxSteps {
				t.Fatalf("an interaction took %d steps; its %d runs are bounded by %d each", ep.MaxSteps, runs, e.Settings.MaxSteps)
			}
			return b.String()
		}
		// π's observation, which the machine writes in pieces (runs of ':'
		// between the cells that show something), is its definition.
		outside := env.NewEpisode(e, outsideAgent{}, seed)
		for k := range 60 {
			v, err := outside.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if got, want := v.Text(), piObservation(e, v.Positions()); got != want {
				t.Fatalf("interaction %d: π's observation %q; its definition spells %q\n%s", k+1, got, want, src)
			}
			if _, err := outside.Finish(k % len(e.Actions)); err != nil {
				t.Fatal(err)
			}
		}
		for _, name := range []string{"random", "follower", "oracle", "qlearning"} {
			if first, second := trace(name), trace(name); first != second {
				t.Fatalf("%s: two runs with seed %d differ\n%s", name, seed, src)
			}
		}
		// Evaluate hands machines and memos from episode to episode; each
		// episode must still play as it would alone.
		newRandom := func() env.Agent { a, _ := agent.New("random", agent.DefaultSettings); return a }
		// The runs stopped at a bound are counted alike, and never more
		// than the runs.
		ev := env.Evaluate(e, newRandom, 4, 40, seed, nil)
		bounds := make([]env.BoundCount, len(ev.Bounds))
		for i, score := range ev.Scores {
			ep := env.NewEpisode(e, newRandom(), env.EpisodeSeed(seed, i))
			if alone := ep.Run(40, nil); alone != score {
				t.Fatalf("episode %d scores %v in Evaluate and %v alone\n%s", i, score, alone, src)
			}
			for k, c := range ep.Bounds {
				bounds[k].Behaviour = c.Behaviour
				bounds[k].Runs += c.Runs
				bounds[k].StepLimit += c.StepLimit
				bounds[k].LengthLimit += c.LengthLimit
				bounds[k].WorkLimit += c.WorkLimit
			}
		}
		for k, c := range ev.Bounds {
			if c != bounds[k] {
				t.Fatalf("bounds %+v in Evaluate, %+v alone\n%s", c, bounds[k], src)
			}
			if c.StepLimit+c.LengthLimit+c.WorkLimit > c.Runs || c.Runs == 0 {
				t.Fatalf("bounds %+v: more runs stopped than run, or none run\n%s", c, src)
			}
		}
		// The memo answers runs as the VM would: episodes with it (a
		// Player's second, whose memos the first filled) and without it
		// play the same trajectory, steps and bounds.
		player := env.NewPlayer(e)
		for i, name := range []string{"random", "qlearning"} {
			play := func(ep *env.Episode) string {
				var b strings.Builder
				ep.Run(150, func(s env.Step) { fmt.Fprintf(&b, "%s %s %v %v|", s.Observation, s.Action, s.Reward, s.Positions) })
				fmt.Fprintf(&b, "%d %v", ep.MaxSteps, ep.Bounds)
				return b.String()
			}
			a, _ := agent.New(name, agent.DefaultSettings)
			memo := play(player.Episode(a, seed+uint64(i)))
			a, _ = agent.New(name, agent.DefaultSettings)
			if plain := play(env.NewPlainEpisode(e, a, seed+uint64(i))); plain != memo {
				t.Fatalf("%s: the memo changes the episode\nmemo  %s\nplain %s\n%s", name, memo, plain, src)
			}
		}
	})
}

// piObservation spells π's observation straight from [P] §4.3 when
// everything is in cells pos (from 0, as View gives them): for each cell,
// the objects there in their order, the markers of the actions that lead
// there from π's cell, and ':'. The machine writes it in pieces, runs of
// ':' between the cells that show something.
func piObservation(e *env.Env, pos []int) string {
	names := []string{"π", "⊕", "⊖"}
	for _, o := range e.Objects {
		names = append(names, o.Name)
	}
	var b strings.Builder
	for c := range e.Space.Cells() {
		for k, p := range pos {
			if p == c {
				b.WriteString(names[k])
			}
		}
		for a, d := range e.Space.Dest[pos[env.Pi]] {
			if d == c {
				b.WriteString(e.Markers[a])
			}
		}
		b.WriteString(":")
	}
	return b.String()
}

// outsideAgent stands for an agent outside the process, which answers
// through Begin and Finish.
type outsideAgent struct{}

func (outsideAgent) Start(*env.Env, *random.Rand) {}
func (outsideAgent) Act(*env.View) int            { return 0 }
func (outsideAgent) End(float64)                  {}

// FuzzSpaceCode feeds arbitrary codes to the decoder, strictly and
// leniently: it never panics, and a space it returns has one arrow a
// cell for every action, each leading to a cell that exists.
func FuzzSpaceCode(f *testing.F) {
	for _, code := range []string{"lr+:l-r+:l-r", "+r-l+r-l", "1+2++3|1+23-|1+23|1+2--3-", "", ":", "+", "r+++++:", "s+r", "+rr-ll"} {
		f.Add(code, true)
		f.Add(code, false)
	}
	f.Fuzz(func(t *testing.T, code string, thesis bool) {
		symbols, err := lang.Symbols(code)
		if err != nil {
			return
		}
		dialect := "paper"
		if thesis {
			dialect = "thesis"
		}
		actions := []string{"s", "l", "r"}
		for _, strict := range []bool{true, false} {
			s, err := env.DecodeCode(dialect, symbols, actions, strict)
			if err != nil {
				continue
			}
			for c, row := range s.Dest {
				if len(row) != len(actions) {
					t.Fatalf("cell %d has %d arrows", c+1, len(row))
				}
				for _, d := range row {
					if d < 0 || d >= s.Cells() {
						t.Fatalf("cell %d: an arrow to cell %d of %d", c+1, d+1, s.Cells())
					}
				}
			}
			s.Check()
		}
	})
}

// FuzzEnumerate enumerates up to a fuzzed bound and a fuzzed count: the
// stream never decreases in length, every file loads, and its description
// length is the one the stream gives.
func FuzzEnumerate(f *testing.F) {
	f.Add(uint8(0), uint8(10))
	f.Add(uint8(12), uint8(200))
	f.Fuzz(func(t *testing.T, extra, count uint8) {
		maxBits := 43 + float64(extra%16)
		last := 0.0
		n := 0
		err := gen.Enumerate(maxBits, func(c gen.Candidate) bool {
			if c.Bits < last || c.Bits > maxBits {
				t.Fatalf("environment %d: %.4f bits after %.4f, bound %.1f", c.Index, c.Bits, last, maxBits)
			}
			last = c.Bits
			file, err := lang.Parse("c.anynt", []byte(c.Source()))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := env.Load(file); err != nil {
				t.Fatalf("%v\n%s", err, c.Source())
			}
			n++
			return n < int(count)
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
