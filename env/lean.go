package env

import (
	"fmt"

	"github.com/anynt/anynt/random"
)

// Lean is the form of an environment without behaviour programs (no
// objects, Good and Evil on a pattern, no reward levels) in which a
// LeanPlayer plays it: the actions' destinations, the pattern, the
// declared cells and the settings that change an episode.
type Lean struct {
	actions    int
	dest       []int // Space.Dest flat: dest[c*actions+a]
	pattern    []int
	place      [3]int // π, ⊕, ⊖; -1: drawn
	cycle      bool
	cycleBound int
	garbage    bool
	lambdaOne  bool
	value      float64 // Good's reward, Evil's its negation
}

// Lean returns e's lean form, or false when e has a behaviour program (an
// object, a Good/Evil program) or reward levels, which only an Episode
// plays.
func (e *Env) Lean() (*Lean, bool) {
	if len(e.Objects) > 0 || e.GoodEvil.Program != nil || len(e.GoodEvil.Pattern) == 0 ||
		len(e.Reward.Levels) > 0 || len(e.Place) != 3 {
		return nil, false
	}
	na := len(e.Actions)
	dest := make([]int, 0, na*e.Space.Cells())
	for _, row := range e.Space.Dest {
		if len(row) != na {
			return nil, false
		}
		dest = append(dest, row...)
	}
	st := e.Settings
	return &Lean{
		actions:    na,
		dest:       dest,
		pattern:    e.GoodEvil.Pattern,
		place:      [3]int{e.Place[Pi], e.Place[Good], e.Place[Evil]},
		cycle:      st.Cycle,
		cycleBound: st.CycleBound,
		garbage:    st.Garbage,
		lambdaOne:  st.Rewards == LambdaOneRewards,
		value:      e.Reward.Value,
	}, true
}

// WithPattern is l with Good and Evil on pattern instead, a non-empty
// sequence of l's actions (indices into Env.Actions): the lean form of an
// environment that differs from l's only in its pattern, without loading
// it. It returns an error, and no form, for a pattern that is not one.
func (l *Lean) WithPattern(pattern []int) (*Lean, error) {
	if len(pattern) == 0 {
		return nil, fmt.Errorf("a Good/Evil pattern has at least one action")
	}
	for _, a := range pattern {
		if a < 0 || a >= l.actions {
			return nil, fmt.Errorf("the pattern's action %d is out of range: there are %d actions", a, l.actions)
		}
	}
	c := *l
	c.pattern = pattern
	return &c, nil
}

// LeanPlayer plays lean episodes one after another, reseeding its streams
// and reusing its buffers: an episode allocates nothing. It plays the
// agent's rule itself (rules.go): its loop is Episode's interaction
// (begin, then finish) with the state in local variables, every cell's
// reward held as it is now and halved at the end of each interaction, and
// the agent's choice a few loads; it draws from the same streams, in the
// same order, through the same step functions (place, drawInterval,
// separate) as an Episode, so that a score is an Episode's, bit for bit.
// A LeanPlayer is not safe for concurrent use.
type LeanPlayer struct {
	l *Lean
	// The environment's, the agent's and the garbage phase's streams,
	// reseeded each episode.
	envRng, agentRng, garbageRng random.Rand
	cell                         []float64 // each cell's reward
}

// NewLeanPlayer returns a LeanPlayer ready for episodes of l.
func NewLeanPlayer(l *Lean) *LeanPlayer {
	p := &LeanPlayer{}
	p.Reset(l)
	return p
}

// Reset readies p for episodes of l, keeping its buffers.
func (p *LeanPlayer) Reset(l *Lean) {
	p.l = l
	n := len(l.dest) / l.actions
	if cap(p.cell) < n {
		p.cell = make([]float64, n)
	}
	p.cell = p.cell[:n]
}

// Episode plays an episode of steps scored interactions of an agent that
// acts by rule r with seed, and returns its score, as
// NewEpisode(e, agent, seed).Run(steps, nil) returns it. r must not be
// NoRule.
func (p *LeanPlayer) Episode(r Rule, seed uint64, steps int) float64 {
	if r == NoRule {
		panic("env: a LeanPlayer plays an agent's rule, and NoRule is none")
	}
	l, cell := p.l, p.cell
	na, dest, pattern, value := l.actions, l.dest, l.pattern, l.value
	cycle, cycleBound, lambdaOne := l.cycle, l.cycleBound, l.lambdaOne
	// With two cells, Good and Evil hold both (never one), so the next
	// interaction's begin writes every cell before anything reads it:
	// π's zero and the halving at the end of an interaction would be
	// overwritten unread, and are skipped.
	halve := len(cell) > 2
	p.envRng.Seed(seed, EnvironmentStream)
	p.agentRng.Seed(seed, AgentStream)
	clear(cell)
	var pos [3]int
	place(pos[:], l.place[:], len(cell), &p.envRng)
	pi, good, evil := pos[Pi], pos[Good], pos[Evil]
	untilSwap := drawInterval(&p.envRng, cycleBound)
	garbage := 0
	if l.garbage {
		p.garbageRng.Seed(seed, GarbageStream)
		garbage = drawInterval(&p.envRng, cycleBound)
	}
	next, total := 0, 0.0
	for i := -garbage; i < steps; i++ {
		// begin: the swap, the trace rewards, where Good and Evil go.
		if cycle {
			if untilSwap--; untilSwap == 0 {
				good, evil = evil, good
				untilSwap = drawInterval(&p.envRng, cycleBound)
			}
		}
		if !lambdaOne {
			// Good and Evil leave their rewards, but not in π's cell,
			// which holds 0 (π ate it): write, then put π's 0 back,
			// without a branch on where π is.
			cell[good], cell[evil], cell[pi] = value, -value, 0
		}
		pa := pattern[next]
		g, v := dest[good*na+pa], dest[evil*na+pa]
		// π's action: the garbage phase's random agent's, or the rule's.
		row := dest[pi*na : pi*na+na]
		var a int
		switch {
		case i < 0:
			a = RandomAction(&p.garbageRng, row)
		case r == FollowerRule:
			a = FollowAction(&p.agentRng, row, good, evil)
		case r == OracleRule && lambdaOne:
			a = FollowAction(&p.agentRng, row, g, v)
		case r == OracleRule:
			a = GreedyAction(&p.agentRng, row, cell)
		default:
			a = RandomAction(&p.agentRng, row)
		}
		// finish: the moves, Good and Evil never into one cell, then
		// the rewards.
		pi = row[a]
		if g == v {
			g, v = separate(g, good, evil, &p.envRng)
		}
		good0, evil0 := good, evil
		good, evil = g, v
		if next++; next == len(pattern) {
			next = 0
		}
		var reward float64
		if lambdaOne {
			cell[good0], cell[evil0] = 0, 0 // no other cell holds a reward
			cell[good], cell[evil] = value, -value
			reward = cell[pi]
		} else if reward = cell[pi]; halve { // π eats it, then every cell's halves
			cell[pi] = 0
			for c := range cell {
				cell[c] /= 2
			}
		}
		if i >= 0 {
			total += reward
		}
	}
	if steps == 0 {
		return 0
	}
	return total / float64(steps)
}
