package exam_test

import (
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/stats"
	"github.com/google/go-cmp/cmp"
)

func examinee(t testing.TB, name string) exam.Examinee {
	t.Helper()
	return builtIns(t, name)[0]
}

func lambdaOneItems(t testing.TB, seed uint64, tests int) []exam.Item {
	t.Helper()
	items, err := exam.LambdaOneItems(seed, tests, "test")
	if err != nil {
		t.Fatal(err)
	}
	return items
}

// At the default pace and test time every agent performs all its steps, and
// v‖τ is the Λ_one score: the average reward of an episode played by
// env.Episode.Run with the same seed.
func TestPerCycleIsTheLambdaOneScore(t *testing.T) {
	items := lambdaOneItems(t, 11, 3)
	for _, name := range []string{"random", "follower", "oracle", "qlearning"} {
		x := examinee(t, name)
		s := exam.DefaultSettings
		s.Episodes = 3
		out, err := exam.Take(items, []exam.Examinee{x}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			it := items[o.Item]
			var sum float64
			for e := range s.Episodes {
				sum += env.NewEpisode(it.Env, x.New(), env.EpisodeSeed(it.Seed, e)).Run(it.Steps, nil)
			}
			if want := sum / float64(s.Episodes); o.Values.PerCycle != want {
				t.Errorf("%s on %s: v‖τ = %v, the episodes' average reward is %v", name, it.Name, o.Values.PerCycle, want)
			}
			if o.Values.Count != it.Steps || o.Values.Diminishing != o.Values.PerCycle || o.Score != o.Values.Diminishing {
				t.Errorf("%s on %s: %d of %d interactions, v̌‖τ %v, score %v: an agent at the pace must do all its steps by τ",
					name, it.Name, o.Values.Count, it.Steps, o.Values.Diminishing, o.Score)
			}
		}
	}
}

// An agent that keeps a constant pace does its last action exactly at the
// default τ = steps × delay, whatever the delay: all its steps count and
// v̌‖τ is v‖τ. The curve's last point is τ itself, so it reads the
// payoffs at τ. Delays such as 0.1 s, summed step by step in floating
// point, would drift by an ulp (ten of them make 0.9999999999999999) and
// put the last action after τ or just before it.
func TestAnAgentAtThePaceActsUntilTau(t *testing.T) {
	items := lambdaOneItems(t, 1, 2)
	for _, delay := range []float64{0.1, 0.3, 0.7, 1.1, 1.0 / 3} {
		s := exam.DefaultSettings
		s.Pace = exam.Pace{Model: "constant", A: delay}
		out, err := exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			it := items[o.Item]
			if o.Values.Count != it.Steps || o.Values.Diminishing != o.Values.PerCycle {
				t.Errorf("pace %v on %s: %d of %d interactions by τ = %v, v̌‖τ %v, v‖τ %v",
					delay, it.Name, o.Values.Count, it.Steps, o.Tau, o.Values.Diminishing, o.Values.PerCycle)
			}
			if last := o.Curve[len(o.Curve)-1]; last != o.Values {
				t.Errorf("pace %v on %s: the curve ends at %+v, not at τ's payoffs %+v", delay, it.Name, last, o.Values)
			}
		}
	}
}

// A test time written in decimals meets the actions it should: with
// actions 0.7 s apart and τ = 2.1 s, the third action comes at τ and is
// kept, by v̌‖τ too, although 0.7 + 0.7 + 0.7 is 2.0999999999999996 in
// floating point and n·t/τ would then floor to 2. The clock counts
// microseconds, so times are exact.
func TestDecimalTestTimes(t *testing.T) {
	items := lambdaOneItems(t, 3, 1)
	for _, c := range []struct {
		delay, tau float64
		count      int
	}{{0.7, 2.1, 3}, {0.1, 0.3, 3}, {0.1, 1, 10}, {0.3, 0.9, 3}, {1.1, 3.3, 3}} {
		s := exam.DefaultSettings
		s.Pace, s.Tau = exam.Pace{Model: "constant", A: c.delay}, c.tau
		out, err := exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			if o.Values.Count != c.count || o.Values.Diminishing != o.Values.PerCycle {
				t.Errorf("pace %v, τ %v, %s: %d interactions (want %d), v̌‖τ %v, v‖τ %v",
					c.delay, c.tau, items[o.Item].Name, o.Values.Count, c.count, o.Values.Diminishing, o.Values.PerCycle)
			}
		}
	}
}

// The anytime curve meets the actions on the clock's grid as τ does: a
// point that falls on an action's time counts that action. With one point
// an action, point k of an agent at the pace has k + 1 interactions; read
// at τ·(k+1)/points in floating point, 0.003 × 1/3 is
// 0.0029999999999999996 and would miss the action at 0.003 s.
func TestCurvePointsMeetTheActions(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)
	for _, delay := range []float64{0.003, 0.005, 0.1, 0.7, 1.0 / 3} {
		for _, it := range items {
			s := exam.DefaultSettings
			s.Pace, s.CurvePoints = exam.Pace{Model: "constant", A: delay}, it.Steps
			out, err := exam.Take([]exam.Item{it}, []exam.Examinee{examinee(t, "random")}, s, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range out[0].Curve {
				if v.Count != k+1 {
					t.Errorf("pace %v on %s: curve point %d at %v s has %d interactions, want %d", delay, it.Name, k, v.Tau, v.Count, k+1)
				}
			}
		}
	}
}

// paperAt is the five payoffs of a run at test time tau, written out from the
// definitions of Hernández-Orallo (2010a), "On Evaluating Agent Performance
// in a Fixed Period of Time", one loop each, as a check on package aggregate
// and on how Take reads it.
func paperAt(run aggregate.Run, tau, lambda float64) aggregate.Values {
	v := aggregate.Values{Tau: tau}
	var last float64 // t_{n_τ}
	for _, x := range run {
		if x.T <= tau {
			v.Count++
			v.Sum += x.Reward
			last = x.T
		}
	}
	if v.Count == 0 {
		return v
	}
	v.PerSecond = v.Sum / tau
	v.PerCycle = v.Sum / float64(v.Count)
	var weighted, weights float64
	for k := 1; k <= v.Count; k++ {
		weighted += math.Pow(lambda, float64(k)) * run[k-1].Reward
		weights += math.Pow(lambda, float64(k))
	}
	v.Discounted = weighted / weights
	if kept := int(math.Floor(float64(v.Count) * last / tau)); kept > 0 {
		var s float64
		for _, x := range run[:kept] {
			s += x.Reward
		}
		v.Diminishing = s / float64(kept)
	}
	return v
}

// Every payoff is read at the test time it is labelled with, as
// Hernández-Orallo (2010a) defines it: an item whose steps run out before τ
// counts the time from its last action to τ, which ω‖τ divides by and which
// shrinks v̌‖τ's n*. The figures read when each episode ended are
// Outcome.AtEnd. The case that once read them wrong: random on lambda-one:3/1 at 0.1 s an
// action and τ = 100 s does its 20 steps by 2 s, collecting 3, so ω‖τ = 3/100
// and n* = ⌊20·2/100⌋ = 0.
func TestPayoffsAreThePapersAtTau(t *testing.T) {
	items := lambdaOneItems(t, 3, 1)
	for _, name := range []string{"random", "oracle"} {
		x := examinee(t, name)
		s := exam.DefaultSettings
		s.Pace, s.Tau = exam.Pace{Model: "constant", A: 0.1}, 100
		out, err := exam.Take(items, []exam.Examinee{x}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range out {
			it := items[o.Item]
			var run aggregate.Run
			env.NewEpisode(it.Env, x.New(), env.EpisodeSeed(it.Seed, 0)).Run(it.Steps, func(st env.Step) {
				run = append(run, aggregate.Interaction{T: float64(st.Interaction) / 10, Reward: st.Reward})
			})
			near := cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 })
			if diff := cmp.Diff(paperAt(run, 100, s.Lambda), o.Values, near); diff != "" {
				t.Errorf("%s on %s: payoffs at τ = 100 (-paper +Take):\n%s", name, it.Name, diff)
			}
			if o.Score != o.Values.Diminishing {
				t.Errorf("%s on %s: score %v, v̌‖τ at τ %v", name, it.Name, o.Score, o.Values.Diminishing)
			}
			end := run[len(run)-1].T
			if diff := cmp.Diff(paperAt(run, end, s.Lambda), o.AtEnd, near); diff != "" {
				t.Errorf("%s on %s: payoffs at the last action, %v s (-paper +Take):\n%s", name, it.Name, end, diff)
			}
			for k, v := range o.Curve {
				if diff := cmp.Diff(paperAt(run, v.Tau, s.Lambda), v, near); diff != "" {
					t.Errorf("%s on %s: curve point %d (-paper +Take):\n%s", name, it.Name, k, diff)
				}
			}
		}
		if o := out[0]; name == "random" && (o.Values.Sum != 3 || o.Values.PerSecond != 0.03 || o.Values.Diminishing != 0 || o.Values.PerCycle != 0.15) {
			t.Errorf("random on %s at τ = 100: %+v; want V↑τ 3, ω‖τ 0.03, v‖τ 0.15, v̌‖τ 0", items[0].Name, o.Values)
		}
	}
}

// A stopper stops of its own accord, so its episode ends at τ: its
// figures at its end are its figures at τ, and a longer τ drops its lucky
// end from v̌‖τ, as it drops the idle time of every agent.
func TestAStopperEndsAtTau(t *testing.T) {
	items := lambdaOneItems(t, 2, 2)
	s := exam.DefaultSettings
	s.Episodes, s.Tau = 3, 1000
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "stopper")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stopped int
	for _, o := range out {
		stopped += o.Stopped
		if o.Stopped == s.Episodes && o.AtEnd != o.Values {
			t.Errorf("%s: the stopper at its ends %+v, at τ %+v", items[o.Item].Name, o.AtEnd, o.Values)
		}
	}
	if stopped == 0 {
		t.Error("the stopper never stopped")
	}
}

// Every examinee meets the same environments and seeds: two copies of one
// agent score alike, item by item. The outcome does not depend on the
// number of cores either.
func TestTakeIsPairedAndReproducible(t *testing.T) {
	items := lambdaOneItems(t, 3, 2)
	a, b := examinee(t, "qlearning"), examinee(t, "qlearning")
	b.Name = "qlearning again"
	s := exam.DefaultSettings
	s.Episodes = 2
	s.Pace = exam.Pace{Model: "exponential", A: 0.5}
	out, err := exam.Take(items, []exam.Examinee{a, b}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(items)
	for i := range n {
		x, y := out[i], out[n+i]
		y.Agent = x.Agent
		if diff := cmp.Diff(x, y); diff != "" {
			t.Errorf("item %d: the two copies differ (-first +second):\n%s", i, diff)
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	one, err := exam.Take(items, []exam.Examinee{a, b}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(out, one); diff != "" {
		t.Errorf("one core and all cores differ:\n%s", diff)
	}
}

// The test time cuts an item: at one action every 2 s, τ = 31 s leaves
// 15 interactions; a pace drawn at random keeps times increasing and never
// goes past τ.
func TestPaceAndTestTime(t *testing.T) {
	items := lambdaOneItems(t, 5, 1)[6:] // 80 steps
	s := exam.DefaultSettings
	s.Pace = exam.Pace{Model: "constant", A: 2}
	s.Tau = 31
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := out[0]; o.Values.Count != 15 || o.Tau != 31 {
		t.Errorf("constant:2 with τ = 31: %d interactions by τ = %v, want 15 by 31", o.Values.Count, o.Tau)
	}
	s.Tau = 0
	out, err = exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := out[0]; o.Values.Count != 80 || o.Tau != 160 {
		t.Errorf("constant:2 with no τ: %d interactions by τ = %v, want 80 by 160", o.Values.Count, o.Tau)
	}
	s.Pace = exam.Pace{Model: "uniform", A: 0.5, B: 1.5}
	s.CurvePoints = 8
	out, err = exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := out[0]
	if o.Tau != 80 || o.Values.Count > 80 {
		t.Errorf("uniform:0.5:1.5: τ = %v with %d interactions; want τ = 80 and at most 80", o.Tau, o.Values.Count)
	}
	for k := 1; k < len(o.Curve); k++ {
		if o.Curve[k].Count < o.Curve[k-1].Count || o.Curve[k].Tau <= o.Curve[k-1].Tau {
			t.Errorf("the anytime curve goes back: %+v then %+v", o.Curve[k-1], o.Curve[k])
		}
	}
	if last := o.Curve[len(o.Curve)-1]; last != o.Values {
		t.Errorf("the curve ends at %+v, not at the values at τ %+v", last, o.Values)
	}
}

// Theorem 1 of Hernández-Orallo (2010a) through a test: the opportunistic
// stopper, random until its average is positive, keeps a positive v‖τ on
// balanced Λ_one exercises where the random agent scores 0. Under v̌‖τ no
// episode of it scores above 1/m (Theorems 2 and 3): the rewards it kept are
// a prefix of its history before it stopped, which averaged at most 0, unless
// its average turned positive at its very last step, when nothing was
// dropped.
func TestStopperUnderTheTwoAverages(t *testing.T) {
	items := lambdaOneItems(t, 7, 2)
	s := exam.DefaultSettings
	s.Episodes = 200
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "random"), examinee(t, "stopper")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var random, perCycle []float64
	for _, o := range out {
		if o.Agent == "random" {
			random = append(random, o.Values.PerCycle)
			continue
		}
		perCycle = append(perCycle, o.Values.PerCycle)
		for e, v := range o.Scores {
			if steps := items[o.Item].Steps; v > 1/float64(steps) {
				t.Errorf("%s, episode %d: the stopper's v̌‖τ is %v, above 1/%d", items[o.Item].Name, e, v, steps)
			}
		}
		if o.Stopped == 0 {
			t.Errorf("%s: the stopper never stopped", items[o.Item].Name)
		}
	}
	if _, ci := stats.MeanCI(random); ci[0] > 0 || ci[1] < 0 {
		t.Errorf("random's v‖τ interval %v does not contain 0", ci)
	}
	if m, ci := stats.MeanCI(perCycle); ci[0] <= 0 {
		t.Errorf("the stopper's v‖τ is %v %v; Theorem 1 puts it above 0", m, ci)
	}
}

// The time modulator slows down while ahead and never stops, so v̌‖τ keeps
// its advantage (Hernández-Orallo 2010a, Table 1, row 11: v̌‖τ is not robust
// to time modulation).
func TestModulatorKeepsItsAdvantage(t *testing.T) {
	items := lambdaOneItems(t, 7, 2)
	s := exam.DefaultSettings
	s.Episodes = 200
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "modulator")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var scores []float64
	for _, o := range out {
		scores = append(scores, o.Score)
		if o.Stopped != 0 {
			t.Errorf("%s: the modulator stopped in %d episodes", items[o.Item].Name, o.Stopped)
		}
	}
	if m, ci := stats.MeanCI(scores); ci[0] <= 0 {
		t.Errorf("the modulator's v̌‖τ is %v %v; slowing down while ahead should keep it above 0", m, ci)
	}
}

func TestSettingsRefused(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)
	ok := exam.DefaultSettings
	for name, change := range map[string]func(*exam.Settings){
		"no episode":        func(s *exam.Settings) { s.Episodes = 0 },
		"too many episodes": func(s *exam.Settings) { s.Episodes = exam.MaxEpisodes + 1 },
		"negative tau":      func(s *exam.Settings) { s.Tau = -1 },
		"infinite tau":      func(s *exam.Settings) { s.Tau = math.Inf(1) },
		// The clock counts microseconds: 0.4 µs would round to 0, which
		// is not "no time" but the pace's time.
		"tau below the clock": func(s *exam.Settings) { s.Tau = 4e-7 },
		"lambda 1":            func(s *exam.Settings) { s.Lambda = 1 },
		"unknown payoff":      func(s *exam.Settings) { s.Score = "median" },
		"no curve":            func(s *exam.Settings) { s.CurvePoints = 0 },
		"zero pace":           func(s *exam.Settings) { s.Pace = exam.Pace{Model: "constant"} },
		"unknown pace":        func(s *exam.Settings) { s.Pace = exam.Pace{Model: "poisson", A: 1} },
	} {
		s := ok
		change(&s)
		if _, err := exam.Take(items, []exam.Examinee{examinee(t, "random")}, s, nil); err == nil {
			t.Errorf("%s: Take accepted %+v", name, s)
		}
	}
	if _, err := exam.Take(items, []exam.Examinee{examinee(t, "random")}, ok, nil); err != nil {
		t.Errorf("the default settings: %v", err)
	}
	for _, steps := range []int{0, -1, exam.MaxSteps + 1} {
		bad := append([]exam.Item(nil), items...)
		bad[1].Steps = steps
		if _, err := exam.Take(bad, []exam.Examinee{examinee(t, "random")}, ok, nil); err == nil {
			t.Errorf("an item of %d steps was taken", steps)
		}
	}
	if _, err := exam.Take(nil, []exam.Examinee{examinee(t, "random")}, ok, nil); !errors.Is(err, exam.ErrNoItems) {
		t.Errorf("no items: %v, want ErrNoItems", err)
	}
	if _, err := exam.Take(items, nil, ok, nil); !errors.Is(err, exam.ErrNoItems) {
		t.Errorf("no examinee: %v, want ErrNoItems", err)
	}
}

func TestParsePace(t *testing.T) {
	for in, want := range map[string]exam.Pace{
		"1":             {Model: "constant", A: 1},
		"constant:0.25": {Model: "constant", A: 0.25},
		"uniform:0.5:2": {Model: "uniform", A: 0.5, B: 2},
		"exponential:3": {Model: "exponential", A: 3},
	} {
		got, err := exam.ParsePace(in)
		if err != nil || got != want {
			t.Errorf("ParsePace(%q) = %+v, %v; want %+v", in, got, err, want)
		}
		if back, err := exam.ParsePace(got.String()); err != nil || back != got {
			t.Errorf("ParsePace(%q.String()) = %+v, %v", in, back, err)
		}
	}
	for _, in := range []string{"", "0", "-1", "fast", "constant", "constant:1:2", "uniform:2:1", "uniform:1", "exponential:x", "poisson:1", "constant:NaN", "constant:Inf", "constant:1e10"} {
		if p, err := exam.ParsePace(in); err == nil {
			t.Errorf("ParsePace(%q) = %+v, accepted", in, p)
		}
	}
}

// Played scores a run played outside Take as Take scores the same run: an
// agent at a constant pace d (whole microseconds, which Take's clock keeps
// exactly), its run rebuilt from an episode's trace at the times i·d in
// floating point (0.7·3 is 2.0999999999999996, off the clock's grid), gets
// the outcome Take gives it, payoffs, curve and score alike.
func TestPlayedScoresAsTake(t *testing.T) {
	items := lambdaOneItems(t, 5, 1)
	x := examinee(t, "qlearning")
	for _, delay := range []float64{0.7, 0.003, 2.5} {
		s := exam.DefaultSettings
		s.Pace = exam.Pace{Model: "constant", A: delay}
		out, err := exam.Take(items, []exam.Examinee{x}, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range out {
			it := items[want.Item]
			var run aggregate.Run
			env.NewEpisode(it.Env, x.New(), env.EpisodeSeed(it.Seed, 0)).Run(it.Steps, func(st env.Step) {
				run = append(run, aggregate.Interaction{T: float64(st.Interaction) * delay, Reward: st.Reward})
			})
			got := exam.Played(want.Item, x.Name, []aggregate.Run{run}, s)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("pace %v, %s: Played differs from Take (-Take +Played):\n%s", delay, it.Name, diff)
			}
		}
	}
}

// Played puts the times on the clock's grid, each after the one before, so
// that every interaction counts; each run is read at its own end, its τ,
// the sooner one's time not stretched to the later one's, and the
// outcome's τ is the mean of theirs.
func TestPlayedReadsEveryRunAtItsOwnEnd(t *testing.T) {
	runs := []aggregate.Run{
		{{T: 1e-7, Reward: 1}, {T: 1e-7, Reward: 1}, {T: 0.5, Reward: -1}},
		{{T: 1, Reward: 1}, {T: 2, Reward: 1}, {T: 4, Reward: 1}},
	}
	s := exam.DefaultSettings
	s.Score = exam.ScoreDiminishing
	o := exam.Played(0, "person", runs, s)
	if o.Tau != 2.25 || o.Values.Tau != 2.25 {
		t.Errorf("τ is %v (its values' %v); the runs end at 0.5 and 4, on average at 2.25", o.Tau, o.Values.Tau)
	}
	// The first run at its τ = 0.5: n* = ⌊3 · 0.5/0.5⌋ = 3, read at 4 it
	// would be ⌊3 · 0.5/4⌋ = 0.
	if want := []float64{1.0 / 3, 1}; !cmp.Equal(o.Scores, want) {
		t.Errorf("v̌‖τ of each run read at its end: %v, want %v", o.Scores, want)
	}
	if o.Values.Count != 3 || o.Values.PerCycle != (1.0/3+1)/2 || o.Values.Diminishing != (1.0/3+1)/2 || o.Values.PerSecond != (1/0.5+3.0/4)/2 {
		t.Errorf("payoffs %+v: 3 interactions each, v‖τ and v̌‖τ the mean of 1/3 and 1, ω‖τ of 1/0.5 and 3/4", o.Values)
	}
	if o.AtEnd != o.Values {
		t.Errorf("payoffs at the ends %+v; each run ends at its τ: %+v", o.AtEnd, o.Values)
	}
	if last := o.Curve[len(o.Curve)-1]; last != o.Values {
		t.Errorf("the curve ends at %+v; at each run's τ, %+v", last, o.Values)
	}
}
