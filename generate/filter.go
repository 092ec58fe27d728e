package generate

import (
	"errors"
	"fmt"
	"math"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// FilterSettings fix how hard the filters look. The defaults are in
// DefaultFilters and docs/generation.md.
type FilterSettings struct {
	Episodes int    // episodes of each agent
	Steps    int    // scored interactions an episode
	Seed     uint64 // the seed of the filter runs
	// Good is the agent that must score clearly differently from random
	// (discrimination): the thesis's oracle by default.
	Good string
}

// DefaultFilters are 200 episodes of 100 interactions, seed 1, the oracle.
var DefaultFilters = FilterSettings{Episodes: 200, Steps: 100, Seed: 1, Good: "oracle"}

// Verdict is what the filters found about one candidate.
type Verdict struct {
	Accepted bool    `json:"accepted"`
	Reason   string  `json:"reason,omitempty"` // why it was rejected
	Bits     float64 `json:"bits"`
	// Random and Good are the mean scores of the random agent and of the
	// good agent, with their 95% intervals.
	Random   Score   `json:"random"`
	Good     Score   `json:"good"`
	Fitness  float64 `json:"fitness"`
	MaxSteps int     `json:"max_steps"`
}

// Score is a mean with its 95% confidence interval.
type Score struct {
	Mean float64    `json:"mean"`
	CI95 [2]float64 `json:"ci95"`
}

// Rejection reasons, in the order the filters run.
const (
	ReasonSyntax      = "syntax"      // the source does not parse or load
	ReasonSpace       = "space"       // the space is invalid
	ReasonUnbalanced  = "unbalanced"  // the random agent's mean is not 0
	ReasonInsensitive = "insensitive" // no agent does better than random
	ReasonDuplicate   = "duplicate"   // an earlier candidate is the same environment
)

// Check runs the filters on an environment's source: it must parse and
// load (bounds and a valid space included); the random agent's mean must
// be statistically indistinguishable from 0 (its 95% confidence interval
// contains 0: a two-sided t-test at the 5% level); and the good agent must
// score clearly differently from random (their intervals do not overlap).
// Fitness rewards discrimination per bit: the gap between the good agent
// and random, divided by log2 of the description length.
func Check(name, src string, s FilterSettings) Verdict {
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		return Verdict{Reason: ReasonSyntax}
	}
	e, err := env.Load(f)
	if err != nil {
		var list lang.ErrorList
		if errors.As(err, &list) && isSpaceError(list) {
			return Verdict{Reason: ReasonSpace}
		}
		return Verdict{Reason: ReasonSyntax}
	}
	v := Verdict{Bits: complexity.Total(complexity.Environment(f, e))}
	random := evaluate(e, "random", s)
	v.Random = Score{random.Mean, random.CI95}
	v.MaxSteps = random.MaxSteps
	if random.CI95[0] > 0 || random.CI95[1] < 0 {
		v.Reason = ReasonUnbalanced
		return v
	}
	good := evaluate(e, s.Good, s)
	v.Good = Score{good.Mean, good.CI95}
	v.MaxSteps = max(v.MaxSteps, good.MaxSteps)
	if good.CI95[0] <= random.CI95[1] && good.CI95[1] >= random.CI95[0] {
		v.Reason = ReasonInsensitive
		return v
	}
	v.Accepted = true
	v.Fitness = Fitness(good.Mean-random.Mean, v.Bits)
	return v
}

// Fitness is the discrimination gap per log2 of the description length.
func Fitness(gap, bits float64) float64 { return gap / math.Log2(max(bits, 2)) }

func evaluate(e *env.Env, name string, s FilterSettings) env.Evaluation {
	newAgent := func() env.Agent {
		a, _ := agent.New(name, agent.DefaultSettings)
		return a
	}
	return env.Evaluate(e, newAgent, s.Episodes, s.Steps, s.Seed, nil)
}

func isSpaceError(list lang.ErrorList) bool {
	for _, e := range list {
		if len(e.Msg) > 20 && e.Msg[:20] == "the space is invalid" {
			return true
		}
	}
	return false
}

func (v Verdict) String() string {
	if v.Accepted {
		return fmt.Sprintf("accepted: %.1f bits, random %.3f, good %.3f", v.Bits, v.Random.Mean, v.Good.Mean)
	}
	return "rejected: " + v.Reason
}
