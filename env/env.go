package env

import (
	"github.com/anynt/anynt/vm"
)

// Env is a loaded environment of the class Λ ([P] §4): its actions, its
// space, its objects with their behaviours, the Good/Evil behaviour, the
// rewards and the settings of the interaction loop.
type Env struct {
	Name    string
	Actions []string // names; Actions[0] is the stay action
	Markers []string // the observation marker of each action
	Space   *Space
	Objects []Object // ω1… in declaration order
	// GoodEvil is the behaviour Good and Evil share: a program, or a
	// cyclic pattern of action indices.
	GoodEvil Behaviour
	Reward   Reward
	// Place holds the declared initial cell of π, ⊕, ⊖ and each object,
	// in that order, or -1 where the cell is drawn at random.
	Place    []int
	Settings Settings

	// symbols is the start of every behaviour program's symbol table, so
	// that one observation string serves them all.
	symbols symbolTable
}

// Object is an ordinary object ω: it performs one action an interaction,
// the rightmost action its program writes.
type Object struct {
	Name    string
	Program *vm.Program
}

// Behaviour is Good and Evil's shared logic: a program, or (Λ_one) a
// cyclic pattern of actions, one an interaction.
type Behaviour struct {
	Program *vm.Program
	Pattern []int
}

// Reward says what Good and Evil leave in their cells: Value, or, when
// Levels is set, the value of the level the Good/Evil program chose last
// with a symbol ρk (ρ1 when it has not chosen).
type Reward struct {
	Value  float64
	Levels []float64
}

// RewardMode is how rewards flow.
type RewardMode uint8

const (
	// TraceRewards is the class of [P] §4.4: Good and Evil set their
	// cells' rewards before the moves (unless π is there), π eats its
	// cell's reward after the moves, every cell reward halves.
	TraceRewards RewardMode = iota
	// LambdaOneRewards is the Λ_one experiments' ([T] §5.1): after the
	// moves Good's cell holds +r and Evil's −r and no other cell anything;
	// π collects its cell's reward.
	LambdaOneRewards
)

// Settings are the knobs of the interaction loop.
type Settings struct {
	Cycle      bool // the cycle clause: swap Good and Evil now and then
	CycleBound int  // swaps come after U[1, CycleBound] interactions
	Garbage    bool // a random agent plays U[1, CycleBound] interactions first
	Rewards    RewardMode
	// MaxSteps, MaxLen and MaxWork bound every run of a behaviour (as
	// vm.Options does): the paper's "executed for a fixed period of time"
	// ([P] §6.2).
	MaxSteps, MaxLen, MaxWork int
}

// Defaults of the settings.
const (
	DefaultBehaviourSteps = 10_000
	DefaultBehaviourLen   = 10_000
	// DefaultBehaviourWork is about 10 ms of matching a run.
	DefaultBehaviourWork = 1_000_000
)

// Ceilings of the settings: a file that asks for more is refused. They
// keep one run of a behaviour within a second or so and its strings within
// a few megabytes, whatever the file says.
const (
	// MaxCycleBound caps the paper's n_c^n_a, which grows fast.
	MaxCycleBound     = 1_000_000
	MaxBehaviourSteps = vm.DefaultMaxSteps
	MaxBehaviourLen   = vm.DefaultMaxLen
	MaxBehaviourWork  = vm.DefaultMaxWork
	// MaxCells bounds a space. An interaction whose runs the memo
	// answers costs the same at any size, but a run that misses reads
	// an observation with a symbol for each cell, and loading checks every
	// arrow: at this ceiling a file loads in about half a second and an
	// episode's observations are 100,000 symbols long, ten times the
	// default max-len.
	MaxCells = 100_000
)

// Cells and objects as the machine indexes them: π, ⊕, ⊖, then ω1….
const (
	Pi   = 0
	Good = 1
	Evil = 2
)

// symbolTable holds the codes of the observation symbols and actions,
// which every behaviour program shares.
type symbolTable struct {
	names   []string
	marker  []byte // by action
	action  []byte // by action
	pi      byte
	good    byte
	evil    byte
	odot    byte
	object  []byte // by object
	colon   byte
	levels  []byte // ρ1… by level
	actions int    // codes action[0]..action[n-1] are consecutive
}

// BaseSymbols lists the symbols every behaviour of the environment starts
// with: the markers, π, ⊕, ⊖, ⊙, the objects, ':', the actions, the reward
// levels.
func (e *Env) BaseSymbols() []string { return e.symbols.names }

// actionOf returns the action index a code stands for, or -1.
func (t *symbolTable) actionOf(c byte) int {
	if i := int(c) - int(t.action[0]); i >= 0 && i < t.actions {
		return i
	}
	return -1
}

// levelOf returns the reward level (from 0) a code chooses, or -1.
func (t *symbolTable) levelOf(c byte) int {
	for i, l := range t.levels {
		if l == c {
			return i
		}
	}
	return -1
}
