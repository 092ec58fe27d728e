package agent

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/anynt/anynt/agent/aixi"
	"github.com/anynt/anynt/env"
)

// A param is one setting of a learner, given in its spec as key=value.
type param struct {
	key     string
	def     float64
	lo, hi  float64 // the range; ±Inf for none
	loOpen  bool    // lo itself is out of range
	hiOpen  bool    // hi itself is out of range
	meaning string
	finite  bool
	integer bool // a count: a whole number
}

func (p param) ok(x float64) bool {
	switch {
	case math.IsNaN(x), p.finite && math.IsInf(x, 0), p.integer && x != math.Trunc(x):
		return false
	case x < p.lo || p.loOpen && x == p.lo:
		return false
	case x > p.hi || p.hiOpen && x == p.hi:
		return false
	}
	return true
}

func (p param) rangeText() string {
	if p.finite {
		return "finite"
	}
	if p.integer {
		return fmt.Sprintf("an integer from %v to %v", p.lo, p.hi)
	}
	l, r := "[", "]"
	if p.loOpen {
		l = "("
	}
	if p.hiOpen {
		r = ")"
	}
	return fmt.Sprintf("in %s%v, %v%s", l, p.lo, p.hi, r)
}

// The settings the learners share, with the defaults of AIQ's example run
// of Q(λ) (Legg and Veness 2011; AIQ's Readme: Q_l with Q0 0, λ 0.5,
// α 0.5, ε 0.05, γ 0.9): the same for every learner, so that a comparison
// between them is one of the learning rule, not of tuning.
var (
	pAlpha   = param{key: "alpha", def: 0.5, lo: 0, hi: 1, loOpen: true, meaning: "the learning rate α"}
	pLambda  = param{key: "lambda", def: 0.5, lo: 0, hi: 1, meaning: "the trace decay λ"}
	pHLambda = param{key: "lambda", def: 0.5, lo: 0, hi: 1, loOpen: true, meaning: "the trace and visit-count decay λ"}
	pEpsilon = param{key: "epsilon", def: 0.05, lo: 0, hi: 1, meaning: "the probability ε of a uniformly random action"}
	pGamma   = param{key: "gamma", def: 0.9, lo: 0, hi: 1, hiOpen: true, meaning: "the discount γ"}
	pQ0      = param{key: "q0", def: 0, finite: true, lo: math.Inf(-1), hi: math.Inf(1), meaning: "the initial Q value"}
)

// learner is an agent whose settings are given in its spec.
type learner struct {
	params []param
	make   func(x map[string]float64) env.Agent
}

var learners = map[string]learner{
	"qlambda": {[]param{pAlpha, pLambda, pEpsilon, pGamma, pQ0}, func(x map[string]float64) env.Agent {
		return &QLambda{Alpha: x["alpha"], Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
	}},
	"sarsalambda": {[]param{pAlpha, pLambda, pEpsilon, pGamma, pQ0}, func(x map[string]float64) env.Agent {
		return &SarsaLambda{Alpha: x["alpha"], Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
	}},
	"hlq": {[]param{pHLambda, pEpsilon, pGamma, pQ0}, func(x map[string]float64) env.Agent {
		return &HLQ{Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
	}},
	"freq": {[]param{pEpsilon}, func(x map[string]float64) env.Agent {
		return &Freq{Epsilon: x["epsilon"]}
	}},
	// MC-AIXI-CTW of Veness et al. (2011), package aixi: its defaults and
	// bounds are that package's (agent/aixi/doc.go says why).
	"mc-aixi-ctw": {[]param{
		{key: "depth", def: float64(aixi.DefaultSettings.Depth), lo: 1, hi: aixi.MaxDepth, integer: true, meaning: "the context trees' depth D, in bits"},
		{key: "simulations", def: float64(aixi.DefaultSettings.Simulations), lo: 1, hi: aixi.MaxSimulations, integer: true, meaning: "ρUCT's simulations an action"},
		{key: "horizon", def: float64(aixi.DefaultSettings.Horizon), lo: 1, hi: aixi.MaxHorizon, integer: true, meaning: "the interactions a simulation looks ahead"},
		{key: "exploration", def: aixi.DefaultSettings.Exploration, lo: 0, hi: aixi.MaxExploration, meaning: "UCB's exploration constant C"},
		{key: "reward-levels", def: float64(aixi.DefaultSettings.RewardLevels), lo: 2, hi: aixi.MaxRewardLevels, integer: true, meaning: "the levels a reward is rounded to"},
	}, func(x map[string]float64) env.Agent {
		return aixi.New(aixi.Settings{Depth: int(x["depth"]), Simulations: int(x["simulations"]), Horizon: int(x["horizon"]),
			Exploration: x["exploration"], RewardLevels: int(x["reward-levels"])})
	}},
}

// SpecError says what is wrong with an agent's spec.
type SpecError struct {
	Agent string // the agent's name
	Key   string // the setting at fault, "" if none
	Msg   string
}

func (e *SpecError) Error() string { return "agent " + e.Agent + ": " + e.Msg }

// splitSpec splits an agent's spec, name[:key=value,...], into the name and
// its settings; an agent with no settings has none.
func splitSpec(spec string) (name, settings string, has bool) {
	return strings.Cut(spec, ":")
}

// learnerOf checks the settings of a learner's spec and returns its
// factory: each key known, given once, a number in its range.
func learnerOf(name string, l learner, settings string, has bool) (Factory, error) {
	x := map[string]float64{}
	for _, p := range l.params {
		x[p.key] = p.def
	}
	keys := func() string {
		var ks []string
		for _, p := range l.params {
			ks = append(ks, p.key)
		}
		return strings.Join(ks, ", ")
	}
	if has && settings == "" {
		return nil, &SpecError{name, "", "nothing after the colon (settings are key=value,...: " + keys() + ")"}
	}
	var given []string
	for kv := range strings.SplitSeq(settings, ",") {
		if !has {
			break
		}
		k, val, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		if !ok {
			return nil, &SpecError{name, "", fmt.Sprintf("%q is not key=value (the settings: %s)", kv, keys())}
		}
		i := slices.IndexFunc(l.params, func(p param) bool { return p.key == k })
		if i < 0 {
			return nil, &SpecError{name, k, fmt.Sprintf("no setting %q (the settings: %s)", k, keys())}
		}
		if slices.Contains(given, k) {
			return nil, &SpecError{name, k, fmt.Sprintf("%s is given twice", k)}
		}
		given = append(given, k)
		p := l.params[i]
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return nil, &SpecError{name, k, fmt.Sprintf("%s=%s is not a number", k, val)}
		}
		if !p.ok(f) {
			return nil, &SpecError{name, k, fmt.Sprintf("%s (%s) is %v; it must be %s", k, p.meaning, f, p.rangeText())}
		}
		x[k] = f
	}
	if check := jointChecks[name]; check != nil {
		if err := check(x); err != nil {
			return nil, &SpecError{name, "", err.Error()}
		}
	}
	return func() env.Agent { return l.make(x) }, nil
}

// A Setting is one setting of a learner, by its key.
type Setting struct {
	Key   string
	Value float64
}

// SpecSettings returns every setting of a learner's spec, the defaults
// filled in, in the order of its parameters; nil for an agent whose
// settings are not given in its spec. The spec is one Lookup accepted.
func SpecSettings(spec string) []Setting {
	name, settings, has := splitSpec(spec)
	l, ok := learners[name]
	if !ok {
		return nil
	}
	x := map[string]float64{}
	for kv := range strings.SplitSeq(settings, ",") {
		if k, v, ok := strings.Cut(kv, "="); ok && has {
			x[strings.TrimSpace(k)], _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	out := make([]Setting, len(l.params))
	for i, p := range l.params {
		v, ok := x[p.key]
		if !ok {
			v = p.def
		}
		out[i] = Setting{p.key, v}
	}
	return out
}

// Params describes the settings of the agents that take them in their
// spec, a line each: the agent, then each key with its default and range.
// The CLI's help prints it; docs/output.md says what each means.
func Params() string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(learners)) {
		fmt.Fprintf(&b, "  %s:", name)
		for i, p := range learners[name].params {
			if i > 0 {
				b.WriteByte(',')
			}
			r := strings.TrimPrefix(p.rangeText(), "in ")
			if p.integer {
				r = fmt.Sprintf("[%v, %v] integer", p.lo, p.hi)
			}
			fmt.Fprintf(&b, " %s %.4g %s", p.key, p.def, r)
		}
		b.WriteByte('\n')
	}
	return b.String()
}
