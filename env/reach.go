package env

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// Rules that can never match. A behaviour's run starts from an observation
// and each step replaces an occurrence of a rule's left-hand side by its
// right-hand side, so every string a behaviour ever holds is built from
// the observations it is given and from what its rules write. lintReach
// over-approximates those strings by their adjacent pairs: the pairs an
// observation of that behaviour can hold (observationPairs, from the
// space's arrows and from who stands where), then, to a fixed point, the
// pairs every rule that can match may create, inside its right-hand side
// and at both of its edges, ∇ standing for any string the memory may hold.
// A plain rule of the ordered expansion whose left-hand side needs a pair
// (or a symbol) outside that set can never match; a sugared rule none of
// whose plain rules can match gets a warning. Every step of the
// approximation keeps what can happen (it ignores rule priority, ties
// between the contexts of a match, and what a subscript binds), so the
// warning is never wrong: a rule it names cannot fire on any run.

// maxReachRules bounds the ordered expansion a behaviour is analysed in:
// past it the analysis is skipped (no warning), so that check stays fast
// on behaviours whose χ stands for many plain rules.
const maxReachRules = 1 << 16

// Two symbols besides the program's: the start and the end of a string,
// so that a pair (start, a) says that a string may begin with a.
const (
	reachStart = 0
	reachEnd   = 1
)

// reach is the pair graph of one behaviour: the symbols, the adjacent
// pairs its strings may hold, and what its memory may begin and end with.
type reach struct {
	names   []string
	index   map[string]int
	pair    []bool // pair[a*len(names)+b]: a may stand just before b
	size    int
	memAny  bool   // the memory may hold a string that is not empty
	memHead []bool // what it may begin with
	memTail []bool // and end with
	changed bool
}

func newReach(symbols []string) *reach {
	r := &reach{names: []string{"the start", "the end"}, index: map[string]int{}}
	for _, s := range symbols {
		r.sym(s)
	}
	return r
}

// sym is the index of a symbol, added when it is new (before the pairs
// are made).
func (r *reach) sym(s string) int {
	if i, ok := r.index[s]; ok {
		return i
	}
	r.index[s] = len(r.names)
	r.names = append(r.names, s)
	return len(r.names) - 1
}

func (r *reach) freeze() {
	r.size = len(r.names)
	r.pair = make([]bool, r.size*r.size)
	r.memHead = make([]bool, r.size)
	r.memTail = make([]bool, r.size)
}

func (r *reach) has(a, b int) bool { return r.pair[a*r.size+b] }

func (r *reach) add(a, b int) {
	if !r.pair[a*r.size+b] {
		r.pair[a*r.size+b] = true
		r.changed = true
	}
}

// occurs reports whether symbol s can stand in a string.
func (r *reach) occurs(s int) bool {
	for a := range r.size {
		if r.has(a, s) {
			return true
		}
	}
	return false
}

// reachRule is a plain rule in symbol indices; a recall (∇) is -1.
type reachRule struct {
	at               lang.Pos
	lhs, rhs         []int
	markFrom, markTo int
	storeWhole       bool
	terminating      bool
}

// canMatch reports whether lhs can occur in a string of the graph.
func (r *reach) canMatch(lhs []int) bool {
	switch len(lhs) {
	case 0:
		return true
	case 1:
		return r.occurs(lhs[0])
	}
	for i := 1; i < len(lhs); i++ {
		if !r.has(lhs[i-1], lhs[i]) {
			return false
		}
	}
	return true
}

// apply adds the pairs a firing of rule may create. A terminating rule
// ends its run, so nothing ever matches in what it writes, unless it
// stores the whole string (Δ) for a later ∇ to write again.
func (r *reach) apply(rule *reachRule) {
	if rule.markFrom >= 0 && rule.markTo > rule.markFrom {
		r.remember(rule.lhs[rule.markFrom], rule.lhs[rule.markTo-1])
	}
	if rule.terminating && !rule.storeWhole {
		return
	}
	if len(rule.lhs) == 0 {
		// The empty left-hand side matches between any two neighbours.
		for a := range r.size {
			for b := range r.size {
				if r.has(a, b) {
					r.write(rule.rhs, []int{a}, []int{b})
				}
			}
		}
	} else {
		var before, after []int
		first, last := rule.lhs[0], rule.lhs[len(rule.lhs)-1]
		for c := range r.size {
			if r.has(c, first) {
				before = append(before, c)
			}
			if r.has(last, c) {
				after = append(after, c)
			}
		}
		r.write(rule.rhs, before, after)
	}
	if rule.storeWhole {
		for s := range r.size {
			if r.has(reachStart, s) && s != reachEnd {
				r.remember(s, -1)
			}
			if r.has(s, reachEnd) && s != reachStart {
				r.remember(-1, s)
			}
		}
	}
}

// remember records that the memory may begin with head and end with tail
// (-1: no news).
func (r *reach) remember(head, tail int) {
	r.memAny = true
	if head >= 0 && !r.memHead[head] {
		r.memHead[head], r.changed = true, true
	}
	if tail >= 0 && !r.memTail[tail] {
		r.memTail[tail], r.changed = true, true
	}
}

// write adds the pairs of rhs written between a symbol of before and one
// of after.
func (r *reach) write(rhs, before, after []int) {
	cur := make([]bool, r.size)
	for _, c := range before {
		cur[c] = true
	}
	for _, s := range rhs {
		if s >= 0 {
			for c := range r.size {
				if cur[c] {
					r.add(c, s)
					cur[c] = false
				}
			}
			cur[s] = true
			continue
		}
		if !r.memAny { // ∇ of an empty memory writes nothing
			continue
		}
		for c := range r.size {
			if cur[c] {
				for m := range r.size {
					if r.memHead[m] {
						r.add(c, m)
					}
				}
			}
		}
		for m := range r.size {
			cur[m] = cur[m] || r.memTail[m]
		}
	}
	for c := range r.size {
		if cur[c] {
			for _, d := range after {
				r.add(c, d)
			}
		}
	}
}

// fix applies every rule that can match until no pair is new.
func (r *reach) fix(rules []reachRule) {
	for r.changed = true; r.changed; {
		r.changed = false
		for i := range rules {
			if r.canMatch(rules[i].lhs) {
				r.apply(&rules[i])
			}
		}
	}
}

// observationPairs adds the pairs an observation of who (Good for Good and
// Evil, or 3+i for object i) can hold, as write lays it out: for each cell,
// the objects there (π, ⊙ for Good or Evil, ω1…), the markers of the
// actions leading there from the observer's cell, and ':'. Whether a cell
// can hold a symbol or lack it follows from who stands where: the observer
// stands in its own cell, π and the other objects anywhere, Good and Evil
// in two different cells (so a cell lacks both only when there are three
// cells or more).
func (r *reach) observationPairs(e *Env, who int) {
	n := e.Space.Cells()
	t := &e.symbols
	idx := func(code byte) int { return r.index[t.names[code]] }
	// The kinds of cell there are: the observer's own or another, and
	// the actions leading there from the observer's cell, in order.
	kinds := map[string][]int{}
	var key []byte
	for f := range n {
		dests, distinct := e.Space.Dest[f], 0
		for a, d := range dests {
			if slices.Index(dests, d) < a {
				continue // a cell already met, through an earlier action
			}
			distinct++
			key = append(key[:0], byte(b2i(d == f)))
			for b := a; b < len(dests); b++ {
				if dests[b] == d {
					key = append(key, byte(b))
				}
			}
			if _, ok := kinds[string(key)]; !ok {
				k := make([]int, len(key))
				for i, c := range key {
					k[i] = int(c)
				}
				kinds[string(key)] = k
			}
		}
		if distinct < n { // a cell no action leads to
			kinds["\x00"] = []int{0}
		}
	}
	type token struct {
		sym             int
		present, absent bool
	}
	for _, k := range kinds {
		own := k[0] == 1
		toks := []token{{idx(t.pi), true, true}}
		if who == Good {
			toks = append(toks, token{idx(t.odot), true, !own && n >= 3})
		} else {
			toks = append(toks, token{idx(t.odot), true, n >= 3})
		}
		for i, code := range t.object {
			if 3+i == who {
				toks = append(toks, token{idx(code), own, !own})
			} else {
				toks = append(toks, token{idx(code), true, true})
			}
		}
		for _, a := range k[1:] {
			toks = append(toks, token{idx(t.marker[a]), true, false})
		}
		colon := idx(t.colon)
		toks = append(toks, token{colon, true, false})
		for i, a := range toks {
			if !a.present {
				continue
			}
			for _, b := range toks[i+1:] {
				if b.present {
					r.add(a.sym, b.sym)
				}
				if !b.absent {
					break
				}
			}
		}
		for _, b := range toks {
			if b.present {
				r.add(colon, b.sym)
				r.add(reachStart, b.sym)
			}
			if !b.absent {
				break
			}
		}
		r.add(colon, reachEnd)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reachTarget is one behaviour to analyse: its rules as a file of their
// own, what it is called, and how its strings start.
type reachTarget struct {
	who    string
	rules  []lang.Entry
	prefix []string
	start  func(*reach) // adds the pairs of the strings a run starts from
}

// errTooLarge stops an expansion past maxReachRules.
var errTooLarge = errors.New("expansion too large to analyse")

// deadRules returns, for the rules of t written in f (not the standard
// library's), whether each can match in some run (true) or never (false),
// and the graph that decided it; nil when the analysis was skipped.
func deadRules(f *lang.File, t reachTarget) (map[lang.Pos][]reachRule, map[lang.Pos]bool, *reach) {
	file := &lang.File{Name: f.Name}
	for _, d := range f.Decls {
		if d, ok := d.(*lang.Block); ok && d.Kind == lang.SharedBlock {
			file.Decls = append(file.Decls, d)
		}
	}
	for _, en := range t.rules {
		file.Decls = append(file.Decls, en.(lang.Decl))
	}
	r := newReach(t.prefix)
	var plain []lang.PlainRule
	err := compiler.ExpandEach(file, compiler.Options{Prefix: t.prefix}, func(p lang.PlainRule) error {
		if len(plain) >= maxReachRules {
			return errTooLarge
		}
		plain = append(plain, p)
		return nil
	})
	if err != nil {
		return nil, nil, nil
	}
	for _, p := range plain {
		for _, s := range p.LHS {
			r.sym(s)
		}
		for _, it := range p.RHS {
			if !it.Recall {
				r.sym(it.Sym)
			}
		}
	}
	r.freeze()
	rules := make([]reachRule, len(plain))
	for i, p := range plain {
		rr := reachRule{at: p.Pos, markFrom: p.MarkFrom, markTo: p.MarkTo, storeWhole: p.StoreWhole, terminating: p.Terminating}
		for _, s := range p.LHS {
			rr.lhs = append(rr.lhs, r.index[s])
		}
		for _, it := range p.RHS {
			if it.Recall {
				rr.rhs = append(rr.rhs, -1)
			} else {
				rr.rhs = append(rr.rhs, r.index[it.Sym])
			}
		}
		rules[i] = rr
	}
	t.start(r)
	r.fix(rules)
	byRule := map[lang.Pos][]reachRule{}
	live := map[lang.Pos]bool{}
	for _, rr := range rules {
		if rr.at.File != f.Name {
			continue
		}
		byRule[rr.at] = append(byRule[rr.at], rr)
		live[rr.at] = live[rr.at] || r.canMatch(rr.lhs)
	}
	return byRule, live, r
}

// lintReach warns of every rule of f that no behaviour using it can ever
// match, with the reason. A rule of a shared block is named only when it
// can match in none of the behaviours that use it.
func lintReach(warns *lang.ErrorList, f *lang.File, e *Env, blocks lintBlocks) {
	var targets []reachTarget
	base := e.BaseSymbols()
	for i, b := range blocks.objects {
		targets = append(targets, reachTarget{who: "object " + b.Name, rules: b.Rules, prefix: base,
			start: func(r *reach) { r.observationPairs(e, 3+i) }})
	}
	if blocks.goodEvil != nil {
		targets = append(targets, reachTarget{who: "Good/Evil", rules: blocks.goodEvil.Rules, prefix: base,
			start: func(r *reach) { r.observationPairs(e, Good) }})
	}
	if g := generatorBlock(f); g != nil {
		targets = append(targets, reachTarget{who: "the space generator", rules: g.Rules, prefix: e.Actions,
			start: func(r *reach) { r.add(reachStart, reachEnd) }})
	}
	type dead struct {
		who    []string
		reason string
	}
	deadAt := map[lang.Pos]*dead{}
	liveAt := map[lang.Pos]bool{}
	var order []lang.Pos
	for _, t := range targets {
		byRule, live, r := deadRules(f, t)
		if r == nil { // not analysed: none of its rules is known dead
			for _, en := range t.rules {
				liveAt[en.Pos()] = true
			}
			for _, d := range f.Decls {
				if b, ok := d.(*lang.Block); ok && b.Kind == lang.SharedBlock {
					for _, en := range b.Rules {
						liveAt[en.Pos()] = true
					}
				}
			}
			continue
		}
		for at, ok := range live {
			if ok {
				liveAt[at] = true
				continue
			}
			d := deadAt[at]
			if d == nil {
				d = &dead{reason: r.why(byRule[at])}
				deadAt[at] = d
				order = append(order, at)
			}
			d.who = append(d.who, t.who)
		}
	}
	for _, at := range order {
		if liveAt[at] {
			continue
		}
		d := deadAt[at]
		warns.Add(at, "%s: this rule can never match: %s", strings.Join(d.who, " and "), d.reason)
	}
}

// generatorBlock is f's space generator, or nil.
func generatorBlock(f *lang.File) *lang.Block {
	for _, d := range f.Decls {
		if b, ok := d.(*lang.Block); ok && b.Kind == lang.GeneratorBlock {
			return b
		}
	}
	return nil
}

// why says what the plain rules of a dead sugared rule need that no string
// holds: a symbol that never appears, or two symbols side by side that
// never are, with what does follow the first and, when one symbol put
// between them would do, the pattern that can occur.
func (r *reach) why(rules []reachRule) string {
	var reasons []string
	seen := map[string]bool{}
	for _, rr := range rules {
		s := r.missing(rr.lhs)
		if !seen[s] {
			seen[s] = true
			reasons = append(reasons, s)
		}
	}
	const most = 3
	if len(reasons) > most {
		reasons = append(reasons[:most], fmt.Sprintf("and %d more", len(reasons)-most))
	}
	if len(rules) == 1 {
		return reasons[0]
	}
	return fmt.Sprintf("none of its %d plain rules (its ordered expansion) can: %s", len(rules), strings.Join(reasons, "; "))
}

// missing is the first need of lhs that no string meets.
func (r *reach) missing(lhs []int) string {
	for _, s := range lhs {
		if !r.occurs(s) {
			return fmt.Sprintf("it needs %s, which is in none of the observations and no rule that can fire writes", r.names[s])
		}
	}
	for i := 1; i < len(lhs); i++ {
		a, b := lhs[i-1], lhs[i]
		if r.has(a, b) {
			continue
		}
		var next, via []string
		for c := range r.size {
			if r.has(a, c) {
				next = append(next, r.names[c])
				if r.has(c, b) && c != reachEnd {
					via = append(via, r.names[a]+r.names[c]+r.names[b])
				}
			}
		}
		msg := fmt.Sprintf("it needs %s%s, but %s is never directly followed by %s in the strings it can see (its observations and what its rules write): after %s come only %s",
			r.names[a], r.names[b], r.names[a], r.names[b], r.names[a], strings.Join(next, ", "))
		if len(via) > 0 {
			msg += fmt.Sprintf("; %s can occur", strings.Join(via, ", "))
		}
		return msg
	}
	return "it needs a string no run holds"
}
