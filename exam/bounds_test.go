package exam_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
)

// TestBoundsHoldEveryAgent gives the seven exercises of three Λ_one tests to
// every built-in agent that keeps the pace, 3 episodes each, under every
// payoff and pace model, and asks each item's optimum to be at least every
// agent's score, the optimal agent's to be the optimum (it plans for the
// payoff), and random's expectation to be at most the optimum (package agent checks it
// against the mean over every action sequence).
func TestBoundsHoldEveryAgent(t *testing.T) {
	items := lambdaOneItems(t, 2, 3)
	var names []string
	for _, name := range agent.Names() {
		a, err := agent.New(name, agent.DefaultSettings)
		if err != nil {
			t.Fatal(err)
		}
		if _, paced := a.(agent.Paced); !paced {
			if name == "mc-aixi-ctw" { // a planner: its default budget costs 30 ms an action
				name += ":simulations=2,depth=8,horizon=1"
			}
			names = append(names, name)
		}
	}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		score  exam.Score
		pace   string
		tau    float64
		lambda float64
	}{
		{exam.ScorePerCycle, "constant:1", 0, 0.9},
		{exam.ScoreDiminishing, "uniform:0.5:1.5", 30, 0.9},
		{exam.ScoreDiscounted, "exponential:1", 0, 0.9},
		// A steep discount: the plan for the mean reward is not the
		// plan for V|γ|τ here (exercise 3 of the third test).
		{exam.ScoreDiscounted, "constant:1", 0, 0.3},
		{exam.ScoreSum, "constant:1", 25, 0.9},
		{exam.ScorePerSecond, "uniform:0.5:1.5", 0, 0.9},
	} {
		s := exam.DefaultSettings
		s.Episodes, s.Score, s.Tau, s.Lambda = 3, c.score, c.tau, c.lambda
		if s.Pace, err = exam.ParsePace(c.pace); err != nil {
			t.Fatal(err)
		}
		bounds := exam.Bounds(items, s, nil)
		out, err := exam.Take(items, xs, s, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range bounds {
			if b.Err != nil {
				t.Fatalf("%s: %v", items[i].Name, b.Err)
			}
			for a, x := range xs {
				o := out[a*len(items)+i]
				if o.Score > b.Optimum+1e-12 {
					t.Errorf("%s, %s: %s scores %v, above the optimum %v", c.score, items[i].Name, x.Name, o.Score, b.Optimum)
				}
				if x.Name == "optimal" && math.Abs(o.Score-b.Optimum) > 1e-12 {
					t.Errorf("%s, %s: optimal scores %v, the optimum is %v", c.score, items[i].Name, o.Score, b.Optimum)
				}
			}
			if b.Random > b.Optimum+1e-12 {
				t.Errorf("%s, %s: random's expectation %v above the optimum %v", c.score, items[i].Name, b.Random, b.Optimum)
			}
			if math.Abs(b.Normalised(b.Optimum)-1) > 1e-9 || math.Abs(b.Normalised(b.Random)) > 1e-9 {
				t.Errorf("%s: the optimum normalises to %v and random to %v", items[i].Name, b.Normalised(b.Optimum), b.Normalised(b.Random))
			}
		}
	}
}

// TestBoundsStop checks that a stopped test's bounds say so.
func TestBoundsStop(t *testing.T) {
	s := exam.DefaultSettings
	stop := make(chan struct{})
	close(stop)
	s.Stop = stop
	for _, b := range exam.Bounds(lambdaOneItems(t, 1, 1), s, nil) {
		if !errors.Is(b.Err, exam.ErrNoBound) || !math.IsNaN(b.Normalised(0.5)) {
			t.Fatalf("bound %+v of a stopped test", b)
		}
	}
}

// TestAFailedBuiltInAgentIsAFault gives an item to random and to the
// optimal agent with a budget too small to plan: the optimal agent's
// outcome is faulted at its first episode, naming it, the item and the
// episode, and Take says so in its error while keeping every outcome.
func TestAFailedBuiltInAgentIsAFault(t *testing.T) {
	saved := agent.PlanBudget
	agent.PlanBudget = agent.Budget{States: 2, Work: 4}
	defer func() { agent.PlanBudget = saved }()
	items := lambdaOneItems(t, 1, 1)
	s := exam.DefaultSettings
	s.Episodes = 3
	out, err := exam.Take(items[:1], []exam.Examinee{examinee(t, "random"), examinee(t, "optimal")}, s, nil)
	var failed *exam.AgentError
	if !errors.As(err, &failed) || !errors.Is(err, agent.ErrPlanTooLarge) || failed.Items != 1 || len(out) != 2 {
		t.Fatalf("Take: %v, %d outcomes", err, len(out))
	}
	o := out[1]
	if o.Fault == nil || !strings.HasPrefix(o.Fault.Error(), "optimal on lambda-one:1/1, episode 0: ") {
		t.Errorf("fault %v", o.Fault)
	}
	if len(o.Scores) != 1 || out[0].Fault != nil || len(out[0].Scores) != 3 {
		t.Errorf("the faulted outcome keeps %d episodes, the other %d and its fault is %v", len(o.Scores), len(out[0].Scores), out[0].Fault)
	}
}

// recorder stays and records how many interactions it is asked to plan,
// under a lock: Take plays the items on all cores.
type recorder struct {
	agent.Stay
	mu    *sync.Mutex
	asked *[]int
}

func (r recorder) Plan(_ *env.Episode, w []float64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.asked = append(*r.asked, len(w))
}

// TestAPlannerPlansTheInteractionsBeforeTau checks that a planner is asked
// to plan the interactions it will have, those the pace fits before τ (7
// at one a second in 7.5 s), not the item's steps (20 and more): the
// adaptive test's items have a million steps and a τ of seconds, and
// planning the million cost the optimal agent minutes.
func TestAPlannerPlansTheInteractionsBeforeTau(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)[:2]
	var asked []int
	var mu sync.Mutex
	x := exam.Examinee{Name: "recorder", New: func() env.Agent { return recorder{mu: &mu, asked: &asked} }}
	s := exam.DefaultSettings
	s.Episodes, s.Tau = 2, 7.5
	out, err := exam.Take(items, []exam.Examinee{x}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(asked, []int{7, 7, 7, 7}) || out[0].Values.Count != 7 || out[1].Values.Count != 7 {
		t.Fatalf("asked to plan %v interactions, played %d and %d; want 7 each", asked, out[0].Values.Count, out[1].Values.Count)
	}
}

// TestBoundsWithinTheirBudget checks that an item with more states than
// ScaleBudget allows gets no scale, with the planner's error.
func TestBoundsWithinTheirBudget(t *testing.T) {
	saved := exam.ScaleBudget
	exam.ScaleBudget = agent.Budget{States: 2, Work: 4}
	defer func() { exam.ScaleBudget = saved }()
	for _, b := range exam.Bounds(lambdaOneItems(t, 1, 1), exam.DefaultSettings, nil) {
		if !errors.Is(b.Err, agent.ErrPlanTooLarge) || !math.IsNaN(b.Normalised(0.5)) {
			t.Fatalf("bound %+v within 2 states", b)
		}
	}
}

// TestBoundsWithinAHorizon shrinks ScaleBudget below the exact scale of
// three Λ_one tests' larger items: each gets a scale all the same, its
// optimum from a plan within a horizon (at most the exact optimum, a lower
// bound) and random's expectation from plays of random actions, within
// five standard errors of the exact one; and the errors are standard
// errors: the mean of the squared z scores is near 1 (a standard
// deviation of the plays in their place gives 1/32).
func TestBoundsWithinAHorizon(t *testing.T) {
	var items []exam.Item
	for seed := range uint64(3) {
		items = append(items, lambdaOneItems(t, seed+1, 1)[3:]...) // 50 to 80 interactions, which 600 of work cannot plan exactly
	}
	s := exam.DefaultSettings
	s.Episodes = 4
	exact := exam.Bounds(items, s, nil)
	saved := exam.ScaleBudget
	exam.ScaleBudget = agent.Budget{States: 1 << 16, Work: 600}
	defer func() { exam.ScaleBudget = saved }()
	approximate := exam.Bounds(items, s, nil)
	var squares float64
	for i, b := range approximate {
		x := exact[i]
		if x.Err != nil || x.Horizon != 0 || x.RandomPlays != 0 {
			t.Fatalf("%s: the exact bound %+v", items[i].Name, x)
		}
		if b.Err != nil || b.Horizon < 1 || b.Horizon >= items[i].Steps || b.RandomPlays != exam.RandomPlaysAnEpisode || !(b.RandomSE > 0) {
			t.Fatalf("%s: within 600 of work, %+v", items[i].Name, b)
		}
		if b.Optimum > x.Optimum+1e-12 || math.Abs(b.Random-x.Random) > 5*b.RandomSE {
			t.Errorf("%s: optimum %v within a horizon of %d, random %v ± %v; exactly %v and %v",
				items[i].Name, b.Optimum, b.Horizon, b.Random, b.RandomSE, x.Optimum, x.Random)
		}
		z := (b.Random - x.Random) / b.RandomSE
		squares += z * z
	}
	if m := squares / float64(len(items)); m < 0.2 || m > 5 {
		t.Errorf("the mean squared z score of random's estimates is %v over %d items, not near 1", m, len(items))
	}
}

// TestAHorizonIsNoFault gives a Λ_one test's sixth item to the optimal
// agent with a budget too small for an exact plan: it plans within a
// horizon, which its outcome records with no fault, its score at most
// the exact optimum; random's outcome records none.
func TestAHorizonIsNoFault(t *testing.T) {
	items := lambdaOneItems(t, 1, 1)[5:6]
	s := exam.DefaultSettings
	s.Episodes = 3
	bound := exam.Bounds(items, s, nil)[0]
	saved := agent.PlanBudget
	agent.PlanBudget = agent.Budget{States: 1 << 16, Work: 1000}
	defer func() { agent.PlanBudget = saved }()
	out, err := exam.Take(items, []exam.Examinee{examinee(t, "random"), examinee(t, "optimal")}, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if o := out[1]; o.Fault != nil || o.Horizon < 1 || o.Horizon >= items[0].Steps || o.Score > bound.Optimum+1e-12 {
		t.Errorf("optimal within a horizon: %+v; the optimum is %v", o, bound.Optimum)
	}
	if out[0].Horizon != 0 {
		t.Errorf("random's outcome records a horizon of %d", out[0].Horizon)
	}
}
