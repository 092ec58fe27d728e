package agent

import (
	"math"
	"slices"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-12 {
		t.Errorf("%s is %v, by hand %v", what, got, want)
	}
}

// One update of Watkins's Q(λ) by hand, α = 0.5, γ = 0.9, λ = 0.5, ε = 0,
// from Q(A) = (1, 0), Q(B) = (0, 2): the agent takes A's greedy action 0,
// then, in B after reward 0.5, δ = 0.5 + 0.9·2 − 1 = 1.3 and
// Q(A,0) = 1 + 0.5·1.3·1 = 1.65, e(A,0) = γλ = 0.45; then in A after
// reward −1, δ = −1 + 0.9·1.65 − 2 = −1.515, Q(A,0) = 1.65 − 0.5·1.515·0.45
// = 1.309125, Q(B,1) = 2 − 0.5·1.515 = 1.2425, e(A,0) = 0.2025, e(B,1) = 0.45.
func TestQLambdaByHand(t *testing.T) {
	l := &QLambda{Alpha: 0.5, Gamma: 0.9, Lambda: 0.5}
	l.Start(nil, random.New(1, 2))
	a, b := l.t.state([]byte("A"), 2), l.t.state([]byte("B"), 2)
	copy(l.t.q, []float64{1, 0, 0, 2})
	if got := l.step(a, 2, 0); got != 0 {
		t.Fatalf("greedy in A: action %d, want 0", got)
	}
	if got := l.step(b, 2, 0.5); got != 1 {
		t.Fatalf("greedy in B: action %d, want 1", got)
	}
	near(t, "Q(A,0) after one update", l.t.q[a], 1.65)
	near(t, "e(A,0) after one update", l.t.e[a], 0.45)
	l.step(a, 2, -1)
	near(t, "Q(A,0) after two", l.t.q[a], 1.309125)
	near(t, "Q(B,1) after two", l.t.q[b+1], 1.2425)
	near(t, "e(A,0) after two", l.t.e[a], 0.2025)
	near(t, "e(B,1) after two", l.t.e[b+1], 0.45)
	if l.t.q[a+1] != 0 || l.t.q[b] != 0 {
		t.Errorf("pairs never taken changed: %v", l.t.q)
	}
}

// SARSA(λ)'s traces replace: a pair revisited while its trace is 0.45 has
// it set to 1, not raised to 1.45. One state, one action, α = 0.5,
// γ = 0.9, λ = 0.5: after reward 1, Q = 0.5·1 = 0.5; after reward 1 again,
// δ = 1 + 0.9·0.5 − 0.5 = 0.95 and Q = 0.5 + 0.5·0.95·1 = 0.975
// (accumulating would give 0.5 + 0.5·0.95·1.45 = 1.18875).
func TestSarsaLambdaReplaces(t *testing.T) {
	l := &SarsaLambda{Alpha: 0.5, Gamma: 0.9, Lambda: 0.5}
	l.Start(nil, random.New(1, 2))
	s := l.t.state([]byte("A"), 1)
	l.step(s, 1, 0)
	l.step(s, 1, 1)
	near(t, "Q after one update", l.t.q[s], 0.5)
	l.step(s, 1, 1)
	near(t, "Q after two", l.t.q[s], 0.975)
}

// HLQ(λ) by hand on one state with one action, γ = 0.9, λ = 0.5: after
// reward 1, E = 1, N = 1 + 1 = 2, β = 1/(2 − 0.9·1) = 1/1.1 and
// Q = 1/1.1; N decays to 1, E to 0.45; after reward 1 again,
// δ = 1 + 0.9 Q − Q = 1 − 0.1/1.1, E = 1.45, N = 2, β = 1.45/(2 − 0.9·1.45).
func TestHLQByHand(t *testing.T) {
	h := &HLQ{Gamma: 0.9, Lambda: 0.5}
	h.Start(nil, random.New(1, 2))
	s := h.t.state([]byte("A"), 1)
	h.step(s, 1, 0)
	h.step(s, 1, 1)
	q1 := 1 / 1.1
	near(t, "Q after one update", h.t.q[s], q1)
	near(t, "N after one update", h.visits(s), 1)
	h.step(s, 1, 1)
	near(t, "Q after two", h.t.q[s], q1+1.45/(2-0.9*1.45)*(1-0.1*q1))
}

// replay is a direct implementation of a learner's rule over the whole
// table, as AIQ's Q_l and HLQ_l run it: every pair updated at every
// interaction, HLQ's visit counts decayed eagerly, no trace ever dropped.
// Replayed on the agent's states, rewards and actions, its Q values must
// be the agent's.
type replay struct {
	kind                 string // qlambda, sarsalambda or hlq
	alpha, gamma, lambda float64
	q, e, n              []float64
	updates, prev        int
}

func (r *replay) grow(size int) {
	for len(r.q) < size { // a new pair: Q0 = 0, its count 1 decayed since the start
		r.q, r.e = append(r.q, 0), append(r.e, 0)
		r.n = append(r.n, max(math.Pow(r.lambda, float64(r.updates)), minVisits))
	}
}

func (r *replay) learn(off, n, next int, reward float64) {
	best := slices.Max(r.q[off : off+n])
	greedy, target := r.q[next] == best, best
	if r.kind == "sarsalambda" {
		target = r.q[next]
	}
	delta := reward + r.gamma*target - r.q[r.prev]
	decay := r.gamma * r.lambda
	if !greedy && r.kind != "sarsalambda" {
		decay = 0
	}
	switch r.kind {
	case "qlambda", "sarsalambda":
		if r.kind == "sarsalambda" {
			r.e[r.prev] = 1
		} else {
			r.e[r.prev]++
		}
		for x := range r.q {
			r.q[x] += r.alpha * delta * r.e[x]
			r.e[x] *= decay
		}
	case "hlq":
		r.e[r.prev]++
		r.n[r.prev]++
		beta := make([]float64, len(r.q))
		for x := range r.q {
			ind := 0.0
			if x == next {
				ind = 1
			}
			beta[x] = r.e[x] / (r.n[next] - r.gamma*r.e[next]) * (r.lambda*r.n[next] + ind) / (r.lambda*r.n[x] + ind)
		}
		for x := range r.q {
			r.q[x] += beta[x] * delta
			r.n[x] = max(r.n[x]*r.lambda, minVisits)
			r.e[x] *= decay
		}
	}
	r.updates++
}

// stepper is what the test drives: a learner's table and its step.
type stepper interface {
	tab() *table
	step(off, n int, reward float64) int
}

func (l *QLambda) tab() *table     { return &l.t }
func (l *SarsaLambda) tab() *table { return &l.t }
func (h *HLQ) tab() *table         { return &h.t }

// TestLearnersMatchTheRule runs each learner (ε = 0.3, so that a third of
// the actions explore and Watkins's traces are cut often) for 400
// interactions over three states of two actions, rewards in {−1, −½, 0,
// ½, 1}, and checks its Q values against the replay after every one.
func TestLearnersMatchTheRule(t *testing.T) {
	const alpha, gamma, lambda, eps = 0.3, 0.9, 0.8, 0.3
	for _, c := range []struct {
		kind string
		mk   func() stepper
	}{
		{"qlambda", func() stepper { return &QLambda{Alpha: alpha, Gamma: gamma, Lambda: lambda, Epsilon: eps} }},
		{"sarsalambda", func() stepper { return &SarsaLambda{Alpha: alpha, Gamma: gamma, Lambda: lambda, Epsilon: eps} }},
		{"hlq", func() stepper { return &HLQ{Gamma: gamma, Lambda: lambda, Epsilon: eps} }},
	} {
		l := c.mk()
		l.(interface {
			Start(_ *env.Env, rng *random.Rand)
		}).Start(nil, random.New(7, 7))
		r := &replay{kind: c.kind, alpha: alpha, gamma: gamma, lambda: lambda}
		w := random.New(3, 4)
		states := [][]byte{[]byte("A"), []byte("B"), []byte("C")}
		cuts := 0
		for i := range 400 {
			obs, reward := states[w.IntN(3)], float64(w.IntN(5)-2)/2
			off := l.tab().state(obs, 2)
			r.grow(len(l.tab().q))
			before := slices.Clone(r.q[off : off+2])
			a := l.step(off, 2, reward)
			if i > 0 {
				r.learn(off, 2, off+a, reward)
				if before[a] < slices.Max(before) {
					cuts++
				}
			}
			r.prev = off + a
			for x := range r.q {
				if math.Abs(l.tab().q[x]-r.q[x]) > 1e-9*max(1, math.Abs(r.q[x])) {
					t.Fatalf("%s, interaction %d: Q[%d] is %v, the rule gives %v", c.kind, i+1, x, l.tab().q[x], r.q[x])
				}
			}
		}
		if cuts < 30 {
			t.Errorf("%s: only %d exploratory actions: the test hardly tests the cut", c.kind, cuts)
		}
	}
}

// HLQ's visit counts decay as λ^k whether k is within its table of powers
// or past it.
func TestHLQVisitsDecay(t *testing.T) {
	h := &HLQ{Lambda: 0.999}
	h.Start(nil, random.New(1, 2))
	h.n, h.at = []float64{3}, []int{0}
	for _, k := range []int{0, 1, 100, maxPow - 1, maxPow, 3 * maxPow} {
		h.now = k
		if got, want := h.visits(0), 3*math.Pow(0.999, float64(k)); math.Abs(got-want) > 1e-12*want {
			t.Errorf("N after %d interactions is %v, want %v", k, got, want)
		}
	}
	h.now = 1 << 30 // far past the floor
	if got := h.visits(0); got != minVisits {
		t.Errorf("N after 2³⁰ interactions is %v, want the floor %v", got, minVisits)
	}
}

// Watkins's traces are cut after an exploratory action and only then:
// with ε = 1 every action is drawn uniformly from A's two, whose values
// stay apart (1 and −1, rewards 0, α small); after a non-greedy action no
// trace is left, after a greedy one the pair just left keeps γλ.
func TestQLambdaCutsTracesAfterExploring(t *testing.T) {
	l := &QLambda{Alpha: 1e-3, Gamma: 0.9, Lambda: 0.5, Epsilon: 1}
	l.Start(nil, random.New(5, 6))
	s := l.t.state([]byte("A"), 2)
	copy(l.t.q, []float64{1, -1})
	l.step(s, 2, 0)
	var cut, kept int
	for range 200 {
		prev := l.prev
		a := l.step(s, 2, 0)
		if a == 1 { // non-greedy
			cut++
			if len(l.t.active) != 0 || l.t.e[s] != 0 || l.t.e[s+1] != 0 {
				t.Fatalf("after a non-greedy action the traces are %v", l.t.e)
			}
			continue
		}
		kept++
		if l.t.e[prev] < 0.45 {
			t.Fatalf("after a greedy action the trace of the pair left is %v, want at least γλ = 0.45", l.t.e[prev])
		}
	}
	if cut < 50 || kept < 50 {
		t.Errorf("%d cuts and %d greedy actions in 200: the seed tests too little", cut, kept)
	}
}

// freqLog passes Freq's interactions through, writing down the reward it
// was shown, the action it took and its means after the update.
type freqLog struct {
	*Freq
	rewards []float64
	actions []int
	means   [][]float64
}

func (l *freqLog) Act(v *env.View) int {
	a := l.Freq.Act(v)
	l.rewards, l.actions = append(l.rewards, v.Reward), append(l.actions, a)
	l.means = append(l.means, slices.Clone(l.Freq.means))
	return a
}

// Freq's means by the rule, replayed on smallWorld's rewards: each action
// starts with one visit of reward 0, and the reward that follows an
// action is added to its total and counted, mean = total / (visits + 1).
// With ε = 0.3 every action is tried and its mean checked after every
// interaction; with ε = 0 every action is one of the largest means.
func TestFreqKeepsTheMeans(t *testing.T) {
	for _, eps := range []float64{0.3, 0} {
		l := &freqLog{Freq: &Freq{Epsilon: eps}}
		env.NewEpisode(loadEnv(t, smallWorld), l, 5).Run(300, nil)
		total, count := make([]float64, 3), []float64{1, 1, 1}
		for i, r := range l.rewards {
			if i > 0 {
				prev := l.actions[i-1]
				total[prev] += r
				count[prev]++
			}
			for a := range total {
				if want := total[a] / count[a]; math.Abs(l.means[i][a]-want) > 1e-12 {
					t.Fatalf("ε %v, interaction %d: action %d's mean is %v, by the rule %v", eps, i+1, a, l.means[i][a], want)
				}
			}
			if eps == 0 && l.means[i][l.actions[i]] != slices.Max(l.means[i]) {
				t.Fatalf("ε 0, interaction %d: action %d of mean %v, below the largest of %v", i+1, l.actions[i], l.means[i][l.actions[i]], l.means[i])
			}
		}
		if eps > 0 && slices.Contains(count, 1) {
			t.Errorf("ε %v: an action never tried in 300 interactions (visits %v)", eps, count)
		}
	}
}

// The learners' ε-greedy choice breaks ties uniformly and explores
// uniformly: over 3,000 draws (one seeded stream, so the counts are
// fixed), values (1, 0, 1) and ε = 0 give actions 0 and 2 about 1,500
// times each and action 1 never; ε = 1 gives each action about 1,000
// times; ε = 0.3 takes action 1 about 0.3·⅓ of the time. The bounds are
// six binomial standard deviations.
func TestLearnersBreakTiesUniformly(t *testing.T) {
	const draws = 3000
	rng := random.New(9, 10)
	var ties []int
	for _, c := range []struct {
		epsilon float64
		chances []float64
	}{
		{0, []float64{0.5, 0, 0.5}},
		{1, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3}},
		{0.3, []float64{0.45, 0.1, 0.45}},
	} {
		counts := make([]int, 3)
		for range draws {
			a, greedy, best := egreedy(rng, []float64{1, 0, 1}, c.epsilon, &ties)
			if greedy != (a != 1) || best != 1 {
				t.Fatalf("ε %v: action %d said greedy %v, best %v", c.epsilon, a, greedy, best)
			}
			counts[a]++
		}
		for a, p := range c.chances {
			mean, sd := draws*p, math.Sqrt(draws*p*(1-p))
			if math.Abs(float64(counts[a])-mean) > 6*sd {
				t.Errorf("ε %v: action %d drawn %d times in %d, want %.0f ± %.0f (counts %v)", c.epsilon, a, counts[a], draws, mean, 6*sd, counts)
			}
		}
	}
}
