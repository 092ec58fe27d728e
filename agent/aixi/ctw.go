package aixi

import "math"

// node is a node of a context tree: the counts of the zeros and ones seen
// in its context, the log of their KT probability, and the log of the
// weighted (CTW) probability of what its subtree saw. Children are indices
// into the tree's arena; 0 means none (index 0 is the root, which is
// nobody's child).
type node struct {
	count [2]uint32
	logKT float64
	logW  float64
	child [2]int32
}

// tree is one context tree of depth D over binary contexts (Willems,
// Shtarkov and Tjalkens 1995): the nodes live in an arena, so that the
// nodes a simulated update creates are dropped by truncating it.
type tree struct {
	nodes []node
}

func newTree() *tree { return &tree{nodes: make([]node, 1, 64)} }

// log½ is the weight each of KT and the split gets at an inner node.
var logHalf = math.Log(0.5)

// ktFactor is log of the KT estimator's probability of the next bit being
// b after a zeros and b ones: (count[b] + ½) / (count[0] + count[1] + 1).
func ktFactor(c [2]uint32, bit int) float64 {
	return math.Log((float64(c[bit]) + 0.5) / (float64(c[0]) + float64(c[1]) + 1))
}

// weighted is the CTW weighting at a node of depth below D: ½ KT + ½ the
// product of its children's weighted probabilities, in logs. A missing
// child saw nothing and weighs 1 (log 0).
func weighted(logKT, logChildren float64) float64 {
	// log(½ e^x + ½ e^y), computed from the larger so that it neither
	// overflows nor loses the smaller term.
	x, y := logKT, logChildren
	if x < y {
		x, y = y, x
	}
	return logHalf + x + math.Log1p(math.Exp(y-x))
}

// undo is what one update changed, so that revert restores the tree bit
// for bit: the arena's length before it (the nodes it created are dropped)
// and the old KT and weighted logs of the nodes on its path, deepest first.
type undo struct {
	arena int // -1 for an action's bits
	bit   int // the bit taught, or the number of action bits
	tree  int
	path  []int32
	kt    []float64
	w     []float64
}

// model is the factored action-conditional CTW of Veness et al. (2011,
// §5): one context tree for each bit of the percept, each predicting its
// bit from the D most recent bits of the history (actions, percepts and
// the earlier bits of the percept under way). Actions are history, never
// predicted: the model is conditioned on them.
type model struct {
	depth   int
	trees   []*tree // by percept bit
	history []byte  // every bit so far, one byte each
	// path is scratch: the nodes from the root down the context.
	path []int32
	// undos is the stack of simulated updates not yet reverted.
	undos []undo
	free  []undo // reverted frames, their slices reused
}

func newModel(depth, perceptBits int) *model {
	m := &model{depth: depth, trees: make([]*tree, perceptBits), path: make([]int32, 0, depth+1)}
	for i := range m.trees {
		m.trees[i] = newTree()
	}
	return m
}

// contextBit is the bit d places back from the end of the history (d from
// 1); before the start of the history the context reads 0.
func (m *model) contextBit(d int) int {
	if i := len(m.history) - d; i >= 0 {
		return int(m.history[i])
	}
	return 0
}

// prob1 is the probability the model gives the next bit being 1, which
// tree i (of the percept bit under way) predicts: P_w(h·1)/P_w(h) at its
// root, computed along the context's path without changing anything.
func (m *model) prob1(i int) float64 {
	t := m.trees[i]
	// Walk down as far as the nodes exist; below, nodes would be new.
	m.path = m.path[:0]
	n := int32(0)
	m.path = append(m.path, n)
	for d := 1; d <= m.depth; d++ {
		c := t.nodes[n].child[m.contextBit(d)]
		if c == 0 {
			break
		}
		n = c
		m.path = append(m.path, n)
	}
	// A node never created saw nothing: its KT after a 1 is log ½, and so
	// is its weighted probability (½·½ + ½·½ at an inner node, ½ at a leaf).
	logW := 0.0 // the new log P_w of the child on the path, below
	if len(m.path) <= m.depth {
		logW = math.Log(0.5)
	}
	for k := len(m.path) - 1; k >= 0; k-- {
		nd := &t.nodes[m.path[k]]
		kt := nd.logKT + ktFactor(nd.count, 1)
		if k == m.depth {
			logW = kt
			continue
		}
		other := nd.child[1-m.contextBit(k+1)]
		sib := 0.0
		if other != 0 {
			sib = t.nodes[other].logW
		}
		logW = weighted(kt, logW+sib)
	}
	return math.Exp(logW - t.nodes[0].logW)
}

// update teaches tree i the next bit of the percept and appends it to the
// history; with keep false it records what it changed for revert.
func (m *model) update(i, bit int, keep bool) {
	t := m.trees[i]
	var u *undo
	if !keep {
		u = m.push()
		u.arena, u.bit, u.tree = len(t.nodes), bit, i
	}
	m.path = m.path[:0]
	n := int32(0)
	m.path = append(m.path, n)
	for d := 1; d <= m.depth; d++ {
		b := m.contextBit(d)
		c := t.nodes[n].child[b]
		if c == 0 {
			c = int32(len(t.nodes))
			t.nodes = append(t.nodes, node{})
			t.nodes[n].child[b] = c
		}
		n = c
		m.path = append(m.path, n)
	}
	for k := len(m.path) - 1; k >= 0; k-- {
		nd := &t.nodes[m.path[k]]
		if u != nil {
			u.path = append(u.path, m.path[k])
			u.kt = append(u.kt, nd.logKT)
			u.w = append(u.w, nd.logW)
		}
		nd.logKT += ktFactor(nd.count, bit)
		nd.count[bit]++
		if k == m.depth {
			nd.logW = nd.logKT
			continue
		}
		children := 0.0
		for _, c := range nd.child {
			if c != 0 {
				children += t.nodes[c].logW
			}
		}
		nd.logW = weighted(nd.logKT, children)
	}
	m.history = append(m.history, byte(bit))
}

// appendAction adds an action's bits to the history; the trees do not
// predict them. With keep false revert takes them back.
func (m *model) appendAction(bits []byte, keep bool) {
	if !keep {
		u := m.push()
		u.arena, u.bit = -1, len(bits)
	}
	m.history = append(m.history, bits...)
}

func (m *model) push() *undo {
	var u undo
	if k := len(m.free); k > 0 {
		u = m.free[k-1]
		m.free = m.free[:k-1]
	}
	u.path, u.kt, u.w = u.path[:0], u.kt[:0], u.w[:0]
	m.undos = append(m.undos, u)
	return &m.undos[len(m.undos)-1]
}

// revertTo takes back the simulated updates until mark are left, the last
// first, restoring counts, logs, nodes and history exactly.
func (m *model) revertTo(mark int) {
	for len(m.undos) > mark {
		k := len(m.undos) - 1
		u := m.undos[k]
		m.undos = m.undos[:k]
		if u.arena < 0 { // an action
			m.history = m.history[:len(m.history)-u.bit]
		} else {
			m.history = m.history[:len(m.history)-1]
			t := m.trees[u.tree]
			for j, n := range u.path {
				nd := &t.nodes[n]
				nd.count[u.bit]--
				nd.logKT, nd.logW = u.kt[j], u.w[j]
			}
			if u.arena < len(t.nodes) {
				// The nodes created are the deepest of the path (which
				// runs from the leaf up): unlink the shallowest from its
				// parent, then drop them all.
				for j := len(u.path) - 1; j > 0; j-- {
					if int(u.path[j-1]) >= u.arena {
						p := &t.nodes[u.path[j]]
						for b, c := range p.child {
							if c == u.path[j-1] {
								p.child[b] = 0
							}
						}
						break
					}
				}
				t.nodes = t.nodes[:u.arena]
			}
		}
		m.free = append(m.free, u)
	}
}
