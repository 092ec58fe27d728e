package generate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// EvolveSettings fix a run of Evolve.
type EvolveSettings struct {
	Seed        uint64 // decides every choice of the run and the filters' seed
	Generations int    // generations after the first population
	Population  int    // environments in a population, and candidates a generation
	// Filters are the settings of Check. Their Seed is replaced by the
	// run's; an empty Good agent is the oracle.
	Filters FilterSettings
}

// DefaultEvolve are the defaults of anynt evolve: 10 generations of 16, the
// filters at 60 episodes of 60 interactions with the oracle.
var DefaultEvolve = EvolveSettings{
	Seed: 1, Generations: 10, Population: 16,
	Filters: FilterSettings{Episodes: 60, Steps: 60, Good: "oracle"},
}

// Generation is the record of one generation: how its population scores
// and what became of its candidates.
type Generation struct {
	Number     int     `json:"generation"` // 0 is the first population
	Best       float64 `json:"best_fitness"`
	Mean       float64 `json:"mean_fitness"` // over the population
	BestBits   float64 `json:"best_bits"`    // the best environment's description length
	Population int     `json:"population"`
	Candidates int     `json:"candidates"`
	Accepted   int     `json:"accepted"`
	// Rejected counts the rejected candidates by reason (ReasonSyntax,
	// ReasonSpace, ReasonUnbalanced, ReasonInsensitive, ReasonDuplicate).
	Rejected map[string]int `json:"rejected"`
}

// Individual is an environment of a population.
type Individual struct {
	Source  string // the canonical form, as lang.Format prints it
	Verdict Verdict
	Born    int // the generation that made it
	genome  *genome
}

// Evolution is the outcome of a run: a record a generation and the last
// population, best first.
type Evolution struct {
	Settings    EvolveSettings
	Generations []Generation
	Population  []Individual
}

// Evolve runs the evolution that s describes. onGeneration, if not nil, is
// called after each generation with its record; onCandidate, if not nil,
// after each candidate's filters with the generation and the number of its
// candidates done. When ctx is done, Evolve returns the generations it
// finished with ctx's error.
func Evolve(ctx context.Context, s EvolveSettings, onGeneration func(Generation), onCandidate func(generation, done int)) (*Evolution, error) {
	if s.Population < 2 || s.Generations < 0 || s.Filters.Episodes < 2 || s.Filters.Steps < 1 {
		return nil, errors.New("evolve needs a population of at least 2, at least 2 episodes and 1 step, and no negative generations")
	}
	s.Filters.Seed = s.Seed
	if s.Filters.Good == "" {
		s.Filters.Good = DefaultFilters.Good
	}
	r := &evolution{settings: s, seen: map[string]bool{}, onCandidate: onCandidate}
	ev := &Evolution{Settings: s}
	finish := func(rec Generation) {
		rec.Population = len(r.pop)
		rec.Best, rec.BestBits = r.pop[0].Verdict.Fitness, r.pop[0].Verdict.Bits
		for _, ind := range r.pop {
			rec.Mean += ind.Verdict.Fitness / float64(len(r.pop))
		}
		ev.Generations = append(ev.Generations, rec)
		ev.Population = slices.Clone(r.pop)
		if onGeneration != nil {
			onGeneration(rec)
		}
	}

	rec, err := r.first(ctx)
	if err != nil {
		return ev, err
	}
	if len(r.pop) == 0 {
		return ev, errors.New("no seed environment passed the filters; give them more episodes or steps")
	}
	finish(rec)
	for g := 1; g <= s.Generations; g++ {
		rec, err := r.next(ctx, g)
		if err != nil {
			return ev, err
		}
		finish(rec)
	}
	return ev, nil
}

// evolution is the state of a run.
type evolution struct {
	settings    EvolveSettings
	pop         []Individual // best first
	seen        map[string]bool
	onCandidate func(generation, done int)
}

// stream is generation g's source of random choices.
func (r *evolution) stream(g int) *rand.Rand {
	return rand.New(rand.NewPCG(r.settings.Seed, env.EpisodeSeed(r.settings.Seed, g)))
}

// first makes generation 0: the seeds that pass the filters, then mutants
// of the population (or of the seeds, while it is empty) until it is full,
// within 20 attempts an environment.
func (r *evolution) first(ctx context.Context) (Generation, error) {
	rng := r.stream(0)
	rec := Generation{Rejected: map[string]int{}}
	seeds := seedGenomes()
	var accepted []Individual
	for _, g := range seeds {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		if ind, ok := r.consider(g, 0, &rec); ok {
			accepted = append(accepted, ind)
		}
	}
	for try := 0; len(accepted) < r.settings.Population && try < 20*r.settings.Population; try++ {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		parent := seeds[rng.IntN(len(seeds))]
		if len(accepted) > 0 {
			parent = accepted[rng.IntN(len(accepted))].genome
		}
		child := parent.clone()
		child.mutate(rng, 1+rng.IntN(2))
		if ind, ok := r.consider(child, 0, &rec); ok {
			accepted = append(accepted, ind)
		}
	}
	r.keepBest(accepted)
	return rec, nil
}

// next breeds generation g from the population.
func (r *evolution) next(ctx context.Context, g int) (Generation, error) {
	rng := r.stream(g)
	rec := Generation{Number: g, Rejected: map[string]int{}}
	var accepted []Individual
	for range r.settings.Population {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		child := r.breed(rng)
		if ind, ok := r.consider(child, g, &rec); ok {
			accepted = append(accepted, ind)
		}
	}
	r.keepBest(accepted)
	return rec, nil
}

// breed makes one child: a tournament winner, crossed with a second one a
// third of the time, mutated once or twice. It tries a few times for a
// child that no candidate was before.
func (r *evolution) breed(rng *rand.Rand) *genome {
	var child *genome
	for range 8 {
		child = r.tournament(rng).genome.clone()
		if rng.IntN(3) == 0 {
			child.crossover(rng, r.tournament(rng).genome)
		}
		child.mutate(rng, 1+rng.IntN(2))
		if !r.seen[child.canonicalSource()] {
			break
		}
	}
	return child
}

func (r *evolution) tournament(rng *rand.Rand) Individual {
	return r.pop[min(rng.IntN(len(r.pop)), rng.IntN(len(r.pop)))]
}

// consider runs the filters on a candidate, unless an earlier candidate was
// the same environment, and counts the outcome in rec.
func (r *evolution) consider(g *genome, generation int, rec *Generation) (Individual, bool) {
	rec.Candidates++
	defer func() {
		if r.onCandidate != nil {
			r.onCandidate(generation, rec.Candidates)
		}
	}()
	src := g.canonicalSource()
	if r.seen[src] {
		rec.Rejected[ReasonDuplicate]++
		return Individual{}, false
	}
	r.seen[src] = true
	v := Check(fmt.Sprintf("generation-%d.anynt", generation), src, r.settings.Filters)
	if !v.Accepted {
		rec.Rejected[v.Reason]++
		return Individual{}, false
	}
	rec.Accepted++
	return Individual{Source: src, Verdict: v, Born: generation, genome: g}, true
}

// keepBest keeps the best of the population and the accepted children.
func (r *evolution) keepBest(accepted []Individual) {
	all := append(slices.Clone(r.pop), accepted...)
	slices.SortStableFunc(all, func(a, b Individual) int {
		if c := cmp.Compare(b.Verdict.Fitness, a.Verdict.Fitness); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Verdict.Bits, b.Verdict.Bits); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Born, b.Born); c != 0 {
			return c
		}
		return strings.Compare(a.Source, b.Source)
	})
	r.pop = all[:min(len(all), r.settings.Population)]
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

// File is the text of the population's environment of the given rank (from
// 1): a header comment with the run's seed and settings, the generation
// that made it, its fitness and bits, then its canonical source. The whole
// text is in canonical form.
func (ev *Evolution) File(rank int) string {
	ind := ev.Population[rank-1]
	s, v := ev.Settings, ind.Verdict
	return fmt.Sprintf(`# anynt evolve --seed %d --generations %d --population %d --episodes %d --steps %d
# rank %d of generation %d, born in generation %d
# fitness %.4f = (%s %.4f - random %.4f) / log2(%.2f bits)

%s`, s.Seed, s.Generations, s.Population, s.Filters.Episodes, s.Filters.Steps,
		rank, len(ev.Generations)-1, ind.Born,
		v.Fitness, s.Filters.Good, v.Good.Mean, v.Random.Mean, v.Bits, ind.Source)
}

// WriteFiles writes the last population to dir, one file an environment,
// best first: best-01.anynt, best-02.anynt, …. It creates dir if needed and
// returns the paths it wrote.
func (ev *Evolution) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	width := max(2, len(strconv.Itoa(len(ev.Population))))
	var paths []string
	for i := range ev.Population {
		p := filepath.Join(dir, fmt.Sprintf("best-%0*d.anynt", width, i+1))
		if err := os.WriteFile(p, []byte(ev.File(i+1)), 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}

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

// randomSym draws a symbol of the genome's programs; on a right-hand side
// half of the draws are actions, which are what programs output.
func (g *genome) randomSym(rng *rand.Rand, rhs bool) geneSym {
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
func (g *genome) randomRule(rng *rand.Rand) geneRule {
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
func (g *genome) mutate(rng *rand.Rand, n int) {
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
	apply  func(*genome, *rand.Rand) bool
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
func (g *genome) moveArrow(rng *rand.Rand) bool {
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
func (g *genome) resizeSpace(rng *rand.Rand) bool {
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
func (g *genome) resizeActions(rng *rand.Rand) bool {
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
func (g *genome) pickProgram(rng *rand.Rand) *geneProgram {
	ps := g.programs()
	return ps[rng.IntN(len(ps))]
}

// pickRule returns a random rule of a random program.
func (g *genome) pickRule(rng *rand.Rand) *geneRule {
	p := *g.pickProgram(rng)
	return &p[rng.IntN(len(p))]
}

func (g *genome) addSymbol(rng *rand.Rand) bool {
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

func (g *genome) deleteSymbol(rng *rand.Rand) bool {
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

func (g *genome) replaceSymbol(rng *rand.Rand) bool {
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
func (g *genome) changeSugar(rng *rand.Rand) bool {
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

func (g *genome) addRule(rng *rand.Rand) bool {
	p := g.pickProgram(rng)
	if len(*p) >= genomeMaxRules {
		return false
	}
	*p = slices.Insert(*p, rng.IntN(len(*p)+1), g.randomRule(rng))
	return true
}

func (g *genome) deleteRule(rng *rand.Rand) bool {
	p := g.pickProgram(rng)
	if len(*p) < 2 {
		return false
	}
	i := rng.IntN(len(*p))
	*p = slices.Delete(*p, i, i+1)
	return true
}

func (g *genome) swapRules(rng *rand.Rand) bool {
	p := *g.pickProgram(rng)
	i, j := rng.IntN(len(p)), rng.IntN(len(p))
	if i == j {
		return false
	}
	p[i], p[j] = p[j], p[i]
	return true
}

func (g *genome) flipTerminating(rng *rand.Rand) bool {
	r := g.pickRule(rng)
	r.terminating = !r.terminating
	return true
}

// exchangeRule copies or moves a rule from one program of the genome to
// another: between objects, or to or from Good/Evil.
func (g *genome) exchangeRule(rng *rand.Rand) bool {
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
func (g *genome) addOrDeleteObject(rng *rand.Rand) bool {
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
func (g *genome) crossover(rng *rand.Rand, other *genome) {
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
