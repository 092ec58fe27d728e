package agent

import (
	"math"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// traceFloor is the trace below which a trace is set to 0 and its pair
// leaves the active list: an update then moves a Q value by less than
// 10⁻¹²·|step|, and the cost of an interaction stays that of the pairs
// visited lately, not of every pair ever seen.
const traceFloor = 1e-12

// table holds the Q values and eligibility traces of the learners, flat:
// state s (π's observation string) owns the indices off[s] to off[s]+n−1,
// one per action. A state is created at Q0 the first time it is seen; the
// map is keyed by the observation's bytes, looked up without a copy.
type table struct {
	ids    map[string]int32
	q, e   []float64
	active []int32 // indices whose trace is not 0
	q0     float64
}

func newTable(q0 float64) table {
	return table{ids: map[string]int32{}, q0: q0}
}

// state returns the first index of the state's values, creating them.
func (t *table) state(obs []byte, actions int) int {
	if off, ok := t.ids[string(obs)]; ok {
		return int(off)
	}
	off := len(t.q)
	t.ids[string(obs)] = int32(off)
	for range actions {
		t.q = append(t.q, t.q0)
		t.e = append(t.e, 0)
	}
	return off
}

// visit raises the trace of index i: by 1 (accumulating) or to 1
// (replacing).
func (t *table) visit(i int, replace bool) {
	if t.e[i] == 0 {
		t.active = append(t.active, int32(i))
	}
	if replace {
		t.e[i] = 1
	} else {
		t.e[i]++
	}
}

// update adds step·e to every Q value whose trace is active and then
// multiplies the traces by decay (0 cuts them all).
func (t *table) update(step, decay float64) {
	keep := t.active[:0]
	for _, i := range t.active {
		t.q[i] += step * t.e[i]
		if t.e[i] *= decay; t.e[i] < traceFloor {
			t.e[i] = 0
			continue
		}
		keep = append(keep, i)
	}
	t.active = keep
}

// egreedy picks an action among q's values: with probability ε one drawn
// uniformly (it may be a greedy one), otherwise a greedy one, ties broken
// uniformly. It returns the action, whether it is greedy (its value is the
// largest) and the largest value. It draws from rng alone, always in the
// same order: one float, then one integer.
func egreedy(rng *random.Rand, q []float64, epsilon float64, ties *[]int) (a int, greedy bool, best float64) {
	best = q[0]
	for _, x := range q[1:] {
		best = max(best, x)
	}
	if rng.Float64() < epsilon {
		a = rng.IntN(len(q))
		return a, q[a] == best, best
	}
	*ties = (*ties)[:0]
	for i, x := range q {
		if x == best {
			*ties = append(*ties, i)
		}
	}
	return (*ties)[rng.IntN(len(*ties))], true, best
}

// QLambda is Watkins's Q(λ) (Watkins 1989; Sutton and Barto 2018, §12.10)
// with accumulating traces and ε-greedy actions, the state π's
// observation. After the reward r of action a in state s, in state s'
// with next action a' chosen ε-greedily and a* greedy:
//
//	δ = r + γ max Q(s',·) − Q(s,a);  e(s,a) += 1
//	for every pair x: Q(x) += α δ e(x);  e(x) ← γλ e(x) if a' is greedy, else 0
//
// The cut after an exploratory action is Watkins's: the traces carry the
// return of the greedy policy, which the exploratory action left.
type QLambda struct {
	Alpha, Lambda, Epsilon, Gamma, Q0 float64
	rng                               *random.Rand
	t                                 table
	prev                              int // index of the last pair, −1 before the first action
	ties                              []int
}

func (l *QLambda) Start(_ *env.Env, rng *random.Rand) {
	l.rng, l.t, l.prev = rng, newTable(l.Q0), -1
}

func (l *QLambda) Act(v *env.View) int {
	n := len(v.Dest())
	return l.step(l.t.state(v.Observation(), n), n, v.Reward)
}

// step learns from reward, now in the state whose values start at off,
// and picks the next action.
func (l *QLambda) step(off, n int, reward float64) int {
	a, greedy, best := egreedy(l.rng, l.t.q[off:off+n], l.Epsilon, &l.ties)
	if l.prev >= 0 {
		delta := reward + l.Gamma*best - l.t.q[l.prev]
		l.t.visit(l.prev, false)
		decay := l.Gamma * l.Lambda
		if !greedy {
			decay = 0
		}
		l.t.update(l.Alpha*delta, decay)
	}
	l.prev = off + a
	return a
}

// End learns nothing: an episode cut at its length is not a terminal state.
func (l *QLambda) End(float64) {}

// SarsaLambda is SARSA(λ) (Sutton and Barto 2018, §12.7) with replacing
// traces (Singh and Sutton 1996) and ε-greedy actions. After the reward r
// of action a in state s, in state s' with next action a' chosen
// ε-greedily:
//
//	δ = r + γ Q(s',a') − Q(s,a);  e(s,a) = 1
//	for every pair x: Q(x) += α δ e(x);  e(x) ← γλ e(x)
//
// Replacing, not accumulating: on a Λ_one exercise π's observation recurs
// every few interactions, and accumulating traces of a pair revisited
// within a trace's life grow past 1 and overshoot (Sutton and Barto 2018,
// §12.7, Figure 12.11).
type SarsaLambda struct {
	Alpha, Lambda, Epsilon, Gamma, Q0 float64
	rng                               *random.Rand
	t                                 table
	prev                              int
	ties                              []int
}

func (l *SarsaLambda) Start(_ *env.Env, rng *random.Rand) {
	l.rng, l.t, l.prev = rng, newTable(l.Q0), -1
}

func (l *SarsaLambda) Act(v *env.View) int {
	n := len(v.Dest())
	return l.step(l.t.state(v.Observation(), n), n, v.Reward)
}

// step learns from reward, now in the state whose values start at off,
// and picks the next action.
func (l *SarsaLambda) step(off, n int, reward float64) int {
	a, _, _ := egreedy(l.rng, l.t.q[off:off+n], l.Epsilon, &l.ties)
	if l.prev >= 0 {
		delta := reward + l.Gamma*l.t.q[off+a] - l.t.q[l.prev]
		l.t.visit(l.prev, true)
		l.t.update(l.Alpha*delta, l.Gamma*l.Lambda)
	}
	l.prev = off + a
	return a
}

// End learns nothing: an episode cut at its length is not a terminal state.
func (l *SarsaLambda) End(float64) {}

// minVisits is the floor of HLQ(λ)'s discounted visit counts, as in AIQ's
// HLQ_l: a count decayed towards 0 would make its learning rate blow up.
const minVisits = 1e-100

// HLQ is HLQ(λ) (Hutter and Legg 2008, §6): Watkins's Q(λ) with the
// learning rate α replaced by HL(λ)'s rate β, computed per pair from
// discounted visit counts N (decayed by λ each interaction, 1 at the
// start) and the traces E. After the reward r of action a in state s, in
// state s' with next action a' chosen ε-greedily:
//
//	δ = r + γ max Q(s',·) − Q(s,a);  E(s,a) += 1;  N(s,a) += 1
//	for every pair x, with [x] 1 if x = (s',a') and 0 otherwise:
//	  β(x) = E(x) / (N(s',a') − γ E(s',a')) · (λ N(s',a') + [x]) / (λ N(x) + [x])
//	  Q(x) += β(x) δ
//	  N(x) ← λ N(x);  E(x) ← γλ E(x) if a' is greedy, else 0
//
// N is kept lazily: a pair stores its count and the interaction it was
// last set, and its count now is that times λ to the interactions since
// (at least minVisits), so that only the pairs with a trace cost work.
type HLQ struct {
	Lambda, Epsilon, Gamma, Q0 float64
	rng                        *random.Rand
	t                          table
	n                          []float64 // N of each pair when last set
	at                         []int     // the interaction it was set
	now                        int       // interactions since the start
	pow                        []float64 // λ^k for k < len(pow): math.Pow costs more than the rest of an update
	prev                       int
	ties                       []int
}

func (h *HLQ) Start(_ *env.Env, rng *random.Rand) {
	h.rng, h.t, h.prev = rng, newTable(h.Q0), -1
	h.n, h.at, h.now = h.n[:0], h.at[:0], 0
	if len(h.pow) == 0 {
		h.pow = append(h.pow, 1)
	}
}

// maxPow bounds the table of λ's powers; a count older than that is
// decayed by math.Pow.
const maxPow = 4096

// visits is N(i) now.
func (h *HLQ) visits(i int) float64 {
	k := h.now - h.at[i]
	for k >= len(h.pow) && len(h.pow) < maxPow {
		h.pow = append(h.pow, h.pow[len(h.pow)-1]*h.Lambda)
	}
	if k < len(h.pow) {
		return max(h.n[i]*h.pow[k], minVisits)
	}
	return max(h.n[i]*math.Pow(h.Lambda, float64(k)), minVisits)
}

func (h *HLQ) Act(v *env.View) int {
	n := len(v.Dest())
	return h.step(h.t.state(v.Observation(), n), n, v.Reward)
}

// step learns from reward, now in the state whose values start at off,
// and picks the next action.
func (h *HLQ) step(off, n int, reward float64) int {
	for len(h.n) < len(h.t.q) { // a new state: N = 1 at the start, decayed since
		h.n, h.at = append(h.n, 1), append(h.at, 0)
	}
	a, greedy, best := egreedy(h.rng, h.t.q[off:off+n], h.Epsilon, &h.ties)
	next := off + a
	if h.prev >= 0 {
		delta := reward + h.Gamma*best - h.t.q[h.prev]
		h.t.visit(h.prev, false)
		h.n[h.prev], h.at[h.prev] = h.visits(h.prev)+1, h.now
		nNext := h.visits(next)
		rate := 1 / (nNext - h.Gamma*h.t.e[next])
		decay := h.Gamma * h.Lambda
		if !greedy {
			decay = 0
		}
		keep := h.t.active[:0]
		for _, i32 := range h.t.active {
			i := int(i32)
			var beta float64
			if i == next {
				beta = h.t.e[i] * rate // (λN + 1)/(λN + 1)
			} else {
				beta = h.t.e[i] * rate * nNext / h.visits(i) // λ cancels
			}
			h.t.q[i] += beta * delta
			if h.t.e[i] *= decay; h.t.e[i] < traceFloor {
				h.t.e[i] = 0
				continue
			}
			keep = append(keep, i32)
		}
		h.t.active = keep
		h.now++
	}
	h.prev = next
	return a
}

// End learns nothing: an episode cut at its length is not a terminal state.
func (h *HLQ) End(float64) {}

// Freq is AIQ's frequency agent (Legg and Veness 2011; AIQ's agents/Freq.py):
// it ignores observations and keeps, per action, the mean of the rewards
// that followed it, counted from a prior of one visit of reward 0 (so an
// untried action's mean is 0, a tried one's total/(visits+1)), and plays
// ε-greedily on those means, ties broken uniformly.
type Freq struct {
	Epsilon      float64
	rng          *random.Rand
	total, count []float64 // per action; count starts at 1
	means        []float64
	prev         int
	ties         []int
}

func (f *Freq) Start(_ *env.Env, rng *random.Rand) {
	f.rng, f.prev = rng, -1
	f.total, f.count, f.means = f.total[:0], f.count[:0], f.means[:0]
}

func (f *Freq) Act(v *env.View) int {
	for n := len(v.Dest()); len(f.total) < n; {
		f.total, f.count, f.means = append(f.total, 0), append(f.count, 1), append(f.means, 0)
	}
	if f.prev >= 0 {
		f.total[f.prev] += v.Reward
		f.count[f.prev]++
		f.means[f.prev] = f.total[f.prev] / f.count[f.prev]
	}
	a, _, _ := egreedy(f.rng, f.means[:len(v.Dest())], f.Epsilon, &f.ties)
	f.prev = a
	return a
}

func (f *Freq) End(float64) {}
