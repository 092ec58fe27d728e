package complexity

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/stdlib"
)

// Part is one line of the breakdown of a description length.
type Part struct {
	Name string  `json:"name"`
	Bits float64 `json:"bits"`
}

// coder charges programs. It knows the shared blocks, which programs refer
// to by index, and the base alphabet every program of the file starts with.
type coder struct {
	file   *lang.File
	base   map[string]bool // the symbols every program has without paying
	blocks []string        // the shared blocks used, in order of first use
}

// blockIndex finds a used block by name, recording it on first use.
func (c *coder) use(name string) {
	for _, b := range c.blocks {
		if b == name {
			return
		}
	}
	c.blocks = append(c.blocks, name)
	if b := c.block(name); b != nil {
		c.usesIn(b.Rules)
	}
}

func (c *coder) block(name string) *lang.Block {
	if b := c.file.Block(name); b != nil {
		return b
	}
	return stdlib.Lookup(name)
}

// usesIn records the blocks a rule list uses, transitively.
func (c *coder) usesIn(entries []lang.Entry) {
	for _, e := range entries {
		if u, ok := e.(*lang.Use); ok {
			c.use(u.Name)
		}
	}
}

// program charges a rule list: the number of its own work symbols (their
// names are free: renaming them changes nothing), the number of entries,
// and each entry, a bit saying rule or use, then the rule or the index of
// the block used.
func (c *coder) program(entries []lang.Entry) float64 {
	work := map[string]bool{}
	for _, e := range entries {
		if r, ok := e.(*lang.Rule); ok {
			collect(r.LHS, c.base, work)
			collect(r.RHS, c.base, work)
		}
	}
	sigma := len(c.base) + len(work)
	bits := natural(len(work)) + natural(len(entries))
	for _, e := range entries {
		bits++
		switch e := e.(type) {
		case *lang.Rule:
			bits += ruleBits(e, sigma)
		case *lang.Use:
			bits += choice(max(2, len(c.blocks)))
		}
	}
	return bits
}

func collect(elems []lang.Elem, base, work map[string]bool) {
	add := func(s *lang.Symbol) {
		if !base[s.Name] {
			work[s.Name] = true
		}
	}
	for _, e := range elems {
		switch e := e.(type) {
		case *lang.Symbol:
			add(e)
		case *lang.Wildcard:
			for _, s := range e.Except {
				add(s)
			}
		case *lang.Group:
			for _, a := range e.Alts {
				collect(a, base, work)
			}
		}
	}
}

// listText spells a rule list, to tell identical behaviours.
func listText(entries []lang.Entry) string {
	var b strings.Builder
	for _, e := range entries {
		switch e := e.(type) {
		case *lang.Rule:
			b.WriteString(lang.RuleString(e))
		case *lang.Use:
			b.WriteString("use " + e.Name)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ruleBits charges a rule: a bit for terminating, the index of its marked
// element (0 for none), and both sides.
func ruleBits(r *lang.Rule, sigma int) float64 {
	rc := &ruleCoder{sigma: sigma, bound: map[string]bool{}}
	mark, _ := markIndex(r.LHS, 1)
	return 1 + natural(mark) + rc.seq(r.LHS) + rc.seq(r.RHS)
}

// markIndex numbers the left-hand side's elements in pre-order from n and
// returns the number of the marked one (0 if none) and the next number.
func markIndex(elems []lang.Elem, n int) (int, int) {
	found := 0
	for _, e := range elems {
		here := n
		n++
		marked := false
		switch e := e.(type) {
		case *lang.Symbol:
			marked = e.Marked
		case *lang.Wildcard:
			marked = e.Marked
		case *lang.Group:
			marked = e.Marked
			for _, a := range e.Alts {
				var inner int
				inner, n = markIndex(a, n)
				if found == 0 {
					found = inner
				}
			}
		}
		if marked && found == 0 {
			found = here
		}
	}
	return found, n
}

// ruleCoder charges the elements of one rule. A symbol costs a 1-bit tag
// and log2 of the alphabet; any other element a 1-bit tag, log2 5 for its
// kind (group, wildcard, reference, ∇, Δ), and its fields. Subscripts are
// numbered in order of first occurrence, so a later occurrence is a
// reference to one of the bindings so far.
type ruleCoder struct {
	sigma int
	bound map[string]bool
}

func (rc *ruleCoder) seq(elems []lang.Elem) float64 {
	bits := natural(len(elems))
	for _, e := range elems {
		bits += rc.elem(e)
	}
	return bits
}

func (rc *ruleCoder) elem(e lang.Elem) float64 {
	const tag = 1
	kind := choice(5)
	switch e := e.(type) {
	case *lang.Symbol:
		return tag + choice(rc.sigma)
	case *lang.Wildcard:
		if rc.bound[e.Bind] {
			return tag + kind + choice(max(2, len(rc.bound)))
		}
		bits := tag + kind + 2 // binds? has exclusions?
		if e.HasExcept {
			bits += natural(len(e.Except)) + float64(len(e.Except))*choice(rc.sigma)
		}
		rc.bind(e.Bind)
		return bits
	case *lang.Group:
		if rc.bound[e.Bind] {
			return tag + kind + choice(max(2, len(rc.bound)))
		}
		bits := tag + kind + 2 + natural(len(e.Alts)-1) // optional? binds?
		for _, a := range e.Alts {
			bits += rc.seq(a)
		}
		rc.bind(e.Bind)
		return bits
	}
	return tag + kind // ∇ or Δ
}

func (rc *ruleCoder) bind(sub string) {
	if sub != "" {
		rc.bound[sub] = true
	}
}

// RuleFile returns the description length of a bare rule file: its
// alphabet's size and its main algorithm, with the blocks it uses charged
// once each.
func RuleFile(f *lang.File, alphabet []string) []Part {
	c := &coder{file: f, base: map[string]bool{}}
	for _, s := range alphabet {
		c.base[s] = true
	}
	c.usesIn(f.Rules())
	parts := []Part{{"alphabet", natural(len(alphabet))}, {"rules", c.program(f.Rules())}}
	return append(parts, c.shared()...)
}

// shared charges the blocks used, once each.
func (c *coder) shared() []Part {
	parts := []Part{{"shared blocks", natural(len(c.blocks))}}
	for _, name := range c.blocks {
		if b := c.block(name); b != nil {
			parts = append(parts, Part{"block " + name, c.program(b.Rules)})
		}
	}
	return parts
}

// Arrows is a space as the code reads it: Arrows()[cell][action] is the
// cell the action leads to, action 0 the stay action. env.Space and
// env.Env satisfy it.
type Arrows interface{ Arrows() [][]int }

// Loaded is what the code reads of an environment beyond its source: what
// the environment loader worked out from it. env.Env satisfies it; the
// package does not import env, so that charging an environment never runs
// one (measuring Kt^max is the runner's job, see Run).
type Loaded interface {
	Arrows
	// BaseSymbols are the symbols every behaviour starts with.
	BaseSymbols() []string
	// ActionNames are the actions, the stay action first.
	ActionNames() []string
	// Rewards are the reward value, or the levels when there are any.
	Rewards() (value float64, levels []float64)
	// Placement is the declared cell of π, ⊕, ⊖ and each object, or -1.
	Placement() []int
	// GoodEvilPattern is Good and Evil's cyclic pattern, nil for a program.
	GoodEvilPattern() []int
}

// Environment returns the description length of an environment, part by
// part (docs/complexity.md).
func Environment(f *lang.File, e Loaded) []Part {
	c := &coder{file: f, base: map[string]bool{}}
	for _, s := range e.BaseSymbols() {
		c.base[s] = true
	}
	var parts []Part
	actions := e.ActionNames()
	parts = append(parts, Part{"actions", natural(len(actions) - 2)})
	parts = append(parts, Part{"space", spaceBits(f, e)})
	var objects []*lang.Block
	var goodEvil lang.Decl
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *lang.Block:
			switch d.Kind {
			case lang.ObjectBlock:
				objects = append(objects, d)
				c.usesIn(d.Rules)
			case lang.GoodEvilBlock:
				goodEvil = d
				c.usesIn(d.Rules)
			}
		case *lang.Pattern:
			goodEvil = d
		}
	}
	// An object whose behaviour reads exactly as the one before's costs one
	// bit: many identical objects cost little more than one ([P] §6.2).
	parts = append(parts, Part{"objects", natural(len(objects))})
	previous := ""
	for _, o := range objects {
		text := listText(o.Rules)
		bits := 1.0
		if text != previous {
			bits += c.program(o.Rules)
		}
		previous = text
		parts = append(parts, Part{"object " + o.Name, bits})
	}
	switch g := goodEvil.(type) {
	case *lang.Block:
		parts = append(parts, Part{"good/evil", 1 + c.program(g.Rules)})
	case *lang.Pattern:
		parts = append(parts, Part{"good/evil", PatternBits(len(g.Actions), len(actions))})
	}
	parts = append(parts, c.shared()...)
	parts = append(parts, Part{"rewards", rewardBits(e)})
	placement := 0.0
	for _, cell := range e.Placement() {
		placement++
		if cell >= 0 {
			placement += choice(len(e.Arrows()))
		}
	}
	parts = append(parts, Part{"placement", placement})
	parts = append(parts, Part{"settings", settingsBits(f)})
	return parts
}

// spaceBits charges the space as the Markov algorithm that writes its code
// ([P] §6.1): a written generator as it is; a table or a literal code as the
// one-rule generator that writes its canonical thesis-dialect code. A bit
// says the dialect.
func spaceBits(f *lang.File, e Loaded) float64 {
	base := map[string]bool{"+": true, "-": true, ":": true}
	for _, a := range e.ActionNames() {
		base[a] = true
	}
	for _, d := range f.Decls {
		if b, ok := d.(*lang.Block); ok && b.Kind == lang.GeneratorBlock {
			gc := &coder{file: f, base: base}
			return 1 + gc.program(b.Rules)
		}
	}
	return ExplicitSpaceBits(e, e.ActionNames())
}

// ExplicitSpaceBits charges a space given as a table or a code: as the
// one-rule generator ->. CODE that writes its canonical code.
func ExplicitSpaceBits(s Arrows, actions []string) float64 {
	length := canonicalLength(s)
	sigma := len(actions) + 3 // the actions, +, - and :
	// natural(0) work symbols, natural(1) entry, the rule-or-use bit, then
	// the rule ->. CODE: terminating bit, no mark, empty LHS, the code.
	rule := 1 + natural(0) + natural(0) + natural(length) + float64(length)*(1+choice(sigma))
	return 1 + natural(0) + natural(1) + 1 + rule
}

// PatternBits charges a Good/Evil pattern of n actions out of na: a bit
// for "pattern", its length, and its actions.
func PatternBits(n, na int) float64 { return 1 + natural(n-1) + float64(n)*choice(na) }

// Natural is the length of the universal code of n (Elias delta of n+1).
func Natural(n int) float64 { return natural(n) }

// CanonicalCode writes a space in the thesis dialect: cells separated by
// ':', each non-stay arrow that leaves its cell as the action and its
// offset in signs, the shorter way round.
func CanonicalCode(s Arrows, actions []string) []string {
	dest := s.Arrows()
	n := len(dest)
	var code []string
	for c, row := range dest {
		if c > 0 {
			code = append(code, ":")
		}
		for a, d := range row {
			if a == 0 || d == c {
				continue
			}
			off := ((d-c)%n + n) % n
			sign := "+"
			if off > n-off {
				off, sign = n-off, "-"
			}
			code = append(code, actions[a])
			for range off {
				code = append(code, sign)
			}
		}
	}
	return code
}

// canonicalLength is the number of symbols of CanonicalCode, counted
// without writing them, which is all a description length needs: the
// colons between cells, and for each arrow its action and its offset.
func canonicalLength(s Arrows) int {
	dest := s.Arrows()
	n := len(dest)
	length := max(n-1, 0)
	for c, row := range dest {
		for a, d := range row {
			if a > 0 && d != c {
				off := ((d-c)%n + n) % n
				length += 1 + min(off, n-off)
			}
		}
	}
	return length
}

// rewardBits charges the rewards: a bit for the default (1/2), else the
// value, or the levels, as exact fractions p/q.
func rewardBits(e Loaded) float64 {
	value, levels := e.Rewards()
	if len(levels) == 0 && value == 0.5 {
		return 1
	}
	fraction := func(v float64) float64 {
		r := new(big.Rat)
		r.SetString(strconv.FormatFloat(v, 'g', -1, 64))
		return natural(int(r.Num().Int64())) + natural(int(r.Denom().Int64()))
	}
	if len(levels) == 0 {
		return 2 + fraction(value)
	}
	bits := 2 + natural(len(levels)-1)
	for _, v := range levels {
		bits += fraction(v)
	}
	return bits
}

// settingNames are the settings `set` may change, in a fixed order.
var settingNames = []string{"cycle", "cycle-bound", "garbage", "rewards", "max-steps", "max-len"}

// settingsBits charges the `set` lines: how many, then for each which
// setting, a bit for a keyword or a number, and the value (a bit for a
// keyword, all of which come in pairs, or a natural).
func settingsBits(f *lang.File) float64 {
	var sets []*lang.Setting
	for _, d := range f.Decls {
		if s, ok := d.(*lang.Setting); ok && s.Key == "set" {
			sets = append(sets, s)
		}
	}
	bits := natural(len(sets))
	for _, s := range sets {
		bits += choice(len(settingNames))
		if n, err := strconv.Atoi(s.Args[1]); err == nil {
			bits += 1 + natural(n) // a number
		} else {
			bits += 2 // a keyword, one of two
		}
	}
	return bits
}

// Total adds up the parts.
func Total(parts []Part) float64 {
	t := 0.0
	for _, p := range parts {
		t += p.Bits
	}
	return t
}

// String prints a breakdown, a part a line, and the total.
func String(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		fmt.Fprintf(&b, "  %-20s %9.2f\n", p.Name, p.Bits)
	}
	fmt.Fprintf(&b, "  %-20s %9.2f\n", "total", Total(parts))
	return b.String()
}
