package env

// The accessors below describe a loaded environment to packages that must
// not import env: complexity charges an environment through them
// (complexity.Loaded), so that defining a quantity never links the machine
// that runs one.

// Arrows is the space's arrow table: Arrows()[cell][action] is the cell
// the action leads to.
func (s *Space) Arrows() [][]int { return s.Dest }

// Arrows is the arrow table of the environment's space.
func (e *Env) Arrows() [][]int { return e.Space.Dest }

// ActionNames are the actions, the stay action first.
func (e *Env) ActionNames() []string { return e.Actions }

// Rewards are the reward value, or the levels when there are any.
func (e *Env) Rewards() (value float64, levels []float64) { return e.Reward.Value, e.Reward.Levels }

// Placement is the declared cell of π, ⊕, ⊖ and each object, or -1.
func (e *Env) Placement() []int { return e.Place }

// GoodEvilPattern is Good and Evil's cyclic pattern, nil for a program.
func (e *Env) GoodEvilPattern() []int { return e.GoodEvil.Pattern }
