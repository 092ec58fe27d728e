package generate

import (
	"math/rand/v2"

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
// (TestLeanEpisodes and FuzzLeanEpisodes compare them on enumerated
// candidates, the corpus's pattern environments and many seeds); any
// other environment or agent plays through env.Player.

// The streams env.NewEpisode derives from an episode's seed (machine.go):
// the environment's, the agent's and the garbage phase's random agent's.
const (
	envStream     = 0x5eed_e11e
	agentStream   = 0xa6e7
	garbageStream = 0x6a7ba6e
)

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
	dest       [][]int // Space.Dest
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
	st := e.Settings
	return &leanEnv{
		dest:       e.Space.Dest,
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
	e                    *leanEnv
	envSrc, agentSrc     rand.PCG
	garbageSrc           rand.PCG
	envRng, agentRng     *rand.Rand
	garbageRng           *rand.Rand
	pi, good, evil       int
	next                 int // the pattern's next action
	untilSwap            int
	cell                 []float64 // each cell's reward
	choices              []int     // the follower's safe actions, the oracle's best
	intendGood, intendEv int
}

func newLeanPlayer(e *leanEnv) *leanPlayer {
	p := &leanPlayer{e: e, cell: make([]float64, len(e.dest))}
	p.envRng, p.agentRng, p.garbageRng = rand.New(&p.envSrc), rand.New(&p.agentSrc), rand.New(&p.garbageSrc)
	return p
}

// episode plays an episode of steps scored interactions of agent a with
// seed and returns its score, as env.Player.Episode(agent, seed).Run(steps,
// nil) does.
func (p *leanPlayer) episode(a leanAgent, seed uint64, steps int) float64 {
	e := p.e
	p.envSrc.Seed(seed, envStream)
	p.agentSrc.Seed(seed, agentStream)
	clear(p.cell)
	p.next = 0
	p.place()
	p.untilSwap = p.drawInterval()
	if e.garbage {
		p.garbageSrc.Seed(seed, garbageStream)
		for range p.drawInterval() {
			p.begin()
			p.finish(p.garbageRng.IntN(len(e.dest[p.pi])))
		}
	}
	total := 0.0
	for range steps {
		p.begin()
		total += p.finish(p.act(a))
	}
	if steps == 0 {
		return 0
	}
	return total / float64(steps)
}

// place is env.Episode's: declared cells, or uniform draws, and Evil
// never in Good's cell.
func (p *leanPlayer) place() {
	n := len(p.e.dest)
	pos := [3]int{}
	for i, c := range p.e.place {
		if c < 0 {
			c = p.envRng.IntN(n)
		}
		pos[i] = c
	}
	if pos[env.Good] == pos[env.Evil] {
		c := p.envRng.IntN(n - 1)
		if c >= pos[env.Good] {
			c++
		}
		if p.e.place[env.Evil] >= 0 {
			pos[env.Good] = c
		} else {
			pos[env.Evil] = c
		}
	}
	p.pi, p.good, p.evil = pos[env.Pi], pos[env.Good], pos[env.Evil]
}

func (p *leanPlayer) drawInterval() int { return 1 + p.envRng.IntN(p.e.cycleBound) }

// begin is env.Episode's begin for a pattern: the swap, the trace rewards
// and where Good and Evil intend to go.
func (p *leanPlayer) begin() {
	e := p.e
	if e.cycle {
		if p.untilSwap--; p.untilSwap == 0 {
			p.good, p.evil = p.evil, p.good
			p.untilSwap = p.drawInterval()
		}
	}
	if !e.lambdaOne {
		if p.good != p.pi {
			p.cell[p.good] = e.value
		}
		if p.evil != p.pi {
			p.cell[p.evil] = -e.value
		}
	}
	a := e.pattern[p.next]
	p.intendGood, p.intendEv = e.dest[p.good][a], e.dest[p.evil][a]
}

// finish is env.Episode's finish: π moves by action a, Good and Evil to
// their intended cells (never into one), then the rewards.
func (p *leanPlayer) finish(a int) float64 {
	e := p.e
	p.pi = e.dest[p.pi][a]
	g, v := p.intendGood, p.intendEv
	if g == v {
		switch {
		case g == p.good:
			v = p.evil
		case v == p.evil:
			g = p.good
		case p.envRng.IntN(2) == 0:
			v = p.evil
		default:
			g = p.good
		}
	}
	p.good, p.evil = g, v
	if p.next++; p.next == len(e.pattern) {
		p.next = 0
	}
	cell := p.cell
	if e.lambdaOne {
		clear(cell)
		cell[p.good] = e.value
		cell[p.evil] = -e.value
		return cell[p.pi]
	}
	reward := cell[p.pi]
	cell[p.pi] = 0
	for c := range cell {
		cell[c] /= 2
	}
	return reward
}

// act is the agent's choice (package agent's Random, Follower and Oracle).
func (p *leanPlayer) act(a leanAgent) int {
	dest := p.e.dest[p.pi]
	switch a {
	case leanFollower:
		return p.follow(dest)
	case leanOracle:
		return p.oracle(dest)
	}
	return p.agentRng.IntN(len(dest))
}

// follow is agent.Follower's Act: to Good's cell if it is one step away,
// else a random step that avoids Evil's cell when one does.
func (p *leanPlayer) follow(dest []int) int {
	for a, d := range dest {
		if d == p.good {
			return a
		}
	}
	safe := p.choices[:0]
	for a, d := range dest {
		if d != p.evil {
			safe = append(safe, a)
		}
	}
	p.choices = safe
	if len(safe) == 0 {
		return p.agentRng.IntN(len(dest))
	}
	return safe[p.agentRng.IntN(len(safe))]
}

// oracle is agent.Oracle's Act: the action whose cell pays most now, a
// random one of the best.
func (p *leanPlayer) oracle(dest []int) int {
	e := p.e
	good, evil := p.intendGood, p.intendEv
	if e.lambdaOne {
		for a, d := range dest {
			if d == good {
				return a
			}
		}
	}
	best := p.choices[:0]
	bestValue := 0.0
	for a, d := range dest {
		var val float64
		switch {
		case !e.lambdaOne:
			val = p.cell[d]
		case d == good:
			val = 1
		case d == evil:
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
	return best[p.agentRng.IntN(len(best))]
}
