package generate

import (
	"slices"

	"github.com/anynt/anynt/random"
)

// randomSym draws a symbol of the genome's programs; on a right-hand side
// half of the draws are actions, which are what programs output.
func (g *genome) randomSym(rng *random.Rand, rhs bool) geneSym {
	if rhs && rng.IntN(2) == 0 {
		return geneSym{kind: symAction, index: rng.IntN(g.actions)}
	}
	na, no := g.actions, len(g.objects)
	switch i := rng.IntN(2*na + 3 + no + genomeWorkSymbols); {
	case i < na:
		return geneSym{kind: symMarker, index: i}
	case i < 2*na:
		return geneSym{kind: symAction, index: i - na}
	case i == 2*na:
		return geneSym{kind: symPi}
	case i == 2*na+1:
		return geneSym{kind: symOdot}
	case i == 2*na+2:
		return geneSym{kind: symColon}
	case i < 2*na+3+no:
		return geneSym{kind: symObject, index: i - 2*na - 3}
	default:
		return geneSym{kind: symWork, index: i - 2*na - 3 - no}
	}
}

// randomRule draws a rule of up to two symbols a side.
func (g *genome) randomRule(rng *random.Rand) geneRule {
	r := geneRule{terminating: rng.IntN(2) == 0}
	for range rng.IntN(3) {
		r.lhs = append(r.lhs, geneTerm{alts: []geneSym{g.randomSym(rng, false)}})
	}
	for range rng.IntN(3) {
		r.rhs = append(r.rhs, g.randomSym(rng, true))
	}
	return r
}

// mutate applies n mutations that changed something (giving up after 10n
// tries) and fits the genome.
func (g *genome) mutate(rng *random.Rand, n int) {
	total := 0
	for _, m := range geneMutations {
		total += m.weight
	}
	for try := 0; n > 0 && try < 10*n; try++ {
		i := rng.IntN(total)
		for _, m := range geneMutations {
			if i < m.weight {
				if m.apply(g, rng) {
					n--
				}
				break
			}
			i -= m.weight
		}
	}
	g.fit()
}

// geneMutations are the operators on one genome, each with its weight; one
// returns false when it does not apply or found nothing valid.
var geneMutations = []struct {
	weight int
	apply  func(*genome, *random.Rand) bool
}{
	{3, (*genome).moveArrow},
	{1, (*genome).resizeSpace},
	{1, (*genome).resizeActions},
	{3, (*genome).addSymbol},
	{2, (*genome).deleteSymbol},
	{3, (*genome).replaceSymbol},
	{2, (*genome).changeSugar},
	{2, (*genome).addRule},
	{1, (*genome).deleteRule},
	{1, (*genome).swapRules},
	{2, (*genome).flipTerminating},
	{2, (*genome).exchangeRule},
	{1, (*genome).addOrDeleteObject},
}

// moveArrow points one non-stay arrow elsewhere, keeping the space valid.
func (g *genome) moveArrow(rng *random.Rand) bool {
	n := len(g.space)
	for range 10 {
		c, a, d := rng.IntN(n), 1+rng.IntN(g.actions-1), rng.IntN(n)
		old := g.space[c][a]
		if d == old {
			continue
		}
		g.space[c][a] = d
		if isValidTable(g.space) {
			return true
		}
		g.space[c][a] = old
	}
	return false
}

// resizeSpace adds a cell (that one arrow of an old cell now reaches) or
// removes one (its incoming arrows redirected), keeping the space valid.
func (g *genome) resizeSpace(rng *random.Rand) bool {
	n := len(g.space)
	grow := n < genomeMaxCells && (n == genomeMinCells || rng.IntN(2) == 0)
	for range 10 {
		var space [][]int
		if grow {
			for _, row := range g.space {
				space = append(space, slices.Clone(row))
			}
			row := make([]int, g.actions)
			row[0] = n
			for a := 1; a < g.actions; a++ {
				row[a] = rng.IntN(n + 1)
			}
			space = append(space, row)
			space[rng.IntN(n)][1+rng.IntN(g.actions-1)] = n
		} else {
			gone := rng.IntN(n)
			for c, row := range g.space {
				if c == gone {
					continue
				}
				next := make([]int, len(row))
				for a, d := range row {
					if d == gone {
						if d = rng.IntN(n); d == gone {
							d = c
						}
					}
					if d > gone {
						d--
					}
					next[a] = d
				}
				space = append(space, next)
			}
		}
		if isValidTable(space) {
			g.space = space
			return true
		}
	}
	return false
}

// resizeActions adds an action (a new column of arrows) or removes the last
// one, keeping the space valid; fit remaps the programs' symbols.
func (g *genome) resizeActions(rng *random.Rand) bool {
	grow := g.actions < genomeMaxActions && (g.actions == genomeMinActions || rng.IntN(2) == 0)
	for range 10 {
		space := make([][]int, len(g.space))
		for c, row := range g.space {
			if grow {
				space[c] = append(slices.Clone(row), rng.IntN(len(g.space)))
			} else {
				space[c] = slices.Clone(row[:len(row)-1])
			}
		}
		if isValidTable(space) {
			g.space, g.actions = space, len(space[0])
			return true
		}
		if !grow {
			return false // there is one way to remove the last action
		}
	}
	return false
}

// pickProgram returns a random program of the genome.
func (g *genome) pickProgram(rng *random.Rand) *geneProgram {
	ps := g.programs()
	return ps[rng.IntN(len(ps))]
}

// pickRule returns a random rule of a random program.
func (g *genome) pickRule(rng *random.Rand) *geneRule {
	p := *g.pickProgram(rng)
	return &p[rng.IntN(len(p))]
}

func (g *genome) addSymbol(rng *random.Rand) bool {
	r := g.pickRule(rng)
	if rng.IntN(2) == 0 {
		if len(r.lhs) >= genomeMaxSide {
			return false
		}
		r.lhs = slices.Insert(r.lhs, rng.IntN(len(r.lhs)+1), geneTerm{alts: []geneSym{g.randomSym(rng, false)}})
		return true
	}
	if len(r.rhs) >= genomeMaxSide {
		return false
	}
	r.rhs = slices.Insert(r.rhs, rng.IntN(len(r.rhs)+1), g.randomSym(rng, true))
	return true
}

func (g *genome) deleteSymbol(rng *random.Rand) bool {
	r := g.pickRule(rng)
	if rng.IntN(2) == 0 {
		if len(r.lhs) == 0 {
			return false
		}
		i := rng.IntN(len(r.lhs))
		r.lhs = slices.Delete(r.lhs, i, i+1)
		return true
	}
	if len(r.rhs) == 0 {
		return false
	}
	i := rng.IntN(len(r.rhs))
	r.rhs = slices.Delete(r.rhs, i, i+1)
	return true
}

func (g *genome) replaceSymbol(rng *random.Rand) bool {
	r := g.pickRule(rng)
	if rng.IntN(2) == 0 {
		if len(r.lhs) == 0 {
			return false
		}
		t := &r.lhs[rng.IntN(len(r.lhs))]
		s := g.randomSym(rng, false)
		if slices.Contains(t.alts, s) {
			return false
		}
		t.alts[rng.IntN(len(t.alts))] = s
		return true
	}
	if len(r.rhs) == 0 {
		return false
	}
	i, s := rng.IntN(len(r.rhs)), g.randomSym(rng, true)
	if r.rhs[i] == s {
		return false
	}
	r.rhs[i] = s
	return true
}

// changeSugar makes a left-hand term optional or not, or gives it an
// alternative more or one fewer.
func (g *genome) changeSugar(rng *random.Rand) bool {
	r := g.pickRule(rng)
	if len(r.lhs) == 0 {
		return false
	}
	t := &r.lhs[rng.IntN(len(r.lhs))]
	switch rng.IntN(3) {
	case 0:
		t.optional = !t.optional
	case 1:
		s := g.randomSym(rng, false)
		if len(t.alts) >= genomeMaxAlts || slices.Contains(t.alts, s) {
			return false
		}
		t.alts = append(t.alts, s)
	default:
		if len(t.alts) < 2 {
			return false
		}
		i := rng.IntN(len(t.alts))
		t.alts = slices.Delete(t.alts, i, i+1)
	}
	return true
}

func (g *genome) addRule(rng *random.Rand) bool {
	p := g.pickProgram(rng)
	if len(*p) >= genomeMaxRules {
		return false
	}
	*p = slices.Insert(*p, rng.IntN(len(*p)+1), g.randomRule(rng))
	return true
}

func (g *genome) deleteRule(rng *random.Rand) bool {
	p := g.pickProgram(rng)
	if len(*p) < 2 {
		return false
	}
	i := rng.IntN(len(*p))
	*p = slices.Delete(*p, i, i+1)
	return true
}

func (g *genome) swapRules(rng *random.Rand) bool {
	p := *g.pickProgram(rng)
	i, j := rng.IntN(len(p)), rng.IntN(len(p))
	if i == j {
		return false
	}
	p[i], p[j] = p[j], p[i]
	return true
}

func (g *genome) flipTerminating(rng *random.Rand) bool {
	r := g.pickRule(rng)
	r.terminating = !r.terminating
	return true
}

// exchangeRule copies or moves a rule from one program of the genome to
// another: between objects, or to or from Good/Evil.
func (g *genome) exchangeRule(rng *random.Rand) bool {
	from, to := g.pickProgram(rng), g.pickProgram(rng)
	if from == to || len(*to) >= genomeMaxRules {
		return false
	}
	i := rng.IntN(len(*from))
	r := (*from)[i].clone()
	if len(*from) > 1 && rng.IntN(2) == 0 {
		*from = slices.Delete(*from, i, i+1)
	}
	*to = slices.Insert(*to, rng.IntN(len(*to)+1), r)
	return true
}

// addOrDeleteObject adds an object that performs a random action, or
// deletes one: the objects after it are renumbered, and fit drops the
// symbols that named it.
func (g *genome) addOrDeleteObject(rng *random.Rand) bool {
	if len(g.objects) < genomeMaxObjects && (len(g.objects) == 0 || rng.IntN(2) == 0) {
		act := geneSym{kind: symAction, index: rng.IntN(g.actions)}
		g.objects = append(g.objects, geneProgram{{terminating: true, rhs: []geneSym{act}}})
		return true
	}
	k := rng.IntN(len(g.objects))
	g.objects = slices.Delete(g.objects, k, k+1)
	renumber := func(s *geneSym) {
		switch {
		case s.kind != symObject || s.index < k:
		case s.index == k:
			s.index = genomeMaxObjects // no object: fit drops it
		default:
			s.index--
		}
	}
	for _, p := range g.programs() {
		for _, r := range *p {
			for _, t := range r.lhs {
				for a := range t.alts {
					renumber(&t.alts[a])
				}
			}
			for i := range r.rhs {
				renumber(&r.rhs[i])
			}
		}
	}
	return true
}

// crossover gives g one part of other: its space (with its actions), its
// Good/Evil program, its objects, or one of its rules.
func (g *genome) crossover(rng *random.Rand, other *genome) {
	o := other.clone()
	switch rng.IntN(4) {
	case 0:
		g.actions, g.space = o.actions, o.space
	case 1:
		g.goodEvil = o.goodEvil
	case 2:
		g.objects = o.objects
	default:
		from := *o.pickProgram(rng)
		if to := g.pickProgram(rng); len(*to) < genomeMaxRules {
			*to = slices.Insert(*to, rng.IntN(len(*to)+1), from[rng.IntN(len(from))])
		}
	}
	g.fit()
}
