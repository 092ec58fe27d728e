package env

import "github.com/anynt/anynt/random"

// Agent is the evaluated agent π, behind one interface for every kind of
// agent (package agent).
type Agent interface {
	// Start begins an episode of e; rng is the agent's own random stream.
	Start(e *Env, rng *random.Rand)
	// Act chooses π's action, an index into Env.Actions.
	Act(v *View) int
	// End gives the reward of π's last action.
	End(reward float64)
}

// View is what an agent is given at each interaction: π's observation and
// the reward of its previous action. The privileged parts (where everything
// is, the cell rewards, where Good and Evil intend to go) are there for
// agents such as the thesis's oracle, which are allowed to cheat.
type View struct {
	ep     *Episode
	Reward float64 // of the previous action; 0 at the first
	obs    []byte
	built  bool
}

// Observation is π's observation ([P] §4.3), as codes of Env.Symbol. It is
// built when first asked for: an agent that does not look costs nothing.
// The slice is valid until the next interaction.
func (v *View) Observation() []byte {
	if !v.built {
		v.obs = v.ep.observe(v.obs[:0], v.ep.pos[Pi], true)
		v.built = true
	}
	return v.obs
}

// Text spells π's observation as the papers write it.
func (v *View) Text() string { return v.ep.env.Text(v.Observation()) }

// Cell is π's cell (from 0).
func (v *View) Cell() int { return v.ep.pos[Pi] }

// Dest is where each action leads from π's cell.
func (v *View) Dest() []int { return v.ep.env.Space.Dest[v.ep.pos[Pi]] }

// Positions gives the cell of π, ⊕, ⊖ and each object (privileged).
func (v *View) Positions() []int { return v.ep.pos }

// CellRewards gives the reward each cell holds now (privileged). The
// slice is valid until the next interaction.
func (v *View) CellRewards() []float64 {
	ep := v.ep
	ep.shownRewards = ep.shownRewards[:0]
	for c := range ep.cellReward {
		ep.shownRewards = append(ep.shownRewards, ep.rewardIn(c))
	}
	return ep.shownRewards
}

// Intended gives the cells Good and Evil will move to this interaction,
// before any collision between them is resolved (privileged).
func (v *View) Intended() (good, evil int) { return v.ep.intended[0], v.ep.intended[1] }

// Symbol names an observation code.
func (e *Env) Symbol(c byte) string { return e.symbols.names[c] }

// Text spells a string of observation codes.
func (e *Env) Text(codes []byte) string {
	var b []byte
	for _, c := range codes {
		b = append(b, e.symbols.names[c]...)
	}
	return string(b)
}
