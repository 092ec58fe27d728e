package aixi

import "math"

// node is a node of a context tree: the counts of the zeros and ones seen
// in its context and, at a node above depth D, logBeta, the log of
// β = P_kt / (P_w(child 0) · P_w(child 1)), the ratio of its KT
// probability to its children's weighted probability (Willems, Shtarkov
// and Tjalkens 1995). β is all a node needs to mix its KT estimate with
// its children's prediction, and it changes by one factor per update, so a
// prediction costs one exponential per node and an update one logarithm,
// instead of the log-sum-exp of P_w at every node. Children are indices
// into the tree's arena; 0 means none (index 0 is the root, nobody's
// child). A node never created saw nothing: counts 0, β = 1.
type node struct {
	count   [2]uint32
	logBeta float64
	child   [2]int32
}

// tree is one context tree of depth D: the nodes live in an arena, so that
// the nodes a simulated update creates are dropped by truncating it.
// logP is the log of the weighted probability P_w of all the bits the tree
// has predicted (its root's).
type tree struct {
	nodes []node
	logP  float64
}

func newTree() *tree { return &tree{nodes: make([]node, 1, 64)} }

// kt is the KT estimator's probability of the next bit being x after
// count[0] zeros and count[1] ones: (count[x] + ½) / (count[0] + count[1] + 1).
func kt(c [2]uint32, x int) float64 {
	return (float64(c[x]) + 0.5) / (float64(c[0]) + float64(c[1]) + 1)
}

// undo is what one update changed, so that revert restores the tree bit
// for bit: the arena's length before it (the nodes it created are
// dropped), the tree's logP, and the old logBeta of the nodes on its path.
type undo struct {
	arena int // -1 for an action's bits
	bit   int // the bit taught, or the number of action bits
	tree  int
	logP  float64
	path  []int32
	beta  []float64
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
	// path holds the nodes from the root down the current context as far
	// as they exist, and p1 the probability each gives the next bit being
	// 1 (prob1 fills both; update reuses them while cached says they are
	// for this tree and history).
	path   []int32
	p1     []float64
	cached struct {
		valid   bool
		tree    int
		history int
	}
	// undos is the stack of simulated updates not yet reverted.
	undos []undo
	free  []undo // reverted frames, their slices reused
}

func newModel(depth, perceptBits int) *model {
	m := &model{depth: depth, trees: make([]*tree, perceptBits),
		path: make([]int32, 0, depth+1), p1: make([]float64, depth+1)}
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

// prob1 is the probability tree i gives the next bit being 1: P_w(h·1) /
// P_w(h). From the leaf up, a node's prediction mixes its KT estimate and
// its child's prediction with weights β/(1+β) and 1/(1+β); a node never
// created predicts ½, as its KT does. Nothing changes but the cache.
func (m *model) prob1(i int) float64 {
	t := m.trees[i]
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
	p := 0.5
	for k := len(m.path) - 1; k >= 0; k-- {
		nd := &t.nodes[m.path[k]]
		if k == m.depth {
			p = kt(nd.count, 1)
		} else {
			w := 1 / (1 + math.Exp(-nd.logBeta))
			p = w*kt(nd.count, 1) + (1-w)*p
		}
		m.p1[k] = p
	}
	m.cached.valid, m.cached.tree, m.cached.history = true, i, len(m.history)
	return p
}

// update teaches tree i the next bit of the percept and appends it to the
// history; with keep false it records what it changed for revert.
func (m *model) update(i, bit int, keep bool) {
	if !m.cached.valid || m.cached.tree != i || m.cached.history != len(m.history) {
		m.prob1(i)
	}
	m.cached.valid = false
	t := m.trees[i]
	var u *undo
	if !keep {
		u = m.push()
		u.arena, u.bit, u.tree, u.logP = len(t.nodes), bit, i, t.logP
	}
	// The prediction of the bit at each depth; below the existing path ½.
	existing := len(m.path)
	pred := func(k int) float64 {
		if k >= existing {
			return 0.5
		}
		if bit == 1 {
			return m.p1[k]
		}
		return 1 - m.p1[k]
	}
	n := m.path[existing-1]
	for d := existing; d <= m.depth; d++ {
		b := m.contextBit(d)
		c := int32(len(t.nodes))
		t.nodes = append(t.nodes, node{})
		t.nodes[n].child[b] = c
		n = c
		m.path = append(m.path, n)
	}
	for k := m.depth; k >= 0; k-- {
		nd := &t.nodes[m.path[k]]
		if u != nil {
			u.path = append(u.path, m.path[k])
			u.beta = append(u.beta, nd.logBeta)
		}
		if k < m.depth {
			// β' = β · kt(x) / P_w(x | child), the child on the path
			// being the only one whose P_w changes.
			nd.logBeta += math.Log(kt(nd.count, bit) / pred(k+1))
		}
		nd.count[bit]++
	}
	t.logP += math.Log(pred(0))
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
	u.path, u.beta = u.path[:0], u.beta[:0]
	m.undos = append(m.undos, u)
	return &m.undos[len(m.undos)-1]
}

// revertTo takes back the simulated updates until mark are left, the last
// first, restoring counts, logs, nodes and history exactly.
func (m *model) revertTo(mark int) {
	m.cached.valid = false
	for len(m.undos) > mark {
		k := len(m.undos) - 1
		u := m.undos[k]
		m.undos = m.undos[:k]
		if u.arena < 0 { // an action
			m.history = m.history[:len(m.history)-u.bit]
		} else {
			m.history = m.history[:len(m.history)-1]
			t := m.trees[u.tree]
			t.logP = u.logP
			for j, n := range u.path {
				nd := &t.nodes[n]
				nd.count[u.bit]--
				nd.logBeta = u.beta[j]
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
