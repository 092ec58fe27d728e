package fuzz

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/random"
)

// chooser draws choices from fuzz bytes. When the bytes run out every
// choice is 0, which the generator reads as the simplest option, so every
// byte string, the empty one included, gives a rule file.
type chooser struct {
	data     []byte
	off      int
	backward bool // read from the end
}

// intn returns a choice in [0, n).
func (c *chooser) intn(n int) int {
	if n <= 1 || c.off >= len(c.data) {
		return 0
	}
	b := c.data[c.off]
	if c.backward {
		b = c.data[len(c.data)-1-c.off]
	}
	c.off++
	return int(b) % n
}

// oneIn reports true with probability about 1/n, false when the bytes run out.
func (c *chooser) oneIn(n int) bool {
	if c.off >= len(c.data) {
		return false
	}
	return c.intn(n) == n-1
}

func (c *chooser) pick(s []string) string { return s[c.intn(len(s))] }

// The generated files work on the alphabet a b c d; x is a symbol of the
// strings that χ does not match (when the alphabet is given or declared).
var (
	genAlphabet = []string{"a", "b", "c", "d"}
	genOutside  = "x"
)

// generate turns fuzz bytes into a differential case: a rule file that the
// compiler should accept, options, limits, and three runs.
func generate(data []byte) diffCase { return generateWith(data, (*ruleGen).rule) }

// generateWith is generate with rules written by rule.
func generateWith(data []byte, rule func(*ruleGen) string) diffCase {
	c := &chooser{data: data}
	pool := genAlphabet
	// χ ranges over the alphabet in its order, which need not be a b c d.
	alphabet := slices.Clone(genAlphabet)
	if c.oneIn(3) {
		for i := len(alphabet) - 1; i > 0; i-- {
			j := c.intn(i + 1)
			alphabet[i], alphabet[j] = alphabet[j], alphabet[i]
		}
	}
	var opts compiler.Options
	declare := false
	switch c.intn(3) {
	case 0: // the alphabet given as an option
		opts = compiler.Options{Alphabet: alphabet, Extra: []string{genOutside}}
		pool = append(pool[:len(pool):len(pool)], genOutside)
	case 1: // declared in the file
		opts = compiler.Options{Extra: []string{genOutside}}
		pool = append(pool[:len(pool):len(pool)], genOutside)
		declare = true
	case 2: // the default: the file's symbols in order, then the extra ones
		opts = compiler.Options{Extra: genAlphabet}
	}
	var rules []string
	for range 1 + c.intn(5) {
		g := &ruleGen{c: c, pool: pool, index: len(rules)}
		rules = append(rules, rule(g))
	}
	lines := rules
	if c.oneIn(4) { // some rules in a block, used once or twice
		from := c.intn(len(rules))
		to := from + 1 + c.intn(len(rules)-from)
		block := "block blk {\n\t" + strings.Join(rules[from:to], "\n\t") + "\n}"
		lines = append(append(slices.Clip(rules[:from]), "use blk"), rules[to:]...)
		if c.oneIn(3) {
			lines = append(lines, "use blk")
		}
		lines = append([]string{block}, lines...)
	}
	if declare {
		at := c.intn(len(lines) + 1)
		lines = slices.Insert(slices.Clip(lines), at, "alphabet "+strings.Join(alphabet, " "))
	}
	var src strings.Builder
	for i, l := range lines {
		src.WriteString(l)
		if i < len(lines)-1 && c.oneIn(6) {
			src.WriteString(" ; ")
		} else {
			src.WriteString("\n")
		}
	}
	// The runs read the bytes from the end, so that long rule files leave
	// them choices too.
	c = &chooser{data: data, backward: true}
	dc := diffCase{src: src.String(), opts: opts, runs: []diffRun{{input: randomString(c, pool)}}}
	for range 2 {
		run := diffRun{reset: c.oneIn(8)}
		if c.oneIn(3) {
			run.input = randomString(c, pool)
		} else {
			run.feed = true
		}
		dc.runs = append(dc.runs, run)
	}
	if c.oneIn(8) {
		dc.maxSteps = 1 + c.intn(4)
	}
	if c.oneIn(8) {
		dc.maxLen = 1 + c.intn(10)
	}
	return dc
}

// The long cases' strings start longer than the VM's longLen (512
// symbols), past which it keeps the string in a gap buffer and Δ stores it
// without copying it; their limits leave room for a few hundred steps,
// and their expansions are small, as the reference's steps cost the
// string's length times its rules.
const (
	longMinLen       = 513
	longMaxLen       = 900
	longMaxSteps     = 200
	longMaxExpansion = 40
)

// generateLong is generate for strings longer than the VM's longLen, with
// rules from longRule, where each run on a fresh input gets a long one (of
// one symbol with others strewn in, or uniform), drawn from data. It
// reports false for a file with no Δ, ∇ or ^Δ, which the long strings'
// memory would not test.
func generateLong(data []byte) (diffCase, bool) {
	c := generateWith(data, (*ruleGen).longRule)
	if !strings.ContainsAny(c.src, "Δ∇") && !strings.Contains(c.src, `\Delta`) {
		return c, false
	}
	h := fnv.New64a()
	h.Write(data)
	r := random.New(h.Sum64(), 20)
	pool := genAlphabet
	if slices.Contains(c.opts.Extra, genOutside) {
		pool = append(pool[:len(pool):len(pool)], genOutside)
	}
	c.runs = slices.Clone(c.runs)
	for i := range c.runs {
		if c.runs[i].feed {
			continue
		}
		in := make([]string, longMinLen+r.IntN(longMaxLen-longMinLen+1))
		mostly, strewn := pool[r.IntN(len(pool))], r.IntN(2) == 0
		for k := range in {
			in[k] = pool[r.IntN(len(pool))]
			if strewn && r.IntN(16) != 0 {
				in[k] = mostly
			}
		}
		c.runs[i].input = in
	}
	// A run may end in any state of the memory (a copy, the string, or
	// its shadow, see vm/memory.go), which the step limit decides.
	c.maxSteps, c.maxLen, c.maxExpansion = 1+r.IntN(longMaxSteps), 2*longMaxLen, longMaxExpansion
	return c, true
}

func randomString(c *chooser, pool []string) []string {
	n := c.intn(11)
	if c.oneIn(4) {
		n = c.intn(41)
	}
	s := []string{}
	for range n {
		s = append(s, c.pick(pool))
	}
	return s
}

// ruleGen writes one rule, keeping track of the subscripts it binds so that
// later occurrences and right-hand side references are valid.
type ruleGen struct {
	c      *chooser
	pool   []string
	index  int // the rule's place among the file's rules
	binds  []genBinding
	nextID int
	guards []int // the group alternatives the element being written stands in
	marked bool  // the rule has its one ^Δ mark
	stored bool  // the right-hand side has its one Δ
}

// genBinding is a subscript bound on the left-hand side.
type genBinding struct {
	sub    string // canonical: "1", "_I1"
	chi    bool   // bound by χ; otherwise by a group
	def    string // a group's text, repeated verbatim by later occurrences
	guards []int  // the alternatives it stands in: a later LHS occurrence must too
	marks  bool   // the group's text holds a mark, so it cannot be repeated on the LHS
}

// repeatable reports whether b may occur again at the current place of the
// left-hand side.
func (g *ruleGen) repeatable(b genBinding) bool {
	return !b.marks &&
		len(b.guards) <= len(g.guards) && slices.Equal(b.guards, g.guards[:len(b.guards)])
}

func (g *ruleGen) rule() string {
	var lhs []string
	for range g.c.intn(4) {
		lhs = append(lhs, g.lhsElem(0))
	}
	arrow := g.c.pick([]string{"->", "->", "->", "→", `\to`})
	if g.c.oneIn(3) {
		arrow += g.c.pick([]string{".", ".", "·", `\cdot`})
	}
	var rhs []string
	for range g.c.intn(5) {
		rhs = append(rhs, g.rhsElem())
	}
	return strings.TrimSpace(g.join(lhs) + " " + arrow + " " + g.join(rhs))
}

// longRule is rule for long strings, on which a rule that applies to any
// string would fire at every step and hide the rules after it. Rule i
// starts with the pool's symbol i and mostly writes symbol i-1, which the
// rule before it reads, and half the rules end with Δ: so the rules fire
// in chains, and steps that store the string and steps that change it
// without storing it take turns.
func (g *ruleGen) longRule() string {
	lhs := []string{g.pool[g.index%len(g.pool)]}
	for range g.c.intn(3) {
		if g.c.oneIn(3) {
			lhs = append(lhs, g.lhsElem(0))
		} else {
			lhs = append(lhs, g.c.pick(g.pool))
		}
	}
	arrow := "->"
	if g.c.oneIn(8) {
		arrow += "."
	}
	var rhs []string
	for range g.c.intn(3) {
		rhs = append(rhs, g.rhsElem())
	}
	if g.index > 0 && g.c.intn(4) != 0 {
		rhs = slices.Insert(rhs, g.c.intn(len(rhs)+1), g.pool[(g.index-1)%len(g.pool)])
	}
	if !g.marked && !g.stored && g.c.intn(2) == 0 {
		rhs = append(rhs, "Δ")
	}
	return strings.TrimSpace(g.join(lhs) + " " + arrow + " " + g.join(rhs))
}

// join juxtaposes elements or separates them with spaces; the generator
// never writes an element that juxtaposition would change (no element
// starts with a digit or '_', and escapes end with a space).
func (g *ruleGen) join(elems []string) string {
	var b strings.Builder
	for i, e := range elems {
		if i > 0 && g.c.intn(3) != 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e)
	}
	return b.String()
}

// subscript returns a fresh subscript: its canonical form and a spelling.
// A subscript spelled with '_' takes every letter and digit after it, so
// its spelling ends with a space.
func (g *ruleGen) subscript() (canonical, spelled string) {
	g.nextID++
	switch g.c.intn(6) {
	case 4:
		return fmt.Sprint(g.nextID), fmt.Sprintf("_%d ", g.nextID)
	case 5:
		s := fmt.Sprintf("_I%d", g.nextID)
		return s, s + " "
	}
	s := fmt.Sprint(g.nextID)
	return s, s
}

// spell writes a subscript: digits as they are or after '_'.
func (g *ruleGen) spell(sub string) string {
	switch {
	case sub[0] == '_':
		return sub + " "
	case g.c.oneIn(4):
		return "_" + sub + " "
	}
	return sub
}

func (g *ruleGen) chi() string {
	if g.c.oneIn(4) {
		return `\chi`
	}
	return "χ"
}

// chiText writes χ with an optional subscript; `\chi` alone is followed by
// a space so that a letter after it does not lengthen the escape.
func (g *ruleGen) chiText(sub string) string {
	chi := g.chi()
	if sub == "" && chi == `\chi` {
		return chi + " "
	}
	return chi + sub
}

func (g *ruleGen) exclusion(sub string) string {
	var set []string
	for range 1 + g.c.intn(2) {
		set = append(set, g.c.pick(g.pool))
	}
	notin := g.c.pick([]string{"∉", "∉", `\notin`})
	sep := g.c.pick([]string{", ", " ", ","})
	return "(" + g.chi() + sub + " " + notin + " {" + strings.Join(set, sep) + "})"
}

// lhsElem writes one left-hand side element at group depth depth.
func (g *ruleGen) lhsElem(depth int) string {
	var text string
	switch k := g.c.intn(9); {
	case k == 1:
		text = g.chiText("")
	case k == 2:
		sub, spelled := g.subscript()
		if g.c.oneIn(3) {
			text = g.exclusion(spelled)
		} else {
			text = g.chiText(spelled)
		}
		g.binds = append(g.binds, genBinding{sub: sub, chi: true, guards: slices.Clone(g.guards)})
	case k == 3:
		text = g.exclusion("")
	case (k == 4 || k == 5) && depth < 2:
		text = g.group(depth)
	case k == 6:
		var repeatable []genBinding
		for _, b := range g.binds {
			if g.repeatable(b) {
				repeatable = append(repeatable, b)
			}
		}
		if len(repeatable) == 0 {
			text = g.c.pick(g.pool)
			break
		}
		b := repeatable[g.c.intn(len(repeatable))]
		if b.chi {
			text = g.chiText(g.spell(b.sub))
		} else {
			text = b.def
		}
	default:
		text = g.c.pick(g.pool)
	}
	if !g.marked && g.c.oneIn(7) {
		g.marked = true
		text += g.c.pick([]string{"^Δ", "^Δ", `^\Delta `})
	}
	return text
}

// group writes ( … | … ) or [ … | … ], sometimes bound.
func (g *ruleGen) group(depth int) string {
	open, close := "(", ")"
	if g.c.intn(2) == 0 {
		open, close = "[", "]"
	}
	markedBefore := g.marked
	var alts []string
	for range 1 + g.c.intn(3) {
		g.nextID++
		g.guards = append(g.guards, g.nextID)
		var elems []string
		for range g.c.intn(3) {
			elems = append(elems, g.lhsElem(depth+1))
		}
		g.guards = g.guards[:len(g.guards)-1]
		alts = append(alts, g.join(elems))
	}
	text := open + strings.Join(alts, g.c.pick([]string{"|", " | "})) + close
	if g.c.intn(2) == 0 {
		sub, spelled := g.subscript()
		text += spelled
		g.binds = append(g.binds, genBinding{sub: sub, def: text, guards: slices.Clone(g.guards),
			marks: g.marked && !markedBefore})
	}
	return text
}

// rhsElem writes one right-hand side element.
func (g *ruleGen) rhsElem() string {
	switch k := g.c.intn(8); {
	case k == 1:
		return "∇"
	case k == 2 && len(g.binds) > 0:
		return g.reference()
	case k == 3 && len(g.binds) > 0:
		return g.reference()
	case k == 4 && !g.marked && !g.stored:
		g.stored = true
		return g.c.pick([]string{"Δ", `\Delta `})
	case k == 5 && len(g.binds) > 0:
		return g.conditional(0)
	}
	return g.c.pick(g.pool)
}

// conditional writes an optional group of the right-hand side: written when
// the references at its top level are bound.
func (g *ruleGen) conditional(depth int) string {
	parts := []string{g.reference()}
	for range g.c.intn(3) {
		switch g.c.intn(5) {
		case 0, 1:
			parts = append(parts, g.reference())
		case 2:
			parts = append(parts, "∇")
		case 3:
			if depth < 1 {
				parts = append(parts, g.conditional(depth+1))
				break
			}
			fallthrough
		default:
			parts = append(parts, g.c.pick(g.pool))
		}
	}
	if g.c.intn(2) == 0 {
		parts[0], parts[len(parts)-1] = parts[len(parts)-1], parts[0]
	}
	return "[" + g.join(parts) + "]"
}

// reference writes a bound subscript on the right-hand side: χk, or the
// group as it was written.
func (g *ruleGen) reference() string {
	b := g.binds[g.c.intn(len(g.binds))]
	if b.chi {
		return g.chiText(g.spell(b.sub))
	}
	return b.def
}
