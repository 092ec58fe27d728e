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

// The settings of the learners. A param's def is only a placeholder:
// each learner gives its own default (published), and the setting every
// learner shared before (shared).
var (
	pAlpha   = param{key: "alpha", lo: 0, hi: 1, loOpen: true, meaning: "the learning rate α"}
	pLambda  = param{key: "lambda", lo: 0, hi: 1, meaning: "the trace decay λ"}
	pHLambda = param{key: "lambda", lo: 0, hi: 1, loOpen: true, meaning: "the trace and visit-count decay λ"}
	pEpsilon = param{key: "epsilon", lo: 0, hi: 1, meaning: "the probability ε of a uniformly random action"}
	pGamma   = param{key: "gamma", lo: 0, hi: 1, hiOpen: true, meaning: "the discount γ"}
	pQ0      = param{key: "q0", finite: true, lo: math.Inf(-1), hi: math.Inf(1), meaning: "the initial Q value"}
)

// with is p with the default def.
func with(p param, def float64) param { p.def = def; return p }

// learner is an agent whose settings are given in its spec. Its params'
// defaults are those its authors published (docs/ranking.md, "Each
// learner's own settings"); shared is the setting anynt gave it before it
// had its own, which the spec's defaults=shared brings back.
type learner struct {
	params []param
	shared map[string]float64
	make   func(x map[string]float64) env.Agent
}

// The defaults of the AIQ agents are AIQ's settings sheet's (Legg and
// Veness 2011; its repository's "Conf Paper Settings.ods") for its
// shortest episodes, 1,000 interactions, the nearest to anynt's items:
// Q_l Q0 0, λ 0.5, α 0.5, ε 0.04, γ 0.6; HLQ_l Q0 0, λ 0.95, ε 0.04,
// γ 0.7; Freq ε 0.07. SARSA(λ) is not one of AIQ's agents and none of its
// authors published settings for such a test: it takes Q_l's, so that
// the two differ by their rule alone. MC-AIXI-CTW takes the same sheet's,
// set by Veness, its first author, for AIQ's test: 100 simulations,
// depth 32, horizon 3 (aixi.PublishedSettings). The shared setting is
// that of the example run of Q_l in AIQ's Readme for the tabular learners
// (Q0 0, λ 0.5, α 0.5, ε 0.05, γ 0.9) and a sweep's on Λ_one for
// MC-AIXI-CTW (aixi.DefaultSettings).
var (
	sharedQ  = map[string]float64{"alpha": 0.5, "lambda": 0.5, "epsilon": 0.05, "gamma": 0.9, "q0": 0}
	qlParams = []param{with(pAlpha, 0.5), with(pLambda, 0.5), with(pEpsilon, 0.04), with(pGamma, 0.6), with(pQ0, 0)}
)

var learners = map[string]learner{
	"qlambda": {qlParams, sharedQ, func(x map[string]float64) env.Agent {
		return &QLambda{Alpha: x["alpha"], Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
	}},
	"sarsalambda": {qlParams, sharedQ, func(x map[string]float64) env.Agent {
		return &SarsaLambda{Alpha: x["alpha"], Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
	}},
	"hlq": {[]param{with(pHLambda, 0.95), with(pEpsilon, 0.04), with(pGamma, 0.7), with(pQ0, 0)},
		map[string]float64{"lambda": 0.5, "epsilon": 0.05, "gamma": 0.9, "q0": 0}, func(x map[string]float64) env.Agent {
			return &HLQ{Lambda: x["lambda"], Epsilon: x["epsilon"], Gamma: x["gamma"], Q0: x["q0"]}
		}},
	"freq": {[]param{with(pEpsilon, 0.07)}, map[string]float64{"epsilon": 0.05}, func(x map[string]float64) env.Agent {
		return &Freq{Epsilon: x["epsilon"]}
	}},
	// MC-AIXI-CTW of Veness et al. (2011), package aixi: its bounds are
	// that package's (agent/aixi/doc.go says why).
	"mc-aixi-ctw": {[]param{
		{key: "depth", def: float64(aixi.PublishedSettings.Depth), lo: 1, hi: aixi.MaxDepth, integer: true, meaning: "the context trees' depth D, in bits"},
		{key: "simulations", def: float64(aixi.PublishedSettings.Simulations), lo: 1, hi: aixi.MaxSimulations, integer: true, meaning: "ρUCT's simulations an action"},
		{key: "horizon", def: float64(aixi.PublishedSettings.Horizon), lo: 1, hi: aixi.MaxHorizon, integer: true, meaning: "the interactions a simulation looks ahead"},
		{key: "exploration", def: aixi.PublishedSettings.Exploration, lo: 0, hi: aixi.MaxExploration, meaning: "UCB's exploration constant C"},
		{key: "reward-levels", def: float64(aixi.PublishedSettings.RewardLevels), lo: 2, hi: aixi.MaxRewardLevels, integer: true, meaning: "the levels a reward is rounded to"},
	}, aixiValues(aixi.DefaultSettings), func(x map[string]float64) env.Agent { return aixi.New(aixiSettings(x)) }},
}

// aixiValues is MC-AIXI-CTW's settings s by their keys in a spec.
func aixiValues(s aixi.Settings) map[string]float64 {
	return map[string]float64{"depth": float64(s.Depth), "simulations": float64(s.Simulations), "horizon": float64(s.Horizon),
		"exploration": s.Exploration, "reward-levels": float64(s.RewardLevels)}
}

// aixiSettings is MC-AIXI-CTW's settings of a spec's values, aixiValues'
// inverse.
func aixiSettings(x map[string]float64) aixi.Settings {
	return aixi.Settings{Depth: int(x["depth"]), Simulations: int(x["simulations"]), Horizon: int(x["horizon"]),
		Exploration: x["exploration"], RewardLevels: int(x["reward-levels"])}
}

// jointChecks are the limits on a learner's settings taken together,
// beyond each setting's range: MC-AIXI-CTW's work an action is the
// product of three of them (aixi.MaxWork).
var jointChecks = map[string]func(x map[string]float64) error{
	"mc-aixi-ctw": func(x map[string]float64) error { return aixiSettings(x).CheckWork() },
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

// defaultsKey chooses a learner's defaults in its spec: published (the
// default) or shared.
const defaultsKey = "defaults"

// learnerOf checks the settings of a learner's spec and returns its
// factory.
func learnerOf(name string, l learner, settings string, has bool) (Factory, error) {
	x, err := resolve(name, l, settings, has)
	if err != nil {
		return nil, err
	}
	return func() env.Agent { return l.make(x) }, nil
}

// resolve reads a learner's spec: each key known, given once, a number in
// its range, except defaults, which picks the values of the keys not
// given, wherever it stands in the list.
func resolve(name string, l learner, settings string, has bool) (map[string]float64, error) {
	keys := func() string {
		ks := []string{defaultsKey}
		for _, p := range l.params {
			ks = append(ks, p.key)
		}
		return strings.Join(ks, ", ")
	}
	if has && settings == "" {
		return nil, &SpecError{name, "", "nothing after the colon (settings are key=value,...: " + keys() + ")"}
	}
	x := map[string]float64{}
	for _, p := range l.params {
		x[p.key] = p.def
	}
	given := map[string]float64{}
	for kv := range strings.SplitSeq(settings, ",") {
		if !has {
			break
		}
		k, val, ok := strings.Cut(kv, "=")
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		if !ok {
			return nil, &SpecError{name, "", fmt.Sprintf("%q is not key=value (the settings: %s)", kv, keys())}
		}
		i := slices.IndexFunc(l.params, func(p param) bool { return p.key == k })
		if i < 0 && k != defaultsKey {
			return nil, &SpecError{name, k, fmt.Sprintf("no setting %q (the settings: %s)", k, keys())}
		}
		if _, twice := given[k]; twice {
			return nil, &SpecError{name, k, fmt.Sprintf("%s is given twice", k)}
		}
		if k == defaultsKey {
			if err := pickDefaults(name, l, val, x); err != nil {
				return nil, err
			}
			given[k] = 0
			continue
		}
		p := l.params[i]
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, &SpecError{name, k, fmt.Sprintf("%s=%s is not a number", k, val)}
		}
		if !p.ok(f) {
			return nil, &SpecError{name, k, fmt.Sprintf("%s (%s) is %v; it must be %s", k, p.meaning, f, p.rangeText())}
		}
		given[k] = f
	}
	for k, f := range given {
		if k != defaultsKey {
			x[k] = f
		}
	}
	if check := jointChecks[name]; check != nil {
		if err := check(x); err != nil {
			return nil, &SpecError{name, "", err.Error()}
		}
	}
	return x, nil
}

// pickDefaults sets x to the defaults a spec's defaults=which names.
func pickDefaults(name string, l learner, which string, x map[string]float64) error {
	switch which {
	case "published":
		return nil
	case "shared":
		maps.Copy(x, l.shared)
		return nil
	}
	return &SpecError{name, defaultsKey, fmt.Sprintf("defaults=%s: no such defaults (published, the authors', or shared, those every learner had before)", which)}
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
	x, err := resolve(name, l, settings, has)
	if err != nil {
		return nil
	}
	out := make([]Setting, len(l.params))
	for i, p := range l.params {
		out[i] = Setting{p.key, x[p.key]}
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
	b.WriteString("  each also takes defaults=published (the defaults above, its authors') or defaults=shared\n" +
		"  (the setting all had before each took its own; docs/ranking.md)\n")
	return b.String()
}
