package exam_test

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/lang"
	"gonum.org/v1/gonum/stat"
)

// builtIns are the examinees of the adaptive tests, weakest first.
func builtIns(t testing.TB, names ...string) []exam.Examinee {
	t.Helper()
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

// On one seed and the default settings, the test orders random, follower,
// Q-learning and oracle; random's 95% interval holds 0, as a balanced
// test's must, and the oracle's lies above Q-learning's. Q-learning lands
// between follower and oracle: it learns within each environment, so it
// climbs above the follower as the environments grow longer, but it
// never knows the next move as the oracle does (docs/tests.md gives the
// figures over many seeds).
func TestAdaptiveRanksTheBuiltInAgents(t *testing.T) {
	rs, err := exam.TakeAdaptive(builtIns(t, "random", "follower", "oracle", "qlearning"), exam.DefaultAdaptive, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		t.Logf("%-9s %+.4f ± %.4f [%+.4f, %+.4f], mean level %.2f, %d environments", r.Agent, r.Score, r.SE, r.Low, r.High, r.MeanLevel, len(r.Steps))
	}
	if r := rs[0]; !(r.Low < 0 && 0 < r.High) {
		t.Errorf("random scores %+.4f, 95%% interval [%+.4f, %+.4f]; want 0 in the interval", r.Score, r.Low, r.High)
	}
	order := []exam.AdaptiveResult{rs[0], rs[1], rs[3], rs[2]}
	for i := 1; i < len(order); i++ {
		if lo, hi := order[i-1], order[i]; hi.Score <= lo.Score {
			t.Errorf("%s (%+.4f) is not above %s (%+.4f)", hi.Agent, hi.Score, lo.Agent, lo.Score)
		}
	}
	if q, o := rs[3], rs[2]; o.Low <= q.High {
		t.Errorf("the oracle (%+.4f, [%+.4f, %+.4f]) is not clearly above Q-learning (%+.4f, [%+.4f, %+.4f])", o.Score, o.Low, o.High, q.Score, q.Low, q.High)
	}
}

// The 95% interval is right for a staircase: over 200 seeds of the
// default test, [Low, High] holds the mean score over the seeds on 88.5
// to 98.5 in a hundred for each agent: random (which stays at the
// bottom), freq (a little above it), the follower (whose level wanders),
// the learners Q-learning, Q(λ), SARSA(λ) and HLQ(λ) (which climb as the
// environments lengthen) and the oracle (which stays at the top). The
// bounds are the aim, 90 to 97, widened by one binomial standard
// deviation of a coverage over 200 seeds (1.5 points at 95%). And the
// standard error is the score's spread over the seeds, within 0.8 to 1.25
// times on average: the staircase's model, which drew each level's moves
// toward its neighbours' alone, made the learners' standard error 1.45 to
// 1.7 times their spread on these seeds (their coverage 95–98%), and s/√n,
// which takes the environments for independent, held the follower's mean
// on 76 in a hundred (docs/tests.md, "How sure the score is", gives the
// figures for each agent, test time and range of seeds). The interval
// also is the one AdaptiveInterval gives at the test's whole time, and
// holds the score.
func TestAdaptiveIntervalCovers(t *testing.T) {
	const seeds = 200
	xs := builtIns(t, "random", "freq", "follower", "qlearning", "qlambda", "sarsalambda", "hlq", "oracle")
	score, se := make([][]float64, len(xs)), make([][]float64, len(xs))
	lo, hi := make([][]float64, len(xs)), make([][]float64, len(xs))
	for seed := uint64(1); seed <= seeds; seed++ {
		rs, err := exam.TakeAdaptive(xs, exam.DefaultAdaptive, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			score[i], se[i] = append(score[i], r.Score), append(se[i], r.SE)
			lo[i], hi[i] = append(lo[i], r.Low), append(hi[i], r.High)
			if !(r.Low < r.Score && r.Score < r.High) {
				t.Errorf("seed %d, %s: the interval [%.4f, %.4f] does not hold the score %.4f", seed, r.Agent, r.Low, r.High, r.Score)
			}
			if seed == 1 {
				if l, h := exam.AdaptiveInterval(r, exam.DefaultAdaptive, exam.DefaultAdaptive.Tau); l != r.Low || h != r.High {
					t.Errorf("%s: AdaptiveInterval at the whole time is [%v, %v], the result's [%v, %v]", r.Agent, l, h, r.Low, r.High)
				}
			}
		}
	}
	for i, x := range xs {
		mean, spread := stat.MeanStdDev(score[i], nil)
		n := 0
		for k := range score[i] {
			if lo[i][k] <= mean && mean <= hi[i][k] {
				n++
			}
		}
		c, ratio := float64(n)/seeds, spread/stat.Mean(se[i], nil)
		t.Logf("%-11s: %d of %d intervals hold the mean %+.4f; spread over se %.2f", x.Name, n, seeds, mean, ratio)
		if c < 0.885 || c > 0.985 {
			t.Errorf("%s: the 95%% interval holds the mean on %.1f%% of the tests, want 88.5-98.5%%", x.Name, 100*c)
		}
		if ratio < 0.8 || ratio > 1.25 {
			t.Errorf("%s: the score's spread over the seeds is %.2f times its mean standard error, want 0.8-1.25", x.Name, ratio)
		}
	}
}

// The estimate settles: over 20 seeds, the distance between the score at
// τ and at τ/2, and the spread of the score over seeds, both shrink as τ
// grows fourfold, summed over the agents that do not learn (a learner's
// score follows the time it is given, so it is expected to move). At the
// longest τ the test orders random < follower < oracle on every seed.
func TestAdaptiveScoreSettles(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau = 16000
	taus := []float64{1000, 4000, 16000}
	moves := make([]float64, len(taus))
	spread := make([]float64, len(taus))
	xs := builtIns(t, "random", "follower", "oracle")
	at := make([][][]float64, len(xs)) // agent, τ, seed
	for i := range at {
		at[i] = make([][]float64, len(taus))
	}
	const seeds = 20
	for seed := uint64(1); seed <= seeds; seed++ {
		rs, err := exam.TakeAdaptive(xs, s, seed)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rs {
			for j, tau := range taus {
				now, _, _ := r.At(tau)
				half, _, _ := r.At(tau / 2)
				moves[j] += math.Abs(now-half) / seeds
				at[i][j] = append(at[i][j], now)
			}
		}
	}
	for i := range xs {
		for j := range taus {
			spread[j] += stat.StdDev(at[i][j], nil)
		}
	}
	last := len(taus) - 1
	for k := range seeds {
		if !(at[0][last][k] < at[1][last][k] && at[1][last][k] < at[2][last][k]) {
			t.Errorf("seed %d at τ = %v: random %+.4f, follower %+.4f, oracle %+.4f, out of order", k+1, taus[last], at[0][last][k], at[1][last][k], at[2][last][k])
		}
	}
	t.Logf("τ %v: |score(τ) − score(τ/2)| %.4f, spread over seeds %.4f", taus, moves, spread)
	for j := 1; j < len(taus); j++ {
		if moves[j] >= moves[j-1] {
			t.Errorf("|score(τ) − score(τ/2)| is %.4f at τ = %v, not below %.4f at %v", moves[j], taus[j], moves[j-1], taus[j-1])
		}
		if spread[j] >= spread[j-1] {
			t.Errorf("the spread over seeds is %.4f at τ = %v, not below %.4f at %v", spread[j], taus[j], spread[j-1], taus[j-1])
		}
	}
}

// A learner's score settles too: with the environments' time capped (150 s
// by default), the test becomes the same from one environment to the next
// once the cap is reached, and Q-learning's |score(τ) − score(τ/2)| falls
// as τ doubles past it, over 20 seeds. Without the cap each environment
// is longer than the last, Q-learning keeps learning more in each, and
// the distance grew (0.039, 0.044 and 0.045 on these seeds; its score
// rose by about 0.045 a doubling up to 256,000 s over 40 seeds).
func TestAdaptiveLearnerSettles(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau = 64000
	taus := []float64{16000, 32000, 64000}
	const seeds = 20
	moves := make([]float64, len(taus))
	for seed := uint64(1); seed <= seeds; seed++ {
		rs, err := exam.TakeAdaptive(builtIns(t, "qlearning"), s, seed)
		if err != nil {
			t.Fatal(err)
		}
		for j, tau := range taus {
			now, _, _ := rs[0].At(tau)
			half, _, _ := rs[0].At(tau / 2)
			moves[j] += math.Abs(now-half) / seeds
		}
	}
	t.Logf("Q-learning's |score(τ) − score(τ/2)| at τ = %v: %.4f", taus, moves)
	for j := 1; j < len(taus); j++ {
		if moves[j] >= moves[j-1] {
			t.Errorf("|score(τ) − score(τ/2)| is %.4f at τ = %v, not below %.4f at %v", moves[j], taus[j], moves[j-1], taus[j-1])
		}
	}
}

// The premise of the levels and thresholds (docs/tests.md): on exercises
// of 50 interactions drawn at each level, random scores below Down at every
// level, the oracle at least Up at every level, and Q-learning, which has to
// learn each environment, scores less at the top level than at the bottom.
func TestAdaptiveLevels(t *testing.T) {
	const perLevel, steps = 60, 50
	xs := builtIns(t, "random", "follower", "qlearning", "oracle")
	mean := make([][]float64, exam.MaxLevel+1) // level, agent
	for level := 1; level <= exam.MaxLevel; level++ {
		var items []exam.Item
		for n := 1; n <= perLevel; n++ {
			x := exam.AdaptiveExercise(99, n, level)
			f, err := lang.Parse("x", []byte(x.Source(99, "test")))
			if err != nil {
				t.Fatal(err)
			}
			e, err := env.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			items = append(items, exam.Item{Env: e, Steps: steps, Seed: exam.AdaptiveEpisodeSeed(99, n, level)})
		}
		out, err := exam.Take(items, xs, exam.DefaultSettings, nil)
		if err != nil {
			t.Fatal(err)
		}
		mean[level] = make([]float64, len(xs))
		for _, o := range out {
			mean[level][indexOf(xs, o.Agent)] += o.Score / perLevel
		}
		t.Logf("level %d (%d cells): random %+.3f follower %+.3f qlearning %+.3f oracle %+.3f", level, level+2, mean[level][0], mean[level][1], mean[level][2], mean[level][3])
		if mean[level][0] >= exam.DefaultAdaptive.Down || mean[level][3] < exam.DefaultAdaptive.Up {
			t.Errorf("level %d: random %+.3f, oracle %+.3f; want random below %v and the oracle at least %v", level, mean[level][0], mean[level][3], exam.DefaultAdaptive.Down, exam.DefaultAdaptive.Up)
		}
	}
	if mean[exam.MaxLevel][2] >= mean[1][2] {
		t.Errorf("Q-learning scores %+.3f at the top level, not below its %+.3f at the bottom", mean[exam.MaxLevel][2], mean[1][2])
	}
}

func indexOf(xs []exam.Examinee, name string) int {
	for i, x := range xs {
		if x.Name == name {
			return i
		}
	}
	return -1
}

// One seed decides the whole test: two runs give the same trajectories,
// and another seed gives other environments.
func TestAdaptiveIsDeterministic(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau = 1500
	s.Pace = exam.Pace{Model: "exponential", A: 1} // the clock's draws too
	xs := builtIns(t, "random", "follower", "qlearning")
	a, err := exam.TakeAdaptive(xs, s, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := exam.TakeAdaptive(xs, s, 7)
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs of seed 7 differ")
	}
	c, _ := exam.TakeAdaptive(xs, s, 8)
	if reflect.DeepEqual(a[0].Steps, c[0].Steps) {
		t.Error("seeds 7 and 8 give the same trajectory")
	}
}

// Every rule of docs/tests.md, checked on each step of a trajectory: the
// level starts at 1 and follows the staircase, the cells are level + 2 and
// the environment is AdaptiveExercise's, the times grow by Growth up to
// Longest, back to back, the test stops when the next one does not fit, the estimate is the
// mean of level/MaxLevel × score with its standard error, and At reads the
// estimate of the environments done by a time.
func TestAdaptiveFollowsItsRules(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau, s.Longest = 3000, 90
	rs, err := exam.TakeAdaptive(builtIns(t, "follower", "oracle"), s, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		level, start := 1, 0.0
		var xs []float64
		for k, st := range r.Steps {
			x := exam.AdaptiveExercise(3, st.Number, st.Level)
			switch {
			case st.Number != k+1 || st.Level != level:
				t.Fatalf("%s step %d: number %d level %d, want %d and %d", r.Agent, k+1, st.Number, st.Level, k+1, level)
			case st.Cells != level+2 || st.Actions != x.Actions || st.KApprox != x.KApprox:
				t.Errorf("%s step %d: %d cells %d actions K %d, want the exercise's %d, %d, %d", r.Agent, k+1, st.Cells, st.Actions, st.KApprox, x.Cells, x.Actions, x.KApprox)
			case st.Start != start || st.Time != min(s.First+float64(k)*s.Growth, s.Longest):
				t.Errorf("%s step %d: starts at %v for %v s, want %v for %v", r.Agent, k+1, st.Start, st.Time, start, min(s.First+float64(k)*s.Growth, s.Longest))
			case st.Interactions != int(st.Time): // one action a second
				t.Errorf("%s step %d: %d interactions in %v s", r.Agent, k+1, st.Interactions, st.Time)
			}
			xs = append(xs, float64(level)/exam.MaxLevel*st.Score)
			if mean := stat.Mean(xs, nil); math.Abs(st.Estimate-mean) > 1e-12 || (st.SE > 0) != (k > 0) {
				t.Errorf("%s step %d: estimate %v ± %v, want %v, with a standard error from the second step", r.Agent, k+1, st.Estimate, st.SE, mean)
			}
			if got, _, done := r.At(st.End() + 0.5); got != st.Estimate || done != k+1 {
				t.Errorf("%s: At just after step %d gives %v over %d, want %v over %d", r.Agent, k+1, got, done, st.Estimate, k+1)
			}
			switch {
			case st.Score >= s.Up:
				level = min(level+1, exam.MaxLevel)
			case st.Score < s.Down:
				level = max(level-1, 1)
			}
			start = st.End()
		}
		next := min(s.First+float64(len(r.Steps))*s.Growth, s.Longest)
		if r.Unused != s.Tau-start || r.Unused >= next {
			t.Errorf("%s: %v s unused after %v s, and the next environment would take %v", r.Agent, r.Unused, start, next)
		}
		if got, _, done := r.At(s.First / 2); got != 0 || done != 0 {
			t.Errorf("%s: At before the first environment ends gives %v over %d, want 0 over 0", r.Agent, got, done)
		}
	}
	if rs[1].Steps[len(rs[1].Steps)-1].Level != exam.MaxLevel {
		t.Errorf("the oracle ends at level %d, not at the top", rs[1].Steps[len(rs[1].Steps)-1].Level)
	}
}

// The adaptive test's schedule is on the clock's grid, as an item's time
// is: environments of 0.1 s fill a test time of 0.3 s (three of them, the
// last ending at 0.3, which At(0.3) counts), and 0.1 s + 0.2 s + 0.3 s
// fill 0.6 s, although 0.1 + 0.1 + 0.1 and 0.1 + 0.2 + 0.3 are a little
// more than 0.3 and 0.6 in floating point.
func TestAdaptiveScheduleIsExact(t *testing.T) {
	for _, c := range []struct {
		tau, first, growth float64
		want               int
	}{{0.3, 0.1, 0, 3}, {0.6, 0.1, 0.1, 3}, {0.7, 0.1, 0, 7}, {2.1, 0.7, 0, 3}} {
		s := exam.DefaultAdaptive
		s.Tau, s.First, s.Growth, s.Pace = c.tau, c.first, c.growth, exam.Pace{Model: "constant", A: 0.1}
		if n := s.Environments(); n != c.want {
			t.Errorf("test time %v, first %v, step %v: Environments %d, want %d", c.tau, c.first, c.growth, n, c.want)
		}
		rs, err := exam.TakeAdaptive(builtIns(t, "random"), s, 1)
		if err != nil {
			t.Fatal(err)
		}
		r := rs[0]
		if len(r.Steps) != c.want || r.Unused != 0 {
			t.Errorf("test time %v, first %v, step %v: %d environments, %v s unused; want %d, 0", c.tau, c.first, c.growth, len(r.Steps), r.Unused, c.want)
			continue
		}
		if _, _, done := r.At(c.tau); done != c.want {
			t.Errorf("test time %v: At(τ) rests on %d environments, want %d (the last ends at %v)", c.tau, done, c.want, r.Steps[c.want-1].End())
		}
	}
}

// quitter acts at random and stops for good after its first action.
type quitter struct {
	agent.Random
	acted bool
}

func (q *quitter) Delay(base, _ float64) float64 {
	if q.acted {
		return math.Inf(1)
	}
	q.acted = true
	return base
}

// An agent that stops acting keeps its environment's time: the test does not
// go faster for it (the fixed time of Hernández-Orallo 2010a), and the step
// says so.
func TestAdaptiveAgentThatStops(t *testing.T) {
	s := exam.DefaultAdaptive
	s.Tau = 200
	rs, err := exam.TakeAdaptive([]exam.Examinee{{Name: "quitter", New: func() env.Agent { return &quitter{} }}}, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range rs[0].Steps {
		if !st.Stopped || st.Interactions != 1 || st.Time != s.First+float64(st.Number-1)*s.Growth {
			t.Errorf("step %d: stopped %v after %d interactions in %v s", st.Number, st.Stopped, st.Interactions, st.Time)
		}
	}
}

func TestAdaptiveRefusesBadSettings(t *testing.T) {
	set := func(f func(*exam.AdaptiveSettings)) exam.AdaptiveSettings {
		s := exam.DefaultAdaptive
		f(&s)
		return s
	}
	for _, c := range []struct {
		name string
		s    exam.AdaptiveSettings
		want string
	}{
		{"no test time", set(func(s *exam.AdaptiveSettings) { s.Tau = 0 }), "the test time is 0"},
		{"endless test", set(func(s *exam.AdaptiveSettings) { s.Tau = math.Inf(1) }), "the test time is +Inf"},
		{"NaN test time", set(func(s *exam.AdaptiveSettings) { s.Tau = math.NaN() }), "the test time is NaN"},
		{"first shorter than an action", set(func(s *exam.AdaptiveSettings) { s.First = 0.5 }), "at least the pace's mean delay"},
		{"first longer than the test", set(func(s *exam.AdaptiveSettings) { s.First = 6000 }), "no environment would be given"},
		{"shrinking times", set(func(s *exam.AdaptiveSettings) { s.Growth = -1 }), "the time step is -1"},
		{"a cap below the first", set(func(s *exam.AdaptiveSettings) { s.Longest = 10 }), "the longest environment's time is 10 s"},
		{"NaN cap", set(func(s *exam.AdaptiveSettings) { s.Longest = math.NaN() }), "the longest environment's time is NaN"},
		{"thresholds crossed", set(func(s *exam.AdaptiveSettings) { s.Up, s.Down = 0.2, 0.4 }), "-1 ≤ down < up ≤ 1"},
		{"threshold out of the scores", set(func(s *exam.AdaptiveSettings) { s.Up = 1.5 }), "-1 ≤ down < up ≤ 1"},
		{"too many interactions", set(func(s *exam.AdaptiveSettings) { s.Tau = 2e6 }), "at most 1000000"},
		{"too many environments", set(func(s *exam.AdaptiveSettings) {
			s.Pace, s.First, s.Growth, s.Tau = exam.Pace{Model: "constant", A: 1e-3}, 1e-3, 0, 900
		}), "more than 100000 environments"},
		{"bad pace", set(func(s *exam.AdaptiveSettings) { s.Pace = exam.Pace{Model: "constant", A: -1} }), "pace constant:-1"},
		{"bad lambda", set(func(s *exam.AdaptiveSettings) { s.Lambda = 1 }), "it is 1"},
		{"no such payoff", set(func(s *exam.AdaptiveSettings) { s.Score = "best" }), `no payoff "best"`},
		{"a total", set(func(s *exam.AdaptiveSettings) { s.Score = exam.ScoreSum }), "sum is not an average"},
		{"a rate", set(func(s *exam.AdaptiveSettings) { s.Score = exam.ScorePerSecond }), "per-second is not an average"},
		{"a test time of 300 digits", set(func(s *exam.AdaptiveSettings) { s.Tau = 1e300 }), "holds 1e+300 interactions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := exam.TakeAdaptive(builtIns(t, "random"), c.s, 1)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := exam.TakeAdaptive(nil, exam.DefaultAdaptive, 1); err != exam.ErrNoItems {
		t.Errorf("no examinee: %v, want ErrNoItems", err)
	}
}

// One whole adaptive test of the default settings for Q-learning.
func BenchmarkAdaptiveQLearning(b *testing.B) {
	xs := builtIns(b, "qlearning")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exam.TakeAdaptive(xs, exam.DefaultAdaptive, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// The adaptive test of seed 1, as the default settings give it (5,000 s at
// one action a second), to three built-in agents: the score, its
// standard error and its 95% interval, and where the staircase sat.
func ExampleTakeAdaptive() {
	var xs []exam.Examinee
	for _, name := range []string{"random", "follower", "oracle"} {
		f, _ := agent.Lookup(name, agent.DefaultSettings)
		xs = append(xs, exam.Examinee{Name: name, New: f})
	}
	rs, _ := exam.TakeAdaptive(xs, exam.DefaultAdaptive, 1)
	for _, r := range rs {
		fmt.Printf("%-8s %+.3f ± %.3f, 95%% interval [%+.3f, %+.3f], after %d environments, mean level %.1f, last level %d\n",
			r.Agent, r.Score, r.SE, r.Low, r.High, len(r.Steps), r.MeanLevel, r.Steps[len(r.Steps)-1].Level)
	}
	// Output:
	// random   -0.002 ± 0.002, 95% interval [-0.006, +0.003], after 61 environments, mean level 1.0, last level 1
	// follower +0.062 ± 0.032, 95% interval [+0.018, +0.159], after 61 environments, mean level 2.2, last level 6
	// oracle   +0.838 ± 0.029, 95% interval [+0.732, +0.879], after 61 environments, mean level 6.6, last level 7
}

// The 95% interval of one test, once it is over: 400 refits of the
// staircase's model.
func BenchmarkAdaptiveInterval(b *testing.B) {
	rs, err := exam.TakeAdaptive(builtIns(b, "qlearning"), exam.DefaultAdaptive, 1)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		exam.AdaptiveInterval(rs[0], exam.DefaultAdaptive, exam.DefaultAdaptive.Tau)
	}
}
