package agent

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// Settings are the knobs of the agents that have any.
type Settings struct {
	Alpha, Gamma, Q0 float64 // Q-learning
}

// DefaultSettings are the thesis's Q-learning settings (§4.6).
var DefaultSettings = Settings{Alpha: 0.05, Gamma: 0.35, Q0: 2}

var makers = map[string]func(Settings) env.Agent{
	"random":    func(Settings) env.Agent { return &Random{} },
	"stay":      func(Settings) env.Agent { return Stay{} },
	"follower":  func(Settings) env.Agent { return &Follower{} },
	"oracle":    func(Settings) env.Agent { return &Oracle{} },
	"optimal":   func(Settings) env.Agent { return &Optimal{} },
	"qlearning": func(s Settings) env.Agent { return &QLearning{Settings: s} },
	"stopper":   func(Settings) env.Agent { return &Stopper{} },
	"modulator": func(Settings) env.Agent { return &Modulator{} },
}

// Names lists the agents Lookup knows.
func Names() []string {
	names := make([]string, 0, len(makers)+len(learners))
	for n := range makers {
		names = append(names, n)
	}
	for n := range learners {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Factory makes a fresh agent; it cannot fail, since Lookup checked the
// name and the settings once, before any run.
type Factory func() env.Agent

// ErrUnknown is the cause of Lookup's error for a name it does not know.
var ErrUnknown = errors.New("no such agent")

// Lookup finds an agent by its spec, a name with, for the learners
// qlambda, sarsalambda, hlq and freq, optional settings after a colon
// (qlambda:alpha=0.1,lambda=0.9), and checks its settings: s for
// Q-learning, the spec's for a learner (a *SpecError names the key at
// fault). Runs look an agent up once, before they start, so that a
// misspelt name is an error the user sees rather than a nil agent deep
// inside an evaluation.
func Lookup(spec string, s Settings) (Factory, error) {
	name, settings, has := splitSpec(spec)
	if l, ok := learners[name]; ok {
		return learnerOf(name, l, settings, has)
	}
	mk, ok := makers[name]
	if !ok {
		return nil, fmt.Errorf("%w: %q (the agents: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	if has {
		msg := "takes no settings"
		if name == "qlearning" {
			msg = "takes its settings from --alpha, --gamma and --q0, not from its name"
		}
		return nil, &SpecError{Agent: name, Msg: msg}
	}
	if name == "qlearning" {
		if err := s.Check(); err != nil {
			return nil, err
		}
	}
	return func() env.Agent { return mk(s) }, nil
}

// New returns a fresh agent by name: Lookup and one call of its factory.
func New(name string, s Settings) (env.Agent, error) {
	f, err := Lookup(name, s)
	if err != nil {
		return nil, err
	}
	return f(), nil
}

// SettingsError says which Q-learning setting is out of its range.
type SettingsError struct {
	Name  string // alpha, gamma or q0
	Value float64
	Range string
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("Q-learning's %s is %v; it must be %s", e.Name, e.Value, e.Range)
}

// Check validates the Q-learning settings: the learning rate α in (0, 1]
// (0 learns nothing, above 1 overshoots), the discount γ in [0, 1) (at 1 the
// values of an endless episode need not converge) and a finite Q0.
func (s Settings) Check() error {
	switch {
	case !(s.Alpha > 0 && s.Alpha <= 1):
		return &SettingsError{"alpha", s.Alpha, "in (0, 1]"}
	case !(s.Gamma >= 0 && s.Gamma < 1):
		return &SettingsError{"gamma", s.Gamma, "in [0, 1)"}
	case math.IsNaN(s.Q0) || math.IsInf(s.Q0, 0):
		return &SettingsError{"q0", s.Q0, "finite"}
	}
	return nil
}

// Random picks each action uniformly, the stay action included: the agent
// whose expected score a balanced environment makes 0 (env.RandomAction).
type Random struct{ rng *random.Rand }

func (r *Random) Start(_ *env.Env, rng *random.Rand) { r.rng = rng }
func (r *Random) Act(v *env.View) int                { return env.RandomAction(r.rng, v.Dest()) }
func (r *Random) End(float64)                        {}

// Stay always stays.
type Stay struct{}

func (Stay) Start(*env.Env, *random.Rand) {}
func (Stay) Act(*env.View) int            { return 0 }
func (Stay) End(float64)                  {}

// Follower is the thesis's trivial follower: if Good is in a cell it can
// reach, it goes there (or stays, if Good shares its cell); otherwise it
// moves at random among the cells it can reach, avoiding Evil's cell when it
// can (env.FollowAction). It ignores rewards.
type Follower struct{ rng *random.Rand }

func (f *Follower) Start(_ *env.Env, rng *random.Rand) { f.rng = rng }
func (f *Follower) End(float64)                        {}

func (f *Follower) Act(v *env.View) int {
	pos := v.Positions()
	return env.FollowAction(f.rng, v.Dest(), pos[env.Good], pos[env.Evil])
}

// Oracle is the thesis's oracle: it knows where Good and Evil intend to go
// and the cell rewards, and takes the action whose cell pays most this
// interaction, preferring Good's intended cell: with Λ_one rewards that
// is to follow Good's and flee Evil's intended cells (env.FollowAction),
// with trace rewards to take the best reward in reach (env.GreedyAction).
// It looks one step ahead and cannot foresee a collision between Good and
// Evil. So it is one-step greedy, not an upper bound on a score: other
// agents beat it on some environments (docs/environments.md, Agents).
type Oracle struct {
	rng       *random.Rand
	lambdaOne bool
}

func (o *Oracle) Start(e *env.Env, rng *random.Rand) {
	o.rng, o.lambdaOne = rng, e.Settings.Rewards == env.LambdaOneRewards
}
func (o *Oracle) End(float64) {}

func (o *Oracle) Act(v *env.View) int {
	if o.lambdaOne {
		good, evil := v.Intended()
		return env.FollowAction(o.rng, v.Dest(), good, evil)
	}
	return env.GreedyAction(o.rng, v.Dest(), v.CellRewards())
}

// RuleOf is the rule by which a acts (env.Rule) when a is a Random, a
// Follower or an Oracle, so that an env.LeanPlayer can play it without
// it, and env.NoRule for any other agent (a type that embeds one of them
// included: it may act otherwise).
func RuleOf(a env.Agent) env.Rule {
	switch a.(type) {
	case *Random:
		return env.RandomRule
	case *Follower:
		return env.FollowerRule
	case *Oracle:
		return env.OracleRule
	}
	return env.NoRule
}

// QLearning is tabular Q-learning as the thesis runs it: the state is π's
// observation string, Q starts at Q0 (2, optimistic against rewards shifted
// to [0, 2]), the action is greedy with ties broken at random, and
// Q(s,a) += α (r + 1 + γ max Q(s',·) − Q(s,a)).
type QLearning struct {
	Settings
	rng   *random.Rand
	q     map[string][]float64
	prev  []float64 // Q values of the previous state
	prevA int
	ties  []int
}

func (q *QLearning) Start(_ *env.Env, rng *random.Rand) {
	q.rng, q.q, q.prev = rng, map[string][]float64{}, nil
}

func (q *QLearning) Act(v *env.View) int {
	values := q.values(v.Observation(), len(v.Dest()))
	if q.prev != nil {
		q.update(v.Reward, slices.Max(values))
	}
	q.ties = q.ties[:0]
	best := slices.Max(values)
	for a, x := range values {
		if x == best {
			q.ties = append(q.ties, a)
		}
	}
	q.prev, q.prevA = values, q.ties[q.rng.IntN(len(q.ties))]
	return q.prevA
}

// End learns nothing: an episode cut at its length is not a terminal
// state, and bootstrapping from a state that never comes would bias Q.
func (q *QLearning) End(float64) {}

func (q *QLearning) update(reward, next float64) {
	old := &q.prev[q.prevA]
	*old += q.Alpha * (reward + 1 + q.Gamma*next - *old)
}

// values returns the Q values of a state, creating them at Q0.
func (q *QLearning) values(state []byte, actions int) []float64 {
	if vals, ok := q.q[string(state)]; ok {
		return vals
	}
	vals := make([]float64, actions)
	for i := range vals {
		vals[i] = q.Q0
	}
	q.q[string(state)] = vals
	return vals
}

// Paced is an agent that chooses when it acts, in physical time
// (Hernández-Orallo 2010a): a test asks it, before each action, how long it
// waits. base is the delay the test's pace model drew for this action, reward
// that of the agent's last action (0 before the first). It returns the
// seconds to wait, base for an agent that keeps the pace, or +Inf to stop
// acting for good. Agents that are not Paced keep the test's pace.
type Paced interface {
	Delay(base, reward float64) float64
}
