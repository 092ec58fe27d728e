package fuzz

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzTake gives a Λ_one exercise of a fuzzed seed to the built-in agents,
// the paced ones included, at a fuzzed pace and test time, and checks what
// Take promises: no interaction after τ or past the steps, every
// per-interaction payoff in [−1, 1], anytime curves that never go back in
// time or count, the payoffs at τ the curve's last point, and the same
// outcome again from the same inputs.
func FuzzTake(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint16(10), uint16(0), uint8(3))
	f.Add(uint64(7), uint8(1), uint16(3), uint16(17), uint8(6))
	f.Add(uint64(99), uint8(2), uint16(500), uint16(1), uint8(0))
	f.Fuzz(func(t *testing.T, seed uint64, model uint8, delay, tau uint16, exercise uint8) {
		pace := exam.Pace{Model: []string{"constant", "uniform", "exponential"}[model%3], A: float64(delay%1000+1) / 100}
		if pace.Model == "uniform" {
			pace.B = pace.A * 3
		}
		s := exam.DefaultSettings
		s.Pace, s.Tau, s.Episodes, s.CurvePoints = pace, float64(tau%200), 2, 7
		items, err := exam.LambdaOneItems(seed, 1, "fuzz")
		if err != nil {
			t.Fatal(err)
		}
		items = items[int(exercise)%len(items):][:1]
		var xs []exam.Examinee
		for _, name := range []string{"random", "qlearning", "stopper", "modulator"} {
			factory, err := agent.Lookup(name, agent.DefaultSettings)
			if err != nil {
				t.Fatal(err)
			}
			xs = append(xs, exam.Examinee{Name: name, New: factory})
		}
		out, err := exam.Take(items, xs, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := exam.Take(items, xs, s, nil)
		for i, o := range out {
			v := o.Values
			if v.Count > items[0].Steps || o.Tau <= 0 || (s.Tau > 0 && o.Tau != s.Tau) {
				t.Fatalf("%s: %d interactions of %d by τ = %v (setting %v)", o.Agent, v.Count, items[0].Steps, o.Tau, s.Tau)
			}
			for _, x := range []float64{v.PerCycle, v.Diminishing, v.Discounted} {
				if math.IsNaN(x) || x < -1 || x > 1 {
					t.Fatalf("%s: a payoff per interaction %v outside [−1, 1]: %+v", o.Agent, x, v)
				}
			}
			for k := 1; k < len(o.Curve); k++ {
				if o.Curve[k].Tau <= o.Curve[k-1].Tau || o.Curve[k].Count < o.Curve[k-1].Count {
					t.Fatalf("%s: the curve goes back: %+v then %+v", o.Agent, o.Curve[k-1], o.Curve[k])
				}
			}
			if last := o.Curve[len(o.Curve)-1]; last != v {
				t.Fatalf("%s: the curve ends at %+v, the values at τ are %+v", o.Agent, last, v)
			}
			if a := again[i]; a.Values != v || a.Score != o.Score || a.Stopped != o.Stopped {
				t.Fatalf("%s: the same inputs gave %+v, then %+v", o.Agent, v, a.Values)
			}
		}
	})
}

// FuzzExerciseTree draws the exercises of a fuzzed seed, of a Λ_one test
// and of the adaptive test's two Λ_one ladders at a fuzzed level, under a fuzzed file name and
// version, and checks that the syntax tree Exercise.Load writes with the
// text is the one lang.Parse reads from that text, positions included,
// and that both load to the same environment.
func FuzzExerciseTree(f *testing.F) {
	f.Add(uint64(1), uint8(0), "lambda-one:1/1", "0.2.0-dev")
	f.Add(uint64(12345), uint8(6), "x.anynt", "π ⊕ ⊖")
	f.Fuzz(func(t *testing.T, seed uint64, level uint8, name, version string) {
		if strings.ContainsAny(version, "\n\r") || !utf8.ValidString(version) || !utf8.ValidString(name) {
			return // a header comment holds one line of text
		}
		xs := append(exam.LambdaOne(seed), exam.AdaptiveExercise(seed, 1, 1+int(level)%exam.MaxLevel),
			exam.KApproxExercise(seed, 1, 1+int(level)%exam.MaxLevel))
		for _, x := range xs {
			e, tree, src, err := x.Load(name, seed, version)
			if err != nil {
				t.Fatalf("exercise %d: %v", x.Number, err)
			}
			parsed, err := lang.Parse(name, []byte(src))
			if err != nil {
				t.Fatalf("exercise %d: %v\n%s", x.Number, err, src)
			}
			if d := cmp.Diff(parsed, tree, cmpopts.EquateEmpty()); d != "" {
				t.Fatalf("exercise %d: the tree differs from the parse (-parsed +written):\n%s", x.Number, d)
			}
			loaded, err := env.Load(parsed)
			if err != nil {
				t.Fatalf("exercise %d: %v", x.Number, err)
			}
			if !cmp.Equal(loaded.Space.Dest, e.Space.Dest) || !cmp.Equal(loaded.Place, e.Place) ||
				!cmp.Equal(loaded.GoodEvilPattern(), e.GoodEvilPattern()) || loaded.Settings != e.Settings {
				t.Fatalf("exercise %d: the parsed file loads to another environment", x.Number)
			}
		}
	})
}
