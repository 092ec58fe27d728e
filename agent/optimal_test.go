package agent_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"
)

// script plays a fixed action sequence.
type script struct {
	actions []int
	at      int
}

func (s *script) Start(*env.Env, *random.Rand) { s.at = 0 }
func (s *script) Act(*env.View) int            { s.at++; return s.actions[s.at-1] }
func (s *script) End(float64)                  {}

// bruteForce plays every action sequence of n interactions on the episode
// of seed, each in an episode of its own, and returns the highest score
// and the mean score over the sequences, which is random's expectation.
func bruteForce(e *env.Env, seed uint64, n int) (best, mean float64) {
	actions := len(e.Actions)
	seq := make([]int, n)
	var sum float64
	count := 0
	for first := true; ; first = false {
		score := env.NewEpisode(e, &script{actions: seq}, seed).Run(n, nil)
		if first || score > best {
			best = score
		}
		sum += score
		count++
		i := 0 // the next sequence, as a number in base actions
		for ; i < n && seq[i] == actions-1; i++ {
			seq[i] = 0
		}
		if i == n {
			return best, sum / float64(count)
		}
		seq[i]++
	}
}

// uniform weighs n interactions equally: Best and Scale then give
// the mean reward.
func uniform(n int) []float64 {
	w := make([]float64, n)
	for t := range w {
		w[t] = 1 / float64(n)
	}
	return w
}

// near says whether two sums of one set of rewards agree but for the
// rounding of their order.
func near(x, y float64) bool { return math.Abs(x-y) <= 1e-12 }

// TestOptimalIsBruteForce compares the optimal agent's score with the
// best over every action sequence, each played in an episode of its own,
// on the same seeds: fixture B (Λ_one), and the thesis's ω1-blocker, where
// ω1 flees π, Good and Evil see ω1, the rewards are traces that halve, and
// the cycle clause and the start-up garbage draw from the environment's
// stream, which the coin of a collision between Good and Evil shares: so
// there the draws of an episode depend on π's actions.
func TestOptimalIsBruteForce(t *testing.T) {
	for _, c := range []struct {
		file  string
		steps int
	}{
		{"lambda-one/fixture-b.anynt", 5},
		{"thesis/omega1-blocker.anynt", 7},
	} {
		e := loadFixture(t, c.file)
		for seed := range uint64(4) {
			want, mean := bruteForce(e, seed, c.steps)
			o := &agent.Optimal{}
			got := env.NewEpisode(e, o, seed).Run(c.steps, nil)
			if o.Err() != nil {
				t.Fatalf("%s seed %d: %v", c.file, seed, o.Err())
			}
			if got != want {
				t.Errorf("%s seed %d: optimal scores %v, brute force %v", c.file, seed, got, want)
			}
			_, best, err := agent.Best(env.NewEpisode(e, &script{}, seed), uniform(c.steps), agent.PlanBudget)
			if err != nil || !near(best, want) {
				t.Errorf("%s seed %d: Best says %v (%v), brute force %v", c.file, seed, best, err, want)
			}
			opt, rv, err := agent.Scale(env.NewEpisode(e, &script{}, seed), uniform(c.steps), agent.PlanBudget)
			if err != nil || !near(rv, mean) || !near(opt, want) {
				t.Errorf("%s seed %d: Scale says %v and %v (%v); the best and the mean over every sequence are %v and %v",
					c.file, seed, opt, rv, err, want, mean)
			}
		}
	}
}

// TestOptimalBoundsEveryAgent plays every built-in agent on the same
// episodes as the optimal agent, fixture B, the ω1-blocker and the seven
// exercises of a Λ_one test, and asks the optimal agent's score to be at
// least each one's, episode by episode.
func TestOptimalBoundsEveryAgent(t *testing.T) {
	type item struct {
		name  string
		e     *env.Env
		steps int
	}
	items := []item{
		{"fixture-b", loadFixture(t, "lambda-one/fixture-b.anynt"), 300},
		// 50 interactions: its trace rewards make the exact plan cost
		// 0.2 s an episode at 50, 0.8 s at 100, and the follower rises
		// above a plan that ignores every other reward at either length.
		{"omega1-blocker", loadFixture(t, "thesis/omega1-blocker.anynt"), 50},
	}
	for _, x := range exam.LambdaOne(1) {
		e, _, _, err := x.Load(fmt.Sprintf("exercise %d", x.Number), 1, "test")
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, item{fmt.Sprintf("Λ_one exercise %d", x.Number), e, 200})
	}
	var others []string
	for _, name := range agent.Names() {
		switch name {
		case "optimal":
			continue
		case "mc-aixi-ctw":
			// A small budget, every setting given: the bound holds for
			// any budget, and the defaults (100 simulations, a horizon
			// of 3) cost seconds an episode, minutes under -race.
			name = "mc-aixi-ctw:depth=16,simulations=8,horizon=1"
		}
		others = append(others, name)
	}
	for _, it := range items {
		for seed := range uint64(3) {
			o := &agent.Optimal{}
			best := env.NewEpisode(it.e, o, seed).Run(it.steps, nil)
			if o.Err() != nil {
				t.Fatalf("%s seed %d: %v", it.name, seed, o.Err())
			}
			for _, name := range others {
				a, err := agent.New(name, agent.DefaultSettings)
				if err != nil {
					t.Fatal(err)
				}
				if s := env.NewEpisode(it.e, a, seed).Run(it.steps, nil); s > best {
					t.Errorf("%s seed %d: %s scores %v, above the optimum %v", it.name, seed, name, s, best)
				}
			}
		}
	}
}

// TestOptimalFallsBack checks that an episode played by Interact alone,
// without Plan, is played as the oracle and says so.
func TestOptimalFallsBack(t *testing.T) {
	e := loadFixture(t, "lambda-one/fixture-b.anynt")
	o := &agent.Optimal{}
	ep := env.NewEpisode(e, o, 1)
	ep.Interact()
	if o.Err() == nil {
		t.Fatal("an episode played without a plan: no error")
	}
	o = &agent.Optimal{}
	ep = env.NewEpisode(e, o, 1)
	ep.Plan(env.MeanWeights(2))
	for range 3 {
		ep.Interact()
	}
	if o.Err() == nil {
		t.Fatal("an episode longer than planned: no error")
	}
	o = &agent.Optimal{}
	env.NewEpisode(e, o, 1).Run(2, nil)
	if o.Err() != nil {
		t.Fatal(o.Err())
	}
}

// TestBestOnAPlainEpisode checks the error of an episode without memos,
// whose behaviours' memories cannot be saved.
func TestBestOnAPlainEpisode(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	_, _, err := agent.Best(env.NewPlainEpisode(e, &script{}, 1), uniform(3), agent.PlanBudget)
	if !errors.Is(err, env.ErrUnsaved) {
		t.Fatalf("error %v, want env.ErrUnsaved", err)
	}
}

// BenchmarkOptimalLambdaOne measures the optimal agent's episode, plan and
// play, on each exercise of the Λ_one test of seed 1, at the exercise's
// own number of interactions.
func BenchmarkOptimalLambdaOne(b *testing.B) {
	for _, x := range exam.LambdaOne(1) {
		e, _, _, err := x.Load("exercise", 1, "bench")
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("exercise%d/%dcells/%dactions/%dsteps", x.Number, x.Cells, x.Actions, x.Steps), func(b *testing.B) {
			p := env.NewPlayer(e)
			for i := 0; b.Loop(); i++ {
				o := &agent.Optimal{}
				p.Episode(o, uint64(i)).Run(x.Steps, nil)
				if o.Err() != nil {
					b.Fatal(o.Err())
				}
			}
		})
	}
}

// BenchmarkAhead measures a receding-horizon plan of the ω1-blocker, 300
// interactions, whose exact plan is past the optimal agent's budget, within
// budgets of 2^16 to 2^22 of work (the optimal agent's is 2^24).
func BenchmarkAhead(b *testing.B) {
	e := loadFixture(b, "thesis/omega1-blocker.anynt")
	w := uniform(300)
	for _, work := range []int{1 << 16, 1 << 19, 1 << 22} {
		b.Run(fmt.Sprintf("work=%d", work), func(b *testing.B) {
			var horizon int
			for i := 0; b.Loop(); i++ {
				var err error
				if _, _, horizon, err = agent.Ahead(env.NewEpisode(e, &script{}, uint64(i)), w, agent.Budget{States: 1 << 16, Work: work}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(horizon), "horizon")
		})
	}
}

// TestPlanningLeavesNoCount checks that the behaviour runs of planning
// are not counted: the optimal agent's episode reports the VM steps and
// bound counts of the plan played by a script, run for run.
func TestPlanningLeavesNoCount(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	const steps = 30
	plan, _, err := agent.Best(env.NewEpisode(e, &script{}, 2), uniform(steps), agent.PlanBudget)
	if err != nil {
		t.Fatal(err)
	}
	played := env.NewEpisode(e, &script{actions: plan}, 2)
	played.Run(steps, nil)
	o := &agent.Optimal{}
	ep := env.NewEpisode(e, o, 2)
	ep.Run(steps, nil)
	if o.Err() != nil {
		t.Fatal(o.Err())
	}
	if ep.MaxSteps != played.MaxSteps || !slices.Equal(ep.Bounds, played.Bounds) {
		t.Errorf("optimal's episode counts %d steps, %v; its plan played %d, %v", ep.MaxSteps, ep.Bounds, played.MaxSteps, played.Bounds)
	}
}

// TestBudgetStopsThePlan checks that Best and Scale give up with
// ErrPlanTooLarge past either bound of their budget, on the ω1-blocker,
// whose trace rewards make hundreds of states within a few interactions.
func TestBudgetStopsThePlan(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	for _, b := range []agent.Budget{{States: 3, Work: 1 << 20}, {States: 1 << 16, Work: 20}} {
		if _, _, err := agent.Best(env.NewEpisode(e, &script{}, 1), uniform(30), b); !errors.Is(err, agent.ErrPlanTooLarge) {
			t.Errorf("Best within %+v: error %v", b, err)
		}
		if _, _, err := agent.Scale(env.NewEpisode(e, &script{}, 1), uniform(30), b); !errors.Is(err, agent.ErrPlanTooLarge) {
			t.Errorf("Scale within %+v: error %v", b, err)
		}
	}
	if _, _, err := agent.Scale(env.NewEpisode(e, &script{}, 1), uniform(30), agent.PlanBudget); err != nil {
		t.Errorf("Scale within the agent's budget: %v", err)
	}
}

// growing is a 5-cell ring with an object whose memory grows by a symbol
// every interaction, so that every branch of a plan interns a new memory in
// the behaviour's memo, which never forgets one.
const growing = `actions s l r

space table {
	1 5 2
	2 1 3
	3 2 4
	4 3 5
	5 4 1
}

object ω1 {
	->. ∇ Δ
}

goodevil pattern r r l
`

// TestPlansDoNotFillTheMemoOfLaterEpisodes plays the optimal agent for
// 64 short episodes, in a run and in a test, of an environment whose memories grow: planned
// episodes get fresh behaviours, so none fails to plan, as each alone
// would not (when the worker's memo was kept, all but the first dozen of
// each worker's episodes failed, and how many depended on which worker
// played which episode). The test's episodes share one Player, so it
// fails then whatever the cores; the run's, on up to four.
func TestPlansDoNotFillTheMemoOfLaterEpisodes(t *testing.T) {
	const episodes = 64
	e := parseEnv(t, "growing.anynt", []byte(growing))
	ev := env.Evaluate(e, func() env.Agent { return &agent.Optimal{} }, episodes, 8, 1, nil)
	if ev.Failed != 0 {
		t.Fatalf("run: %d of %d episodes failed to plan; the first: %v", ev.Failed, episodes, ev.Failure)
	}
	// A test plays an item's episodes one after another on one Player.
	s := exam.DefaultSettings
	s.Episodes = episodes
	xs, err := exam.Examinees([]string{"optimal"}, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exam.Take([]exam.Item{{Name: "growing", Env: e, Steps: 8, Seed: 1}}, xs, s, nil); err != nil {
		t.Fatalf("test: %v", err)
	}
}

// TestAheadSeeingToTheEndIsBest checks that a receding-horizon plan whose
// every lookahead reaches the episode's end is an optimal plan: its
// horizon is the episode's length, its sum Best's, and its plan, played,
// scores that sum.
func TestAheadSeeingToTheEndIsBest(t *testing.T) {
	for _, c := range []struct {
		file  string
		steps int
	}{
		{"lambda-one/fixture-b.anynt", 40},
		{"thesis/omega1-blocker.anynt", 30},
	} {
		e := loadFixture(t, c.file)
		for seed := range uint64(3) {
			_, want, err := agent.Best(env.NewEpisode(e, &script{}, seed), uniform(c.steps), agent.PlanBudget)
			if err != nil {
				t.Fatal(err)
			}
			plan, got, horizon, err := agent.Ahead(env.NewEpisode(e, &script{}, seed), uniform(c.steps), agent.PlanBudget)
			if err != nil || horizon != c.steps || !near(got, want) {
				t.Errorf("%s seed %d: Ahead gives %v within a horizon of %d (%v); Best %v over %d",
					c.file, seed, got, horizon, err, want, c.steps)
			}
			if played := env.NewEpisode(e, &script{actions: plan}, seed).Run(c.steps, nil); !near(played, got) {
				t.Errorf("%s seed %d: Ahead's plan scores %v played, %v planned", c.file, seed, played, got)
			}
		}
	}
}

// TestAheadWithinAHorizon gives Ahead budgets too small for Best on the
// ω1-blocker, whose trace rewards make hundreds of states: it plans
// within a horizon shorter than the episode, no longer than its first
// lookahead (as deep as Best gets within that share of the budget), and
// its sum is what its plan scores played, at most the optimum and above
// random's expectation (which a plan that took the worst path's first
// action did not reach).
func TestAheadWithinAHorizon(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	const steps = 30
	for seed := range uint64(3) {
		optimum, random, err := agent.Scale(env.NewEpisode(e, &script{}, seed), uniform(steps), agent.PlanBudget)
		if err != nil {
			t.Fatal(err)
		}
		for _, work := range []int{3000, 10000, 100000} {
			b := agent.Budget{States: 1 << 16, Work: work}
			if _, _, err := agent.Best(env.NewEpisode(e, &script{}, seed), uniform(steps), b); !errors.Is(err, agent.ErrPlanTooLarge) {
				t.Fatalf("Best within %d of work: %v, want too large", work, err)
			}
			plan, got, horizon, err := agent.Ahead(env.NewEpisode(e, &script{}, seed), uniform(steps), b)
			if err != nil || horizon < 1 || horizon >= steps {
				t.Fatalf("seed %d, %d of work: horizon %d, %v", seed, work, horizon, err)
			}
			if played := env.NewEpisode(e, &script{actions: plan}, seed).Run(steps, nil); !near(played, got) {
				t.Errorf("seed %d, %d of work: the plan scores %v played, %v planned", seed, work, played, got)
			}
			first := 0 // the interactions Best plans within the first lookahead's share
			for first < steps {
				share := agent.Budget{States: b.States, Work: work / steps}
				if _, _, err := agent.Best(env.NewEpisode(e, &script{}, seed), uniform(first+1), share); err != nil {
					break
				}
				first++
			}
			if horizon > first {
				t.Errorf("seed %d, %d of work: a horizon of %d; the first lookahead saw %d", seed, work, horizon, first)
			}
			if got > optimum+1e-12 || got <= random {
				t.Errorf("seed %d, %d of work: %v within a horizon of %d; the optimum is %v and random's expectation %v",
					seed, work, got, horizon, optimum, random)
			}
		}
	}
}

// TestAheadFinishesWhatItBegins gives Ahead budgets whose share at the
// first interaction just fits a lookahead of one (about 9 of work on the
// ω1-blocker): it finishes the plan looking one interaction ahead, rather
// than failing near the end where the shares run short (at interaction 278
// of 300 within 3,530, when a share could refuse one interaction); and it
// ignores interactions of weight 0 at the end.
func TestAheadFinishesWhatItBegins(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	for _, c := range []struct{ steps, work int }{{300, 3530}, {100, 1185}} {
		plan, got, horizon, err := agent.Ahead(env.NewEpisode(e, &script{}, 1), uniform(c.steps), agent.Budget{States: 1 << 16, Work: c.work})
		if err != nil || horizon != 1 {
			t.Fatalf("%d interactions within %d of work: horizon %d, %v", c.steps, c.work, horizon, err)
		}
		if played := env.NewEpisode(e, &script{actions: plan}, 1).Run(c.steps, nil); !near(played, got) {
			t.Errorf("%d interactions: the plan scores %v played, %v planned", c.steps, played, got)
		}
	}
	w := append(uniform(20), make([]float64, 280)...) // v̌‖τ keeps only the first rewards
	plan, _, horizon, err := agent.Ahead(env.NewEpisode(e, &script{}, 1), w, agent.PlanBudget)
	if err != nil || horizon != len(w) || slices.ContainsFunc(plan[20:], func(a int) bool { return a != 0 }) {
		t.Errorf("20 weighed interactions of 300: horizon %d, %v, the rest %v", horizon, err, plan[20:])
	}
}

// TestAheadNeedsOneInteraction checks that Ahead gives up, naming the
// interaction, when its share of the budget cannot look one interaction
// ahead.
func TestAheadNeedsOneInteraction(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	_, _, _, err := agent.Ahead(env.NewEpisode(e, &script{}, 1), uniform(30), agent.Budget{States: 1 << 16, Work: 30})
	if !errors.Is(err, agent.ErrPlanTooLarge) || !strings.HasPrefix(err.Error(), "interaction 1 of 30: a lookahead of one interaction") {
		t.Fatalf("error %v", err)
	}
}

// TestOptimalPlansWithinAHorizonPastItsBudget shrinks the optimal agent's
// budget below the ω1-blocker's exact plan: it plays Ahead's plan, says
// so by its Horizon rather than by an error, and Evaluate counts those
// episodes; with its budget back, the same episodes are planned exactly.
func TestOptimalPlansWithinAHorizonPastItsBudget(t *testing.T) {
	e := loadFixture(t, "thesis/omega1-blocker.anynt")
	const steps = 30
	saved := agent.PlanBudget
	defer func() { agent.PlanBudget = saved }()
	agent.PlanBudget = agent.Budget{States: 1 << 16, Work: 3000}
	for seed := range uint64(3) {
		_, want, horizon, err := agent.Ahead(env.NewEpisode(e, &script{}, seed), uniform(steps), agent.PlanBudget)
		if err != nil {
			t.Fatal(err)
		}
		o := &agent.Optimal{}
		got := env.NewEpisode(e, o, seed).Run(steps, nil)
		if o.Err() != nil || o.Horizon() != horizon || !near(got, want) {
			t.Errorf("seed %d: optimal scores %v within a horizon of %d (%v); Ahead %v within %d", seed, got, o.Horizon(), o.Err(), want, horizon)
		}
	}
	ev := env.Evaluate(e, func() env.Agent { return &agent.Optimal{} }, 4, steps, 1, nil)
	if ev.Failed != 0 || ev.Horizoned != 4 || ev.Horizon < 1 || ev.Horizon >= steps {
		t.Errorf("run: %d failed, %d within a horizon of %d", ev.Failed, ev.Horizoned, ev.Horizon)
	}
	agent.PlanBudget = saved
	ev = env.Evaluate(e, func() env.Agent { return &agent.Optimal{} }, 4, steps, 1, nil)
	if ev.Failed != 0 || ev.Horizoned != 0 || ev.Horizon != 0 {
		t.Errorf("run within the budget: %d failed, %d within a horizon of %d", ev.Failed, ev.Horizoned, ev.Horizon)
	}
}
