package env

import (
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/stdlib"
	"github.com/anynt/anynt/vm"
)

// Lint bounds: the random run whose observations the behaviours are tried
// on, and how many distinct observations of each behaviour are tried.
const (
	LintInteractions = 50
	LintSamples      = 20
	lintSeed         = 1
)

// Lint looks for behaviours of a loaded environment that can never do
// anything useful, and returns a positioned warning for each; it never
// fails. A warning is advice: the environment is valid and runs as written.
//
// The static part reads the rules: a behaviour acts through the action
// symbols its output holds, and an observation holds none (it shows
// markers, objects and ':'), so a behaviour none of whose rules writes an
// action never acts; when it writes a marker (R) instead, an action (r) was
// likely meant, and a terminating rule that leaves a symbol of its own and
// no action ends a run where an action was likely meant. The dynamic part
// plays a short random run (LintInteractions interactions, seed 1, no
// start-up garbage), collects up to LintSamples distinct observations of
// each behaviour, and runs the behaviour on each from an empty memory: a
// behaviour that stops at its step, length or work bound on every one of
// them never halts in practice, and its output is whatever the string holds
// when it is cut off.
func Lint(f *lang.File, e *Env) lang.ErrorList {
	var warns lang.ErrorList
	blocks := behaviourBlocks(f)
	for _, b := range blocks.objects {
		lintWrites(&warns, f, e, b, "object "+b.Name, "it always stays")
	}
	if blocks.goodEvil != nil {
		lintWrites(&warns, f, e, blocks.goodEvil, "Good/Evil", "Good and Evil never move")
	}
	lintReach(&warns, f, e, blocks)
	lintRuns(&warns, e, blocks)
	warns.Sort()
	return warns
}

// lintBlocks are a file's behaviour blocks, objects in the order of
// Env.Objects.
type lintBlocks struct {
	objects  []*lang.Block
	goodEvil *lang.Block
}

func behaviourBlocks(f *lang.File) lintBlocks {
	var b lintBlocks
	for _, d := range f.Decls {
		if d, ok := d.(*lang.Block); ok {
			switch d.Kind {
			case lang.ObjectBlock:
				b.objects = append(b.objects, d)
			case lang.GoodEvilBlock:
				b.goodEvil = d
			}
		}
	}
	return b
}

// lintWrites warns when a behaviour's rules, its used blocks included,
// cannot make it act. A terminating rule that writes a symbol of the
// behaviour's own (none of the environment's symbols) and no action ends a
// run with that symbol where an action was likely meant; the environment
// keeps only the actions of an output. When no rule at all writes an
// action, the warning goes to those rules if there are any, else to the
// markers written instead of actions, else to the block, saying what
// follows (consequence, a clause with its subject: Good/Evil is two
// objects, so it takes "Good and Evil never move").
func lintWrites(warns *lang.ErrorList, f *lang.File, e *Env, b *lang.Block, who, consequence string) {
	written := map[string][]lang.Pos{}
	var ends []*lang.Rule
	writtenBy(f, b.Rules, written, &ends, map[string]bool{})
	isAction := map[string]bool{}
	for _, a := range e.Actions {
		isAction[a] = true
	}
	isBase := map[string]bool{}
	for _, s := range e.BaseSymbols() {
		isBase[s] = true
	}
	warnedEnd := false
	for _, r := range ends {
		syms := map[string][]lang.Pos{}
		symbolsOf(r.RHS, syms)
		var own []string
		acts := false
		for sym := range syms {
			acts = acts || isAction[sym]
			if !isBase[sym] {
				own = append(own, sym)
			}
		}
		if acts || len(own) == 0 {
			continue
		}
		slices.Sort(own)
		warns.Add(r.At, "%s ends a run writing %s and no action: the environment keeps only the actions (%s) of an output",
			who, strings.Join(own, " "), strings.Join(e.Actions, ", "))
		warnedEnd = true
	}
	for _, a := range e.Actions {
		if len(written[a]) > 0 {
			return
		}
	}
	if warnedEnd {
		return
	}
	markerOf := map[string]string{}
	for i, m := range e.Markers {
		markerOf[m] = e.Actions[i]
	}
	found := false
	for sym, at := range written {
		if a, ok := markerOf[sym]; ok {
			found = true
			for _, p := range at {
				warns.Add(p, "%s writes %s, the observation marker of action %s, and never an action: did you mean %s?", who, sym, a, a)
			}
		}
	}
	if !found {
		warns.Add(b.At, "%s writes no action (%s): its output never holds one, so %s", who, strings.Join(e.Actions, ", "), consequence)
	}
}

// writtenBy records where each symbol is written on a right-hand side of
// entries and of the blocks they use, once each, and collects the
// terminating rules.
func writtenBy(f *lang.File, entries []lang.Entry, written map[string][]lang.Pos, ends *[]*lang.Rule, used map[string]bool) {
	for _, en := range entries {
		switch en := en.(type) {
		case *lang.Rule:
			symbolsOf(en.RHS, written)
			if en.Terminating {
				*ends = append(*ends, en)
			}
		case *lang.Use:
			if used[en.Name] {
				continue
			}
			used[en.Name] = true
			b := f.Block(en.Name)
			if b == nil {
				b = stdlib.Lookup(en.Name)
			}
			if b != nil {
				writtenBy(f, b.Rules, written, ends, used)
			}
		}
	}
}

func symbolsOf(elems []lang.Elem, written map[string][]lang.Pos) {
	for _, el := range elems {
		switch el := el.(type) {
		case *lang.Symbol:
			written[el.Name] = append(written[el.Name], el.At)
		case *lang.Group:
			for _, alt := range el.Alts {
				symbolsOf(alt, written)
			}
		}
	}
}

// lintRuns runs each behaviour program on observations sampled from a
// short random run and warns about one that reaches a bound every time.
func lintRuns(warns *lang.ErrorList, e *Env, blocks lintBlocks) {
	quiet := *e
	quiet.Settings.Garbage = false
	s := &sampler{objects: make([]observations, len(e.Objects))}
	NewEpisode(&quiet, s, lintSeed).Run(LintInteractions, nil)
	opts := vm.Options{MaxSteps: e.Settings.MaxSteps, MaxLen: e.Settings.MaxLen, MaxWork: e.Settings.MaxWork}
	for i, o := range e.Objects {
		lintBounds(warns, o.Program, s.objects[i], opts, blocks.objects[i].At, "object "+o.Name)
	}
	if e.GoodEvil.Program != nil {
		lintBounds(warns, e.GoodEvil.Program, s.goodEvil, opts, blocks.goodEvil.At, "Good/Evil")
	}
}

func lintBounds(warns *lang.ErrorList, p *vm.Program, obs observations, opts vm.Options, at lang.Pos, who string) {
	if len(obs.list) == 0 {
		return
	}
	m := vm.New(p)
	hits := map[vm.HaltReason]int{}
	for _, o := range obs.list {
		m.Reset()
		_, res := m.Run(o, opts)
		if res.Halt != vm.StepLimit && res.Halt != vm.LengthLimit && res.Halt != vm.WorkLimit {
			return
		}
		hits[res.Halt]++
	}
	var bounds []string
	if hits[vm.StepLimit] > 0 {
		bounds = append(bounds, fmt.Sprintf("its step bound (max-steps %d)", opts.MaxSteps))
	}
	if hits[vm.LengthLimit] > 0 {
		bounds = append(bounds, fmt.Sprintf("its length bound (max-len %d)", opts.MaxLen))
	}
	if hits[vm.WorkLimit] > 0 {
		bounds = append(bounds, fmt.Sprintf("its work bound (max-work %d)", opts.MaxWork))
	}
	warns.Add(at, "%s never halts on the %d observations sampled from a random run: every run stopped at %s, so its output is whatever the string holds when it is cut off",
		who, len(obs.list), strings.Join(bounds, " or "))
}

// observations are the distinct observations one behaviour was given.
type observations struct {
	list [][]byte
	seen map[string]bool
}

func (o *observations) add(obs []byte) {
	if len(o.list) >= LintSamples || o.seen[string(obs)] {
		return
	}
	if o.seen == nil {
		o.seen = map[string]bool{}
	}
	o.seen[string(obs)] = true
	o.list = append(o.list, obs)
}

// sampler is a random agent that also records, at each interaction, the
// observation of every object and of Good and Evil.
type sampler struct {
	rng      *random.Rand
	objects  []observations
	goodEvil observations
}

func (s *sampler) Start(_ *Env, rng *random.Rand) { s.rng = rng }
func (s *sampler) End(float64)                    {}

func (s *sampler) Act(v *View) int {
	ep := v.ep
	for i := range s.objects {
		s.objects[i].add(ep.observe(nil, ep.pos[3+i], false))
	}
	s.goodEvil.add(ep.observe(nil, ep.pos[Good], false))
	s.goodEvil.add(ep.observe(nil, ep.pos[Evil], false))
	return s.rng.IntN(len(v.Dest()))
}
