package env

import "github.com/anynt/anynt/random"

// The rules of the agents that act on where things are and what the cells
// hold, not on what they observe: the random agent, the thesis's follower
// and its oracle. Package agent's Random, Follower and Oracle act by them,
// the start-up garbage phase by RandomAction, and a LeanPlayer plays them
// without an agent (lean.go); so each rule is written once, here rather
// than in package agent, which imports env. Each draws from the stream it
// is given, only when it must choose at random, and always as it did, so
// that a seed keeps its trajectories.

// Rule names one of the rules a LeanPlayer plays itself.
type Rule int

const (
	// NoRule is an agent that does not act by one of these rules: it
	// plays through an Episode.
	NoRule Rule = iota
	// RandomRule is RandomAction (package agent's Random).
	RandomRule
	// FollowerRule is FollowAction towards where Good is and away from
	// where Evil is (package agent's Follower).
	FollowerRule
	// OracleRule is, with Λ_one rewards, FollowAction towards where Good
	// and away from where Evil intend to go (a cell pays 1, −1 or 0 then,
	// and Good's is the only one that pays 1); with trace rewards,
	// GreedyAction on the rewards the cells hold (package agent's Oracle).
	OracleRule
)

// RandomAction draws one of the actions uniformly, the stay action
// included; dest is where each leads from π's cell.
func RandomAction(rng *random.Rand, dest []int) int { return rng.IntN(len(dest)) }

// FollowAction is the action leading to cell good (the first one) when
// one does; otherwise one drawn uniformly among those that do not lead to
// cell evil, or among all when every one does. dest is where each action
// leads from π's cell.
func FollowAction(rng *random.Rand, dest []int, good, evil int) int {
	safe := 0
	for a, d := range dest {
		if d == good {
			return a
		}
		if d != evil {
			safe++
		}
	}
	if safe == 0 {
		return rng.IntN(len(dest))
	}
	// The k-th safe action, counted in one pass and found in another,
	// without a list of them.
	for a, k := 0, rng.IntN(safe); ; a++ {
		if dest[a] != evil {
			if k == 0 {
				return a
			}
			k--
		}
	}
}

// GreedyAction draws one of the actions whose cell holds the most reward
// (rewards, by cell), uniformly; dest is where each action leads from π's
// cell. It looks one step ahead: the reward of a cell is eaten after the
// moves, as it is now.
func GreedyAction(rng *random.Rand, dest []int, rewards []float64) int {
	best, ties, first := rewards[dest[0]], 1, 0
	for a, d := range dest[1:] {
		switch x := rewards[d]; {
		case x > best:
			best, ties, first = x, 1, a+1
		case x == best:
			ties++
		}
	}
	k := rng.IntN(ties)
	if k == 0 { // the first of the best, found already
		return first
	}
	for a := first + 1; ; a++ {
		if rewards[dest[a]] == best {
			if k--; k == 0 {
				return a
			}
		}
	}
}
