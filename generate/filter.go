package generate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// FilterSettings fix how hard the filters look. The defaults are in
// DefaultFilters and docs/generation.md.
type FilterSettings struct {
	Episodes int    `json:"episodes"` // episodes of each agent
	Steps    int    `json:"steps"`    // scored interactions an episode
	Seed     uint64 `json:"seed"`     // the seed of the filter runs
	// References are the reference agents of discrimination: the best of
	// them (the highest mean) must score above random. No one agent is
	// competent everywhere: the oracle is greedy for one step and, with
	// trace rewards, scores below the follower on the ω1-blocker.
	References []string `json:"references"`
	// Sequential decides balance and discrimination by the sequential
	// test (sequential.go, docs/generation.md): clear candidates stop at
	// an early look, unclear ones get the whole budget and today's rule.
	// Without it every agent plays every episode.
	Sequential bool `json:"sequential,omitempty"`
}

// DefaultFilters are at most 200 episodes of 100 interactions, seed 1,
// with the oracle and the follower as the reference agents, decided by the
// sequential test.
var DefaultFilters = FilterSettings{Episodes: 200, Steps: 100, Seed: 1, References: []string{"oracle", "follower"}, Sequential: true}

// MaxFilterRuns bounds the episodes of each agent and the interactions of
// an episode, and MaxFilterInteractions their product, the interactions
// of one agent on one candidate: more would hold memory or time no filter
// needs.
const (
	MaxFilterRuns         = 1_000_000
	MaxFilterInteractions = 100_000_000
)

// Validate reports settings the filters cannot run with: too few or too
// many episodes or steps, no reference agent, or an agent that does not
// exist.
func (s FilterSettings) Validate() error {
	_, err := s.agents()
	return err
}

// agents checks the settings and looks up random and the reference agents,
// once, before anything runs.
func (s FilterSettings) agents() (map[string]filterAgent, error) {
	if s.Episodes < 2 || s.Steps < 1 || s.Episodes > MaxFilterRuns || s.Steps > MaxFilterRuns {
		return nil, fmt.Errorf("the filters need 2 to %d episodes and 1 to %d steps; these have %d and %d",
			MaxFilterRuns, MaxFilterRuns, s.Episodes, s.Steps)
	}
	if s.Episodes*s.Steps > MaxFilterInteractions {
		return nil, fmt.Errorf("the filters run at most %d interactions an agent (episodes × steps); these ask %d",
			MaxFilterInteractions, s.Episodes*s.Steps)
	}
	if len(s.References) == 0 {
		return nil, errors.New("the filters need at least one reference agent")
	}
	if slices.Contains(s.References, "random") {
		return nil, errors.New("random cannot be a reference agent: discrimination compares the references with random")
	}
	agents := map[string]filterAgent{}
	for _, name := range append([]string{"random"}, s.References...) {
		f, err := agent.Lookup(name, agent.DefaultSettings)
		if err != nil {
			return nil, fmt.Errorf("filter agents: %w", err)
		}
		agents[name] = filterAgent{f, agent.RuleOf(f())}
	}
	return agents, nil
}

// filterAgent is a filter agent: how to make one, and the rule by which
// an env.LeanPlayer plays it (env.NoRule: only an env.Episode does).
type filterAgent struct {
	make agent.Factory
	rule env.Rule
}

func (s FilterSettings) equal(t FilterSettings) bool {
	return s.Episodes == t.Episodes && s.Steps == t.Steps && s.Seed == t.Seed && slices.Equal(s.References, t.References) && s.Sequential == t.Sequential
}

// Verdict is what the filters found about one candidate.
type Verdict struct {
	Accepted bool    `json:"accepted"`
	Reason   string  `json:"reason,omitempty"` // why it was rejected
	Bits     float64 `json:"bits"`
	Random   Score   `json:"random"`
	// References are the reference agents' scores in the settings' order
	// (none when balance already failed); Best is the one of them with the
	// highest mean (the first on a tie), which discrimination and fitness
	// use.
	References []Score `json:"references,omitempty"`
	Best       Score   `json:"best"`
	Fitness    float64 `json:"fitness"`
	MaxSteps   int     `json:"max_steps"`
}

// Score is an agent's mean score with its 95% confidence interval, over
// the episodes it played (all of them without the sequential test).
type Score struct {
	Agent    string     `json:"agent"`
	Mean     float64    `json:"mean"`
	CI95     [2]float64 `json:"ci95"`
	Episodes int        `json:"episodes,omitempty"`
}

// Rejection reasons, in the order the filters run.
const (
	ReasonSyntax      = "syntax"      // the source does not parse or load
	ReasonSpace       = "space"       // the space is invalid
	ReasonUnbalanced  = "unbalanced"  // the random agent's mean is not 0
	ReasonInsensitive = "insensitive" // no reference agent does better than random
	ReasonDuplicate   = "duplicate"   // an earlier candidate is the same environment
)

// Check runs the filters on an environment's source: it must parse and
// load (bounds and a valid space included); the random agent's mean must
// be statistically indistinguishable from 0 (its 95% confidence interval
// contains 0: a two-sided t-test at the 5% level); and the best reference
// agent must score clearly above random (its interval lies above random's).
// Fitness rewards discrimination per bit: the gap between the best
// reference agent and random, divided by log2 of the description length.
// The error is about the settings (Validate), never about the candidate.
func Check(name, src string, s FilterSettings) (Verdict, error) {
	return check(name, src, s, true)
}

// CheckPlain is Check without the lean episodes (env.LeanPlayer): every
// episode plays through an env.Episode. It gives Check's verdicts, only
// slower; the tests and the fuzzer compare the two.
func CheckPlain(name, src string, s FilterSettings) (Verdict, error) {
	return check(name, src, s, false)
}

func check(name, src string, s FilterSettings, leanEpisodes bool) (Verdict, error) {
	agents, err := s.agents()
	if err != nil {
		return Verdict{}, err
	}
	v, e := load(name, src)
	if e == nil {
		return v, nil
	}
	var lean *env.Lean
	if leanEpisodes {
		lean, _ = e.Lean()
	}
	return filters(v, e, lean, agents, s), nil
}

// load parses and loads src: the environment and a verdict that holds its
// bits, or a rejection (syntax, space) and no environment.
func load(name, src string) (Verdict, *env.Env) {
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		return Verdict{Reason: ReasonSyntax}, nil
	}
	e, err := env.Load(f)
	if err != nil {
		if invalid := (*env.InvalidSpaceError)(nil); errors.As(err, &invalid) {
			return Verdict{Reason: ReasonSpace}, nil
		}
		return Verdict{Reason: ReasonSyntax}, nil
	}
	return Verdict{Bits: complexity.Total(complexity.Environment(f, e))}, e
}

// filters decides balance and discrimination of a loaded environment, its
// lean form (env.Lean) when it has one, by the sequential test or on the
// fixed budget.
func filters(v Verdict, e *env.Env, lean *env.Lean, agents map[string]filterAgent, s FilterSettings) Verdict {
	if s.Sequential {
		return sequential(v, e, lean, agents, s)
	}
	play := func(name string) *runs {
		r := newRuns(e, lean, name, agents[name], s)
		r.extend(s.Episodes)
		return r
	}
	random := play("random")
	if excludesZero(random.score().CI95) {
		return unbalancedVerdict(v, random)
	}
	refs := make([]*runs, len(s.References))
	for i, name := range s.References {
		refs[i] = play(name)
	}
	v = discriminationVerdict(v, random, refs, false)
	if v.Best.CI95[0] <= v.Random.CI95[1] {
		v.Reason = ReasonInsensitive
		v.Accepted, v.Fitness = false, 0
	}
	return v
}

// Fitness is the discrimination gap per log2 of the description length.
func Fitness(gap, bits float64) float64 { return gap / math.Log2(max(bits, 2)) }

// sequential is Check's balance and discrimination by the sequential test:
// the random agent plays look by look until a look decides balance (or
// the budget ends, where today's rule decides); then random and the
// references play on together, look by look, until a look decides
// discrimination (or the budget ends: today's rule).
func sequential(v Verdict, e *env.Env, lean *env.Lean, agents map[string]filterAgent, s FilterSettings) Verdict {
	random := newRuns(e, lean, "random", agents["random"], s)
	refs := make([]*runs, len(s.References))
	for i, name := range s.References {
		refs[i] = newRuns(e, lean, name, agents[name], s)
	}
	ns := looks(s.Episodes)
	k := 0
	for ; k < len(ns); k++ {
		random.extend(ns[k])
		if k == len(ns)-1 {
			if excludesZero(random.score().CI95) {
				return unbalancedVerdict(v, random)
			}
			break
		}
		if d := decideBalance(random); d == unbalanced {
			return unbalancedVerdict(v, random)
		} else if d == balanced {
			break
		}
	}
	for ; k < len(ns); k++ {
		random.extend(ns[k])
		for _, r := range refs {
			r.extend(ns[k])
		}
		if k == len(ns)-1 {
			break // today's rule, on the whole budget
		}
		if reason, ok := decideDiscrimination(random, refs); ok {
			return discriminationVerdict(v, random, refs, reason != "")
		}
	}
	v = discriminationVerdict(v, random, refs, false)
	if v.Best.CI95[0] <= v.Random.CI95[1] {
		v.Reason = ReasonInsensitive
		v.Accepted, v.Fitness = false, 0
	}
	return v
}

// excludesZero is the balance rule on an interval of the random agent's
// mean: one that lies wholly above 0, or wholly below, says the
// environment is unbalanced, either way.
func excludesZero(ci [2]float64) bool { return ci[0] > 0 || ci[1] < 0 }

func unbalancedVerdict(v Verdict, random *runs) Verdict {
	v.Random, v.MaxSteps, v.Reason = random.score(), random.maxSteps, ReasonUnbalanced
	return v
}

// discriminationVerdict fills v from the runs, insensitive or accepted.
func discriminationVerdict(v Verdict, random *runs, refs []*runs, insensitive bool) Verdict {
	v.Random, v.MaxSteps = random.score(), random.maxSteps
	for i, r := range refs {
		sc := r.score()
		v.References = append(v.References, sc)
		v.MaxSteps = max(v.MaxSteps, r.maxSteps)
		if i == 0 || sc.Mean > v.Best.Mean {
			v.Best = sc
		}
	}
	if insensitive {
		v.Reason = ReasonInsensitive
		return v
	}
	v.Accepted = true
	v.Fitness = Fitness(v.Best.Mean-v.Random.Mean, v.Bits)
	return v
}

func (v Verdict) String() string {
	if v.Accepted {
		return fmt.Sprintf("accepted: %.1f bits, random %.3f, %s", v.Bits, v.Random.Mean, v.references())
	}
	return "rejected: " + v.Reason
}

// references prints the reference agents' means, the best one first.
func (v Verdict) references() string {
	parts := []string{fmt.Sprintf("best %s %.3f", v.Best.Agent, v.Best.Mean)}
	for _, r := range v.References {
		if r.Agent != v.Best.Agent {
			parts = append(parts, fmt.Sprintf("%s %.3f", r.Agent, r.Mean))
		}
	}
	return strings.Join(parts, ", ")
}
