package generate

import (
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/anynt/anynt/env"
)

// The lean episodes (docs/generation.md, "Throughput"): an environment
// with no behaviour program (no objects, Good and Evil on a pattern), the
// whole enumerated family, played by one of the filters' built-in agents
// (random, the oracle, the follower) needs none of env's machine: no
// observation, no VM, no memo, and the agent's choice is a few loads. A
// leanPlayer plays such an episode with the agent written into its loop,
// the same draws from the same streams in the same order as env.Episode
// and package agent, so that every score is the same float64 bit for bit
// (TestLeanEpisodes, TestLeanFilters and FuzzLeanFilters compare them
// with env's on enumerated candidates with every setting a file may
// change, the corpus's pattern environments and many seeds); any other
// environment or agent plays through env.Player. A change to env's
// interaction loop, its streams or the built-in agents must be made here
// too: those tests fail until it is.

// leanAgent is a built-in agent the lean loop plays.
type leanAgent int

const (
	leanNone leanAgent = iota // not one: play through env
	leanRandom
	leanFollower
	leanOracle
)

// leanAgentOf is the lean agent of a filter agent's name.
func leanAgentOf(name string) leanAgent {
	switch name {
	case "random":
		return leanRandom
	case "follower":
		return leanFollower
	case "oracle":
		return leanOracle
	}
	return leanNone
}

// leanEnv is what the lean loop needs of an environment.
type leanEnv struct {
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

// leanEnvOf is e's lean form, or false when e has a behaviour program
// (objects, a Good/Evil program) or reward levels, which need env.
func leanEnvOf(e *env.Env) (*leanEnv, bool) {
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
	return &leanEnv{
		actions:    na,
		dest:       dest,
		pattern:    e.GoodEvil.Pattern,
		place:      [3]int{e.Place[env.Pi], e.Place[env.Good], e.Place[env.Evil]},
		cycle:      st.Cycle,
		cycleBound: st.CycleBound,
		garbage:    st.Garbage,
		lambdaOne:  st.Rewards == env.LambdaOneRewards,
		value:      e.Reward.Value,
	}, true
}

// leanPlayer plays lean episodes one after another, reseeding its streams
// and reusing its buffers: an episode allocates nothing.
type leanPlayer struct {
	e                         *leanEnv
	envRng, agentRng, garbage rand.PCG
	cell                      []float64 // each cell's reward
	choices                   []int     // the follower's safe actions, the oracle's best
}

func newLeanPlayer(e *leanEnv) *leanPlayer {
	p := &leanPlayer{}
	p.setEnv(e)
	return p
}

// setEnv readies p for episodes of e.
func (p *leanPlayer) setEnv(e *leanEnv) {
	p.e = e
	n := len(e.dest) / e.actions
	if cap(p.cell) < n {
		p.cell = make([]float64, n)
	}
	p.cell = p.cell[:n]
}

// leanPlayers keeps leanPlayers from candidate to candidate: a candidate's
// runs take one a worker and give it back.
var leanPlayers sync.Pool

// getLeanPlayer is a leanPlayer of the pool, readied for e.
func getLeanPlayer(e *leanEnv) *leanPlayer {
	if p, ok := leanPlayers.Get().(*leanPlayer); ok {
		p.setEnv(e)
		return p
	}
	return newLeanPlayer(e)
}

// intN is rand.New(src).IntN(n) (math/rand/v2's uint64n on a 64-bit
// machine) without the interface call: the same draws, the same result
// (TestIntN compares them).
func intN(src *rand.PCG, n int) int {
	un := uint64(n)
	if un&(un-1) == 0 {
		return int(src.Uint64() & (un - 1))
	}
	hi, lo := bits.Mul64(src.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(src.Uint64(), un)
		}
	}
	return int(hi)
}

// episode plays an episode of steps scored interactions of agent kind with
// seed and returns its score, as env.Player.Episode(agent, seed).Run(steps,
// nil) does: the start-up garbage phase and the scored interactions are
// one loop, the interaction of env.Episode's begin and finish with the
// state in local variables.
func (p *leanPlayer) episode(kind leanAgent, seed uint64, steps int) float64 {
	e, cell := p.e, p.cell
	na, dest, pattern, value := e.actions, e.dest, e.pattern, e.value
	cycle, cycleBound, lambdaOne := e.cycle, e.cycleBound, e.lambdaOne
	// With two cells, Good and Evil hold both (never one), so the next
	// interaction's begin writes every cell before anything reads it:
	// π's zero and the halving at the end of an interaction would be
	// overwritten unread, and are skipped.
	halve := len(cell) > 2
	p.envRng.Seed(seed, env.EnvironmentStream)
	p.agentRng.Seed(seed, env.AgentStream)
	clear(cell)
	pi, good, evil := p.place()
	untilSwap := 1 + intN(&p.envRng, e.cycleBound)
	garbage := 0
	if e.garbage {
		p.garbage.Seed(seed, env.GarbageStream)
		garbage = 1 + intN(&p.envRng, e.cycleBound)
	}
	next, total := 0, 0.0
	for i := -garbage; i < steps; i++ {
		// begin: the swap, the trace rewards, where Good and Evil go.
		if cycle {
			if untilSwap--; untilSwap == 0 {
				good, evil = evil, good
				untilSwap = 1 + intN(&p.envRng, cycleBound)
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
		// π's action: the garbage phase's random agent, or the agent's.
		row := dest[pi*na : pi*na+na]
		var a int
		switch {
		case i < 0:
			a = intN(&p.garbage, na)
		case kind == leanFollower:
			a = p.follow(row, good, evil)
		case kind == leanOracle && !lambdaOne:
			a = p.oracleTrace(row)
		case kind == leanOracle:
			a = p.oracleLambdaOne(row, g, v)
		default:
			a = intN(&p.agentRng, na)
		}
		// finish: the moves, Good and Evil never into one cell, then
		// the rewards.
		pi = row[a]
		if g == v {
			switch {
			case g == good:
				v = evil
			case v == evil:
				g = good
			case intN(&p.envRng, 2) == 0:
				v = evil
			default:
				g = good
			}
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

// place is env.Episode's: declared cells, or uniform draws, and Evil
// never in Good's cell.
func (p *leanPlayer) place() (pi, good, evil int) {
	n := len(p.cell)
	var pos [3]int
	for i, c := range p.e.place {
		if c < 0 {
			c = intN(&p.envRng, n)
		}
		pos[i] = c
	}
	if pos[env.Good] == pos[env.Evil] {
		c := intN(&p.envRng, n-1)
		if c >= pos[env.Good] {
			c++
		}
		if p.e.place[env.Evil] >= 0 {
			pos[env.Good] = c
		} else {
			pos[env.Evil] = c
		}
	}
	return pos[env.Pi], pos[env.Good], pos[env.Evil]
}

// follow is agent.Follower's Act: to Good's cell if it is one step away,
// else a random step that avoids Evil's cell when one does.
func (p *leanPlayer) follow(dest []int, good, evil int) int {
	for a, d := range dest {
		if d == good {
			return a
		}
	}
	safe := p.choices[:0]
	for a, d := range dest {
		if d != evil {
			safe = append(safe, a)
		}
	}
	p.choices = safe
	if len(safe) == 0 {
		return intN(&p.agentRng, len(dest))
	}
	return safe[intN(&p.agentRng, len(safe))]
}

// oracleTrace is agent.Oracle's Act with trace rewards: a random one of
// the actions whose cell holds the most, counted in one pass and picked in
// another (the same draw as the agent's list of the best).
func (p *leanPlayer) oracleTrace(dest []int) int {
	cell := p.cell
	best, ties, first := cell[dest[0]], 1, 0
	for a, d := range dest[1:] {
		switch x := cell[d]; {
		case x > best:
			best, ties, first = x, 1, a+1
		case x == best:
			ties++
		}
	}
	k := intN(&p.agentRng, ties)
	a := first
	for ; ; a++ {
		if cell[dest[a]] == best {
			if k == 0 {
				break
			}
			k--
		}
	}
	return a
}

// oracleLambdaOne is agent.Oracle's Act with Λ_one rewards: to Good's
// intended cell if it is one step away, else a random one of the actions
// whose cell pays most (0 beats Evil's −1).
func (p *leanPlayer) oracleLambdaOne(dest []int, good, evil int) int {
	for a, d := range dest {
		if d == good {
			return a
		}
	}
	best := p.choices[:0]
	bestValue := 0.0
	for a, d := range dest {
		val := 0.0
		if d == evil {
			val = -1
		}
		switch {
		case len(best) == 0 || val > bestValue:
			best, bestValue = append(best[:0], a), val
		case val == bestValue:
			best = append(best, a)
		}
	}
	p.choices = best
	return best[intN(&p.agentRng, len(best))]
}
