package env

import (
	"fmt"

	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/vm"
)

// Trying one behaviour by hand (anynt try): the observation an object
// would see with everything in given cells, built by the machine's own
// observe, and what the machine would make of a run's output, by its own
// decision. A researcher checks a rule against exactly what the
// environment shows, markers and ⊙ in place, without playing an episode.

// Observe returns the observation that who (Pi, Good, Evil, or 3+i for
// object i) is given when π, ⊕, ⊖ and the objects stand in the cells of
// pos (in that order, cells from 0), as the episode writes it ([P] §4.3):
// π sees ⊕ and ⊖, every other object sees both as ⊙. It is in the codes of
// the behaviours' programs (Program.Text prints it). pos must place
// everything in a cell of the space, Good and Evil apart, as an episode
// does.
func (e *Env) Observe(pos []int, who int) ([]byte, error) {
	if len(pos) != 3+len(e.Objects) {
		return nil, fmt.Errorf("%d cells given for %d objects (π, ⊕, ⊖ and %d ω)", len(pos), 3+len(e.Objects), len(e.Objects))
	}
	if who < 0 || who >= len(pos) {
		return nil, fmt.Errorf("no object %d to observe from", who)
	}
	n := e.Space.Cells()
	for i, c := range pos {
		if c < 0 || c >= n {
			return nil, fmt.Errorf("%s is in cell %d; the space has cells 1 to %d", e.ObjectName(i), c+1, n)
		}
	}
	if pos[Good] == pos[Evil] {
		return nil, fmt.Errorf("⊕ and ⊖ are both in cell %d; Good and Evil never share a cell", pos[Good]+1)
	}
	ep := &Episode{env: e, pos: pos, cellReward: make([]float64, n)}
	return ep.observe(nil, pos[who], who == Pi), nil
}

// ObjectName is the symbol of the object at index i of a placement: π, ⊕,
// ⊖, then the objects' names.
func (e *Env) ObjectName(i int) string {
	switch i {
	case Pi:
		return "π"
	case Good:
		return "⊕"
	case Evil:
		return "⊖"
	}
	return e.Objects[i-3].Name
}

// Program is the behaviour program of who (Good and Evil share one), nil
// for π and for Good and Evil on a pattern.
func (e *Env) Program(who int) *vm.Program {
	switch {
	case who == Good, who == Evil:
		return e.GoodEvil.Program
	case who >= 3 && who < 3+len(e.Objects):
		return e.Objects[who-3].Program
	}
	return nil
}

// RunOptions are the bounds every run of a behaviour has (set max-steps,
// max-len, max-work), matching rightmost.
func (e *Env) RunOptions() vm.Options {
	return vm.Options{MaxSteps: e.Settings.MaxSteps, MaxLen: e.Settings.MaxLen, MaxWork: e.Settings.MaxWork}
}

// Decision is what the machine makes of the output of one run.
type Decision struct {
	// Actions are the actions the output holds, in order: every symbol
	// that is not an action is dropped ([P] §4.3).
	Actions []int
	// Action is an object's move, the rightmost of Actions, or the stay
	// action (0) when there is none. For Good and Evil, who follow every
	// action, it is -1.
	Action int
	// Dest is the cell the behaviour intends to reach from its cell.
	Dest int
	// Level is the reward level (index of ρk) Good or Evil chose last in
	// this output, or -1.
	Level int
}

// Decide reads the output of who's run from cell from as an episode reads
// it: an object takes the rightmost action, Good and Evil follow them all.
func (e *Env) Decide(who, from int, out []byte) Decision {
	goodEvil := who == Good || who == Evil
	ep := &Episode{env: e}
	d := ep.decision(&behaviourRunner{goodEvil: goodEvil}, from, out)
	res := Decision{Action: -1, Dest: d.result, Level: d.level}
	if !goodEvil {
		res.Action, res.Dest = d.result, e.Space.Dest[from][d.result]
	}
	for _, c := range out {
		if a := e.symbols.actionOf(c); a >= 0 {
			res.Actions = append(res.Actions, a)
		}
	}
	return res
}

// PlaceRest completes a placement as an episode of seed places objects at
// its start: the cells of declared (π, ⊕, ⊖, the objects; -1 where none is
// given) are kept, the others drawn uniformly from the environment's
// stream, Evil never in Good's cell.
func (e *Env) PlaceRest(declared []int, seed uint64) []int {
	pos := make([]int, len(declared))
	place(pos, declared, e.Space.Cells(), random.New(seed, EnvironmentStream))
	return pos
}
