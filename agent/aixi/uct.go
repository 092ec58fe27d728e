package aixi

import (
	"math"

	"github.com/anynt/anynt/random"
)

// decision is a node of the ρUCT search tree where the agent chooses: a
// history ending in a percept. UCB reads its visits and its children's
// values; its own value is never read, so it keeps none.
type decision struct {
	visits  int
	actions []*chance // by action; nil until tried
}

// chance is a node where the model chooses: a history ending in an
// action. Its children are the decision nodes of the percepts sampled
// after it, by their bits.
type chance struct {
	visits   int
	value    float64
	percepts map[string]*decision
}

// planner runs ρUCT (Veness et al. 2011, §4): simulations from the
// current history, each sampling percepts from the model (which it
// updates as it goes and reverts after), choosing actions by UCB in the
// tree and at random beyond it, to the horizon.
type planner struct {
	a    *Agent
	rng  *random.Rand
	tied []int
}

// plan runs the simulations from the model's current history and returns
// the action of the highest mean value (ties broken at random).
func (p *planner) plan() int {
	root := p.search()
	p.tied = p.tied[:0]
	best := math.Inf(-1)
	for act, c := range root.actions {
		if c == nil {
			continue
		}
		switch {
		case c.value > best:
			best, p.tied = c.value, append(p.tied[:0], act)
		case c.value == best:
			p.tied = append(p.tied, act)
		}
	}
	return p.tied[p.rng.IntN(len(p.tied))]
}

// search runs the simulations from the model's current history and
// returns the search tree's root. The root is expanded before the first:
// each simulation goes through one of its actions, so that all of them
// inform the choice (the paper's ρUCT keeps the tree from action to
// action, so its root has been visited; built afresh, a root valued by a
// rollout first would waste that simulation, and with one simulation
// leave no action tried).
func (p *planner) search() *decision {
	a := p.a
	root := &decision{actions: make([]*chance, a.actions)}
	for range a.settings.Simulations {
		p.sampleDecision(root, a.settings.Horizon)
		a.model.revertTo(0)
	}
	return root
}

// sampleDecision simulates from a decision node with m steps to go and
// returns the rewards summed: a node never visited (its actions nil) is
// valued by a rollout, as the paper's ρUCT does.
func (p *planner) sampleDecision(d *decision, m int) float64 {
	if m == 0 {
		return 0
	}
	var r float64
	if d.actions == nil { // a leaf: never visited, and not the root
		r = p.rollout(m)
	} else {
		act := p.selectAction(d, m)
		c := d.actions[act]
		if c == nil {
			c = &chance{percepts: map[string]*decision{}}
			d.actions[act] = c
		}
		p.a.model.appendAction(p.a.actionBits(act), false)
		r = p.sampleChance(c, m)
	}
	if d.actions == nil {
		d.actions = make([]*chance, p.a.actions)
	}
	d.visits++
	return r
}

// sampleChance samples a percept from the model after the chance node's
// action and goes on from its decision node.
func (p *planner) sampleChance(c *chance, m int) float64 {
	bits, reward := p.a.samplePercept(p.rng)
	next := c.percepts[string(bits)]
	if next == nil {
		next = &decision{}
		c.percepts[string(bits)] = next
	}
	r := reward + p.sampleDecision(next, m-1)
	c.value += (r - c.value) / float64(c.visits+1)
	c.visits++
	return r
}

// selectAction is UCB at a visited decision node: an action never tried
// first (at random among them), else the one maximising its mean value,
// normalised to [0, 1] over the m steps to go, plus C √(ln N / n).
func (p *planner) selectAction(d *decision, m int) int {
	p.tied = p.tied[:0]
	for act, c := range d.actions {
		if c == nil {
			p.tied = append(p.tied, act)
		}
	}
	if len(p.tied) > 0 {
		return p.tied[p.rng.IntN(len(p.tied))]
	}
	best := math.Inf(-1)
	logN := math.Log(float64(d.visits))
	for act, c := range d.actions {
		// Rewards are in [−1, 1], so a sum over m steps is in [−m, m].
		u := (c.value+float64(m))/(2*float64(m)) + p.a.settings.Exploration*math.Sqrt(logN/float64(c.visits))
		switch {
		case u > best:
			best, p.tied = u, append(p.tied[:0], act)
		case u == best:
			p.tied = append(p.tied, act)
		}
	}
	return p.tied[p.rng.IntN(len(p.tied))]
}

// rollout plays m steps of uniformly random actions against the model's
// samples and returns the rewards summed.
func (p *planner) rollout(m int) float64 {
	sum := 0.0
	for range m {
		p.a.model.appendAction(p.a.actionBits(p.rng.IntN(p.a.actions)), false)
		_, r := p.a.samplePercept(p.rng)
		sum += r
	}
	return sum
}
