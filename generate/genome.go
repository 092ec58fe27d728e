package generate

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// The bounds of a genome, which keep the search among small environments.
const (
	genomeMinCells, genomeMaxCells     = 2, 6
	genomeMinActions, genomeMaxActions = 2, 4
	genomeMaxObjects                   = 2
	genomeMaxRules                     = 6 // of a program
	genomeMaxSide                      = 4 // elements of a rule side
	genomeMaxAlts                      = 3 // alternatives of a group
	genomeWorkSymbols                  = 2 // X and Y
)

// genome is an environment as the operators see it.
type genome struct {
	actions  int     // n_a; action 0 is the stay action
	space    [][]int // space[c][a]: the cell that action a leads to from cell c, from 0
	goodEvil geneProgram
	objects  []geneProgram // of ω1, ω2
}

// geneProgram is a rule list, in priority order.
type geneProgram []geneRule

// geneRule is a rule: a left-hand side of terms, a right-hand side of plain
// symbols.
type geneRule struct {
	lhs         []geneTerm
	rhs         []geneSym
	terminating bool
}

// geneTerm is one element of a left-hand side: a symbol, or a group of
// alternative symbols, optional or not.
type geneTerm struct {
	alts     []geneSym
	optional bool
}

// geneSym is a symbol by its role, so that it survives renaming when the
// actions or objects change.
type geneSym struct {
	kind  symKind
	index int // of the action, object or work symbol
}

type symKind uint8

const (
	symMarker symKind = iota // an action's observation marker
	symAction
	symPi
	symOdot
	symObject
	symColon
	symWork
)

// actionNames are s l r for three actions and s a1 a2 … otherwise.
func (g *genome) actionNames() []string {
	if g.actions == 3 {
		return []string{"s", "l", "r"}
	}
	names := []string{"s"}
	for i := 1; i < g.actions; i++ {
		names = append(names, "a"+strconv.Itoa(i))
	}
	return names
}

func (g *genome) name(s geneSym) string {
	switch s.kind {
	case symMarker:
		a := g.actionNames()[s.index]
		return strings.ToUpper(a[:1]) + a[1:]
	case symAction:
		return g.actionNames()[s.index]
	case symPi:
		return "π"
	case symOdot:
		return "⊙"
	case symObject:
		return "ω" + strconv.Itoa(s.index+1)
	case symColon:
		return ":"
	}
	return string(rune('X' + s.index))
}

// source renders the genome as an environment file.
func (g *genome) source() string {
	var b strings.Builder
	fmt.Fprintf(&b, "actions %s\n\nspace table {\n", strings.Join(g.actionNames(), " "))
	for _, row := range g.space {
		cells := make([]string, len(row))
		for a, d := range row {
			cells[a] = strconv.Itoa(d + 1)
		}
		fmt.Fprintf(&b, "\t%s\n", strings.Join(cells, " "))
	}
	b.WriteString("}\n")
	for k, p := range g.objects {
		fmt.Fprintf(&b, "\nobject ω%d {\n", k+1)
		g.writeProgram(&b, p)
		b.WriteString("}\n")
	}
	b.WriteString("\ngoodevil {\n")
	g.writeProgram(&b, g.goodEvil)
	b.WriteString("}\n")
	return b.String()
}

func (g *genome) writeProgram(b *strings.Builder, p geneProgram) {
	for _, r := range p {
		var parts []string
		for _, t := range r.lhs {
			names := make([]string, len(t.alts))
			for i, s := range t.alts {
				names[i] = g.name(s)
			}
			switch {
			case t.optional:
				parts = append(parts, "["+strings.Join(names, "|")+"]")
			case len(names) > 1:
				parts = append(parts, "("+strings.Join(names, "|")+")")
			default:
				parts = append(parts, names[0])
			}
		}
		if r.terminating {
			parts = append(parts, "->.")
		} else {
			parts = append(parts, "->")
		}
		for _, s := range r.rhs {
			parts = append(parts, g.name(s))
		}
		b.WriteString("\t" + strings.Join(parts, " ") + "\n")
	}
}

func (g *genome) clone() *genome {
	c := &genome{actions: g.actions, goodEvil: g.goodEvil.clone()}
	for _, row := range g.space {
		c.space = append(c.space, slices.Clone(row))
	}
	for _, p := range g.objects {
		c.objects = append(c.objects, p.clone())
	}
	return c
}

func (p geneProgram) clone() geneProgram {
	out := make(geneProgram, len(p))
	for i, r := range p {
		out[i] = r.clone()
	}
	return out
}

func (r geneRule) clone() geneRule {
	c := geneRule{rhs: slices.Clone(r.rhs), terminating: r.terminating}
	for _, t := range r.lhs {
		c.lhs = append(c.lhs, geneTerm{alts: slices.Clone(t.alts), optional: t.optional})
	}
	return c
}

// programs are the genome's rule lists, Good/Evil first.
func (g *genome) programs() []*geneProgram {
	ps := []*geneProgram{&g.goodEvil}
	for k := range g.objects {
		ps = append(ps, &g.objects[k])
	}
	return ps
}

// isValidTable reports whether a table is a space of the class ([P] §4.1).
func isValidTable(space [][]int) bool {
	return len((&env.Space{Dest: space}).Check()) == 0
}

// fit makes the programs agree with the actions and objects: markers and
// actions that no longer exist are remapped, objects that no longer exist
// are dropped, groups lose repeated alternatives and empty groups, and a
// program left without rules gets `->.` (it does nothing). A rule that
// would rewrite forever once it applies (its left-hand side matches inside
// its right-hand side, as `-> l` or `π -> πX`) is made terminating: such a
// rule only runs its behaviour to the step or length bound, which costs
// every interaction 10,000 steps and says nothing.
func (g *genome) fit() {
	fitSym := func(s geneSym) (geneSym, bool) {
		switch s.kind {
		case symMarker, symAction:
			s.index %= g.actions
		case symObject:
			return s, s.index < len(g.objects)
		}
		return s, true
	}
	for _, p := range g.programs() {
		for i := range *p {
			r := &(*p)[i]
			var lhs []geneTerm
			for _, t := range r.lhs {
				var alts []geneSym
				for _, s := range t.alts {
					if s, ok := fitSym(s); ok && !slices.Contains(alts, s) {
						alts = append(alts, s)
					}
				}
				if len(alts) > 0 {
					lhs = append(lhs, geneTerm{alts: alts, optional: t.optional})
				}
			}
			var rhs []geneSym
			for _, s := range r.rhs {
				if s, ok := fitSym(s); ok {
					rhs = append(rhs, s)
				}
			}
			r.lhs, r.rhs = lhs, rhs
			if !r.terminating && r.rewritesForever() {
				r.terminating = true
			}
		}
		if len(*p) == 0 {
			*p = geneProgram{{terminating: true}}
		}
	}
}

// rewritesForever reports whether the left-hand side can match inside the
// right-hand side, so that once the rule applies it applies again after
// every rewrite.
func (r geneRule) rewritesForever() bool {
	var match func(terms []geneTerm, rhs []geneSym) bool
	match = func(terms []geneTerm, rhs []geneSym) bool {
		if len(terms) == 0 {
			return true
		}
		t := terms[0]
		if t.optional && match(terms[1:], rhs) {
			return true
		}
		return len(rhs) > 0 && slices.Contains(t.alts, rhs[0]) && match(terms[1:], rhs[1:])
	}
	for start := range len(r.rhs) + 1 {
		if match(r.lhs, r.rhs[start:]) {
			return true
		}
	}
	return false
}

// seedGenomes are the hand-made start of the first population.
func seedGenomes() []*genome {
	sym := func(k symKind, i int) geneSym { return geneSym{kind: k, index: i} }
	plain := func(s geneSym) geneTerm { return geneTerm{alts: []geneSym{s}} }
	pair := [][]int{{0, 1}, {1, 0}}                  // two cells, the paper's +r+r
	ring := [][]int{{0, 2, 1}, {1, 0, 2}, {2, 1, 0}} // three cells, l left and r right
	stay := geneProgram{{terminating: true, rhs: []geneSym{sym(symAction, 0)}}}
	move := geneProgram{{terminating: true, rhs: []geneSym{sym(symAction, 1)}}}
	chase := geneProgram{{ // π [⊙] L ->. r r
		lhs:         []geneTerm{plain(sym(symPi, 0)), {alts: []geneSym{sym(symOdot, 0)}, optional: true}, plain(sym(symMarker, 1))},
		rhs:         []geneSym{sym(symAction, 2), sym(symAction, 2)},
		terminating: true,
	}}
	erase := geneProgram{ // (π|:) -> then ->. l
		{lhs: []geneTerm{{alts: []geneSym{sym(symPi, 0), sym(symColon, 0)}}}},
		{terminating: true, rhs: []geneSym{sym(symAction, 1)}},
	}
	return []*genome{
		{actions: 2, space: pair, goodEvil: stay}, // the paper's Example 5
		{actions: 2, space: pair, goodEvil: move},
		{actions: 3, space: ring, goodEvil: chase},
		{actions: 3, space: ring, goodEvil: erase},
	}
}

// canonicalSource is the genome's source in the form lang.Format prints, or
// as rendered when it does not parse (the filters will reject it).
func (g *genome) canonicalSource() string {
	src := g.source()
	f, err := lang.Parse("", []byte(src))
	if err != nil {
		return src
	}
	return string(lang.Format(f))
}
