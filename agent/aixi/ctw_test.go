package aixi

import (
	"math"
	"math/rand/v2"
	"testing"
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
	root := m.trees[0].nodes[0]
	if got := math.Exp(root.logKT); math.Abs(got-1.0/16) > 1e-15 {
		t.Errorf("root KT %v, want 1/16", got)
	}
	if got := math.Exp(root.logW); math.Abs(got-1.0/16) > 1e-15 {
		t.Errorf("P_w(0,1,1) = %v, want 1/16", got)
	}
	c0, c1 := m.trees[0].nodes[root.child[0]], m.trees[0].nodes[root.child[1]]
	if got := math.Exp(c0.logW); math.Abs(got-1.0/8) > 1e-15 {
		t.Errorf("context 0's P_w %v, want 1/8", got)
	}
	if got := math.Exp(c1.logW); math.Abs(got-0.5) > 1e-15 {
		t.Errorf("context 1's P_w %v, want 1/2", got)
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
	if got := math.Exp(m.trees[0].nodes[0].logW); math.Abs(got-5.0/16) > 1e-15 {
		t.Errorf("P_w(1,1) = %v, want 5/16", got)
	}
	if got := m.prob1(0); math.Abs(got-0.75) > 1e-14 {
		t.Errorf("P(1 | 1,1) = %v, want 3/4", got)
	}
}

// prob1 is P_w(h·1)/P_w(h), computed without updating: it matches an
// update and its revert, and P(0) + P(1) = 1, on random histories with
// actions between percepts.
func TestProb1IsTheRatio(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := newModel(5, 3)
	for step := range 300 {
		if step%3 == 0 {
			m.appendAction([]byte{byte(rng.IntN(2))}, true)
		}
		i := step % 3
		before := m.trees[i].nodes[0].logW
		p := m.prob1(i)
		m.update(i, 1, false)
		with1 := math.Exp(m.trees[i].nodes[0].logW - before)
		m.revertTo(0)
		m.update(i, 0, false)
		with0 := math.Exp(m.trees[i].nodes[0].logW - before)
		m.revertTo(0)
		if math.Abs(p-with1) > 1e-12 || math.Abs(with0+with1-1) > 1e-12 {
			t.Fatalf("step %d: prob1 %v, by update %v, P(0) %v", step, p, with1, with0)
		}
		b := 0
		if rng.Float64() < 0.3+0.4*float64(i%2) {
			b = 1
		}
		m.update(i, b, true)
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
	rng := rand.New(rand.NewPCG(3, 4))
	m := newModel(8, 4)
	for step := range 200 {
		if step%4 == 0 {
			m.appendAction([]byte{byte(rng.IntN(2)), byte(rng.IntN(2))}, true)
		}
		m.update(step%4, rng.IntN(2), true)
	}
	hist, trees := snapshot(m)
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
		}
		m.revertTo(0)
		gotHist, gotTrees := snapshot(m)
		if string(gotHist) != string(hist) {
			t.Fatalf("history %v, want %v", gotHist, hist)
		}
		for i := range trees {
			if len(gotTrees[i]) != len(trees[i]) {
				t.Fatalf("tree %d has %d nodes after revert, had %d", i, len(gotTrees[i]), len(trees[i]))
			}
			for k, want := range trees[i] {
				got := gotTrees[i][k]
				if got.count != want.count || got.child != want.child ||
					math.Float64bits(got.logKT) != math.Float64bits(want.logKT) ||
					math.Float64bits(got.logW) != math.Float64bits(want.logW) {
					t.Fatalf("tree %d node %d is %+v after revert, was %+v", i, k, got, want)
				}
			}
		}
	}
}
