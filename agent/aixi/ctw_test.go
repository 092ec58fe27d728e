package aixi

import (
	"math"
	"testing"

	"github.com/anynt/anynt/random"
)

// A depth-1 tree after 0, 1, 1 (the context before the first bit reads
// 0), by hand. KT at the root: ½ · ¼ · ½ = 1/16 (each bit's
// (count + ½)/(seen + 1)). Context 0 saw 0 then 1: ½ · ¼ = 1/8; context 1
// saw 1: ½. The root weighs ½·1/16 + ½·(1/8 · ½) = 1/16. The next bit, in
// context 1: the root's KT becomes 1/16 · (2 + ½)/4 = 5/128, context 1's
// ½ · (1 + ½)/2 = 3/8, so P_w(…1) = ½·5/128 + ½·(1/8 · 3/8) = 11/256 and
// P(1 | 0,1,1) = (11/256)/(1/16) = 11/16.
func TestCTWByHand(t *testing.T) {
	m := newModel(1, 1)
	for _, b := range []int{0, 1, 1} {
		m.update(0, b, true)
	}
	tr := m.trees[0]
	if got := math.Exp(tr.logP); math.Abs(got-1.0/16) > 1e-15 {
		t.Errorf("P_w(0,1,1) = %v, want 1/16", got)
	}
	// β at the root: P_kt / (P_w(ctx 0) · P_w(ctx 1)) = (1/16) / (1/8 · ½) = 1.
	if root := tr.nodes[0]; math.Abs(root.logBeta) > 1e-15 || root.count != [2]uint32{1, 2} {
		t.Errorf("root %+v, want counts 1, 2 and β = 1", root)
	}
	c0, c1 := tr.nodes[tr.nodes[0].child[0]], tr.nodes[tr.nodes[0].child[1]]
	if c0.count != [2]uint32{1, 1} || c1.count != [2]uint32{0, 1} {
		t.Errorf("contexts 0 and 1 counted %v and %v, want [1 1] and [0 1]", c0.count, c1.count)
	}
	if got := m.prob1(0); math.Abs(got-11.0/16) > 1e-14 {
		t.Errorf("P(1 | 0,1,1) = %v, want 11/16", got)
	}
}

// A depth-2 tree, by hand, where prob1 meets a missing node. The first
// 1 is seen in context 00 (before the history, contexts read 0), the
// second in context 10 (most recent bit first). Root KT: ½ · ¾ = 3/8.
// Depth 1: context 0 saw one 1 (KT ½) and so did its child 00 (½): P_w =
// ½·½ + ½·½ = ½; likewise context 1 and its child 10: ½. Root: P_w(1,1) =
// ½ · 3/8 + ½ · (½ · ½) = 5/16. The next bit's context is 11, whose leaf
// does not exist. After a third 1: root KT 3/8 · (2 + ½)/3 = 5/16; context
// 1's KT ½ · (1 + ½)/2 = 3/8, its children 10 (½) and the new 11 (½), so
// its P_w = ½ · 3/8 + ½ · ¼ = 5/16; the root's P_w = ½ · 5/16 + ½ · (½ ·
// 5/16) = 15/64, and P(1 | 1,1) = (15/64)/(5/16) = 3/4.
func TestCTWMissingNodesByHand(t *testing.T) {
	m := newModel(2, 1)
	m.update(0, 1, true)
	m.update(0, 1, true)
	if got := math.Exp(m.trees[0].logP); math.Abs(got-5.0/16) > 1e-15 {
		t.Errorf("P_w(1,1) = %v, want 5/16", got)
	}
	if got := m.prob1(0); math.Abs(got-0.75) > 1e-14 {
		t.Errorf("P(1 | 1,1) = %v, want 3/4", got)
	}
}

// refLogPw is CTW from its definition, for the tests: the bits each
// context (up to depth D, most recent bit first) saw are counted, and
// P_w(s) = KT(s) at depth D, ½ KT(s) + ½ P_w(s0) P_w(s1) above, with the
// KT probability of a zeros and b ones Γ(a+½) Γ(b+½) / (π Γ(a+b+1)).
func refLogPw(history []byte, predicted []bool, depth int) float64 {
	counts := map[string][2]int{}
	for i, x := range history {
		if !predicted[i] {
			continue
		}
		ctx := ""
		for d := 0; d <= depth; d++ {
			c := counts[ctx]
			c[x]++
			counts[ctx] = c
			bit := byte('0')
			if i-d-1 >= 0 && history[i-d-1] == 1 {
				bit = '1'
			}
			ctx += string(bit)
		}
	}
	logKT := func(c [2]int) float64 {
		la, _ := math.Lgamma(float64(c[0]) + 0.5)
		lb, _ := math.Lgamma(float64(c[1]) + 0.5)
		ln, _ := math.Lgamma(float64(c[0]+c[1]) + 1)
		return la + lb - ln - math.Log(math.Pi)
	}
	var pw func(ctx string) float64
	pw = func(ctx string) float64 {
		c, ok := counts[ctx]
		if !ok {
			return 0
		}
		if len(ctx) == depth {
			return logKT(c)
		}
		x, y := logKT(c), pw(ctx+"0")+pw(ctx+"1")
		return math.Log(0.5*math.Exp(x) + 0.5*math.Exp(y))
	}
	return pw("")
}

// The model's P_w and its predictions match CTW computed from its
// definition, on a random history of actions and percepts of 3 bits:
// logP is log P_w of what each tree predicted, and prob1 the ratio
// P_w(h·1)/P_w(h).
func TestCTWMatchesTheDefinition(t *testing.T) {
	const depth, bits = 4, 3
	rng := random.New(1, 2)
	m := newModel(depth, bits)
	tree := []int{} // the tree that predicted each history bit, or -1
	predictedBy := func(i int, extra bool) []bool {
		p := make([]bool, len(tree), len(tree)+1)
		for k, x := range tree {
			p[k] = x == i
		}
		return append(p, extra)
	}
	for step := range 120 {
		i := step % bits
		if i == 0 {
			a := []byte{byte(rng.IntN(2))}
			m.appendAction(a, true)
			tree = append(tree, -1)
		}
		b := 0
		if rng.Float64() < 0.2+0.6*float64(i%2) {
			b = 1
		}
		before := refLogPw(m.history, predictedBy(i, false)[:len(tree)], depth)
		with1 := refLogPw(append(m.history[:len(m.history):len(m.history)], 1), predictedBy(i, true), depth)
		if got, want := m.prob1(i), math.Exp(with1-before); math.Abs(got-want) > 1e-12 {
			t.Fatalf("step %d: prob1 %v, by the definition %v", step, got, want)
		}
		m.update(i, b, true)
		tree = append(tree, i)
		if got, want := m.trees[i].logP, refLogPw(m.history, predictedBy(i, false)[:len(tree)], depth); math.Abs(got-want) > 1e-9 {
			t.Fatalf("step %d: log P_w %v, by the definition %v", step, got, want)
		}
	}
}

// snapshot copies what a model is: its history and every tree's nodes.
func snapshot(m *model) ([]byte, [][]node) {
	trees := make([][]node, len(m.trees))
	for i, t := range m.trees {
		trees[i] = append([]node(nil), t.nodes...)
	}
	return append([]byte(nil), m.history...), trees
}

// Simulated updates and actions, reverted, leave the model exactly as it
// was: counts, children and every probability bit for bit.
func TestRevertRestoresExactly(t *testing.T) {
	rng := random.New(3, 4)
	m := newModel(8, 4)
	for step := range 200 {
		if step%4 == 0 {
			m.appendAction([]byte{byte(rng.IntN(2)), byte(rng.IntN(2))}, true)
		}
		m.update(step%4, rng.IntN(2), true)
	}
	hist, trees := snapshot(m)
	var logP []float64
	for _, tr := range m.trees {
		logP = append(logP, tr.logP)
	}
	for range 20 {
		for step := range 1 + rng.IntN(60) {
			if step%4 == 0 {
				m.appendAction([]byte{byte(rng.IntN(2)), byte(rng.IntN(2))}, false)
			}
			i := step % 4
			b := 0
			if rng.Float64() < m.prob1(i) {
				b = 1
			}
			m.update(i, b, false)
			if rng.IntN(5) == 0 { // an update not preceded by prob1
				m.update((i+1)%4, rng.IntN(2), false)
			}
		}
		m.revertTo(0)
		gotHist, gotTrees := snapshot(m)
		if string(gotHist) != string(hist) {
			t.Fatalf("history %v, want %v", gotHist, hist)
		}
		for i := range trees {
			if got := m.trees[i].logP; math.Float64bits(got) != math.Float64bits(logP[i]) {
				t.Fatalf("tree %d: log P_w %v after revert, was %v", i, got, logP[i])
			}
			if len(gotTrees[i]) != len(trees[i]) {
				t.Fatalf("tree %d has %d nodes after revert, had %d", i, len(gotTrees[i]), len(trees[i]))
			}
			for k, want := range trees[i] {
				got := gotTrees[i][k]
				if got.count != want.count || got.child != want.child ||
					math.Float64bits(got.logBeta) != math.Float64bits(want.logBeta) {
					t.Fatalf("tree %d node %d is %+v after revert, was %+v", i, k, got, want)
				}
			}
		}
	}
}
