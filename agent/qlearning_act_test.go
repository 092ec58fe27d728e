package agent

import (
	"math"
	"slices"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// smallWorld is a three-cell environment whose states recur and whose
// rewards vary: Good and Evil stay and swap every U[1, 3] interactions,
// so that π's Q values part ways within a few steps.
const smallWorld = `actions s a b
space table {
  1 2 3
  2 1 1
  3 3 1
}
goodevil pattern s
set garbage off
set cycle-bound 3
place π 1
place ⊕ 2
place ⊖ 3
`

func loadEnv(t *testing.T, src string) *env.Env {
	t.Helper()
	f, err := lang.Parse("world.anynt", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// seen is what an agent was shown at one interaction and what it did.
type seen struct {
	state   string
	reward  float64
	actions int
	action  int
}

// recorder passes an agent's interactions through, writing them down;
// before hands the agent its view first, to prepare the agent's table.
type recorder struct {
	*QLearning
	log    []seen
	before func(v *env.View)
}

func (r *recorder) Act(v *env.View) int {
	if r.before != nil {
		r.before(v)
	}
	a := r.QLearning.Act(v)
	r.log = append(r.log, seen{string(v.Observation()), v.Reward, len(v.Dest()), a})
	return a
}

// TestQLearningActsByTheRule replays an episode of Q-learning by hand:
// from the observations, rewards and actions the agent saw and took, the
// thesis's rule, Q(s,a) += α (r + 1 + γ max_a' Q(s',a') − Q(s,a)) with
// α = 0.05, γ = 0.35 and Q0 = 2, gives the agent's table, and every
// action is one of the greedy ones of its state, after the update.
func TestQLearningActsByTheRule(t *testing.T) {
	const alpha, gamma, q0 = 0.05, 0.35, 2.0
	if (DefaultSettings != Settings{Alpha: alpha, Gamma: gamma, Q0: q0}) {
		t.Fatalf("the thesis's settings are %+v", DefaultSettings)
	}
	r := &recorder{QLearning: &QLearning{Settings: DefaultSettings}}
	env.NewEpisode(loadEnv(t, smallWorld), r, 5).Run(300, nil)

	q := map[string][]float64{}
	values := func(state string, n int) []float64 {
		if _, ok := q[state]; !ok {
			q[state] = slices.Repeat([]float64{q0}, n)
		}
		return q[state]
	}
	differed := 0
	for i, s := range r.log {
		now := values(s.state, s.actions)
		if i > 0 {
			p := r.log[i-1]
			old := &q[p.state][p.action]
			target := s.reward + 1 + gamma*slices.Max(now)
			if slices.Min(now) != slices.Max(now) {
				differed++ // a step where the largest Q(s') matters
			}
			*old += alpha * (target - *old)
		}
		if now[s.action] != slices.Max(now) {
			t.Fatalf("interaction %d: action %d has Q %v, below the best of %v", i+1, s.action, now[s.action], now)
		}
	}
	if differed < 50 {
		t.Fatalf("only %d of %d updates bootstrap from a state whose values differ: the test cannot tell max from min", differed, len(r.log))
	}
	if len(r.QLearning.q) != len(q) {
		t.Fatalf("the agent knows %d states, the replay %d", len(r.QLearning.q), len(q))
	}
	for state, want := range q {
		got := r.QLearning.q[state]
		for a := range want {
			if math.Abs(got[a]-want[a]) > 1e-12 {
				t.Fatalf("Q(%q, %d) is %v, the rule gives %v", state, a, got[a], want[a])
			}
		}
	}
}

// TestQLearningTheFirstStepsByHand follows the first five interactions
// of a fixed episode (seed 5) by hand. States S1, S2, S3 come in the order
// S1 S2 S3 S1 S2, with the rewards of the previous action 0.5, 0, 0, 0.5:
//
//	step 2: Q(S1,a1) = 2 + 0.05 (0.5 + 1 + 0.35·2 − 2)              = 2.01
//	step 3: Q(S2,a2) = 2 + 0.05 (0 + 1 + 0.35·2 − 2)                = 1.985
//	step 4: Q(S3,a3) = 2 + 0.05 (0 + 1 + 0.35·max(2, 2.01, 2) − 2) = 1.985175
//	step 5: Q(S1,a1) = 2.01 + 0.05 (0.5 + 1 + 0.35·2 − 2.01)        = 2.0195
//
// Step 4 bootstraps from S1, whose values differ: the smallest would give
// 1.985. At step 4 the agent is greedy in S1: it takes a1 again, the one
// action above Q0.
func TestQLearningTheFirstStepsByHand(t *testing.T) {
	r := &recorder{QLearning: &QLearning{Settings: DefaultSettings}}
	env.NewEpisode(loadEnv(t, smallWorld), r, 5).Run(5, nil)
	l := r.log
	if l[3].state != l[0].state || l[4].state != l[1].state || len(r.QLearning.q) != 3 ||
		l[1].reward != 0.5 || l[2].reward != 0 || l[3].reward != 0 || l[4].reward != 0.5 {
		t.Fatalf("the episode is not the one worked out by hand: %+v", l)
	}
	if l[3].action != l[0].action {
		t.Errorf("in S1 again the agent takes %d, not its one action above Q0, %d", l[3].action, l[0].action)
	}
	q := r.QLearning.q
	for _, c := range []struct {
		what string
		got  float64
		want float64
	}{
		{"Q(S1,a1)", q[l[0].state][l[0].action], 2.0195},
		{"Q(S2,a2)", q[l[1].state][l[1].action], 1.985},
		{"Q(S3,a3)", q[l[2].state][l[2].action], 1.985175},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s is %v, by hand %v", c.what, c.got, c.want)
		}
	}
}

// TestQLearningBreaksTiesUniformly counts the first action of 3,000
// episodes (seeds 0 to 2,999): in a new state every action is tied at Q0,
// so each of the three is taken about 1,000 times; with the table of the
// first state set to (2, 1, 2), actions 0 and 2 about 1,500 times each and
// action 1 never. The bounds are six binomial standard deviations, which
// a fair draw passes with probability 1 − 2·10⁻⁹ (the seeds are fixed, so
// the counts are too).
func TestQLearningBreaksTiesUniformly(t *testing.T) {
	const episodes = 3000
	e := loadEnv(t, smallWorld)
	for _, c := range []struct {
		name    string
		values  []float64 // of the first state; nil: new, all Q0
		chances []float64 // of each action
	}{
		{"all tied", nil, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{"two of three tied", []float64{2, 1, 2}, []float64{0.5, 0, 0.5}},
	} {
		counts := make([]int, len(c.chances))
		for seed := range uint64(episodes) {
			r := &recorder{QLearning: &QLearning{Settings: DefaultSettings}}
			r.before = func(v *env.View) {
				if c.values != nil {
					r.QLearning.q[string(v.Observation())] = slices.Clone(c.values)
				}
			}
			env.NewEpisode(e, r, seed).Run(1, nil)
			counts[r.log[0].action]++
		}
		for a, p := range c.chances {
			mean, sd := episodes*p, math.Sqrt(episodes*p*(1-p))
			if math.Abs(float64(counts[a])-mean) > 6*sd {
				t.Errorf("%s: action %d was taken %d times in %d, want %.0f ± %.0f (counts %v)",
					c.name, a, counts[a], episodes, mean, 6*sd, counts)
			}
		}
	}
}
