package generate

import (
	"container/heap"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
)

// The enumerated family: environments with 2 to MaxActions actions (a0 stays), an
// explicit space (its canonical code), Good and Evil following a cyclic
// pattern, no other objects, and the default rewards and settings. Its
// members cost, under the description length of package complexity,
//
//	N(n_a − 2) + space + pattern + fixedBits
//
// where fixedBits charges the parts every member shares: no objects, no
// shared blocks, the default reward, three undeclared placements, no
// settings.
const fixedBits = 1 + 1 + 1 + 3 + 1

// MaxActions bounds the family's number of actions: environments with
// more actions are cheap enough to fall under most bounds (an action that
// stays everywhere costs little), but their symmetries make the
// enumeration slow and add nothing a test needs.
const MaxActions = 4

// maxTables bounds the tables that fit the bound for one (n_a, n_c); a
// bound that reaches further is refused rather than half done, with
// ErrTooManySpaces.
const maxTables = 5_000_000

// ErrTooManySpaces is the cause of the error of an enumeration whose bound
// reaches more than maxTables tables of one size: a limit of the
// enumerator, not a fault of the input.
var ErrTooManySpaces = errors.New("too many spaces within the bound")

// Candidate is one environment of the stream.
type Candidate struct {
	Index   int     // its place in the stream, from 0
	Bits    float64 // its description length
	Actions int
	Space   *env.Space
	Pattern []int
}

// Source writes the candidate as an environment file.
func (c Candidate) Source() string {
	names := actionNames(c.Actions)
	var b strings.Builder
	fmt.Fprintf(&b, "# anynt enumerate: environment %d, %.4f bits (%s)\n", c.Index, c.Bits, complexity.Version)
	fmt.Fprintf(&b, "actions %s\n", strings.Join(names, " "))
	fmt.Fprintf(&b, "space thesis %s\n", strings.Join(complexity.CanonicalCode(c.Space, names), ""))
	pattern := make([]string, len(c.Pattern))
	for i, a := range c.Pattern {
		pattern[i] = names[a]
	}
	fmt.Fprintf(&b, "goodevil pattern %s\n", strings.Join(pattern, " "))
	return b.String()
}

func actionNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("a%d", i)
	}
	return names
}

// Enumerate streams the family's environments of at most maxBits bits in
// order of description length, calling yield with each until it returns
// false. Ties come in a fixed order: fewer actions first, then the space's
// order (cheapest, then as the tables were walked), then the pattern's
// length and lexicographic order. Duplicates are skipped: spaces equal up
// to renumbering the cells and the moving actions, patterns that repeat a
// shorter one (u^k acts as u), patterns that use an action whose arrows
// are those of a lower action, and patterns a symmetry of the space maps
// to a smaller one (they act identically on it).
//
// The stream is lazy: the spaces within the bound are listed first, and
// the patterns of each length are generated when the merge reaches them.
func Enumerate(maxBits float64, yield func(Candidate) bool) error {
	return EnumerateRange(maxBits, 0, -1, yield)
}

// EnumerateRange is Enumerate's stream cut to the candidates whose index
// is in [from, to) (to < 0: to the end). It starts at candidate from
// without making the ones before it: whole blocks are skipped by their
// counted size and the first pattern is found by unranking (seek.go), so
// that the shards of a run cost together what the run costs.
func EnumerateRange(maxBits float64, from, to int, yield func(Candidate) bool) error {
	l, err := listBlocks(maxBits)
	if err != nil {
		return err
	}
	l.walk(from, to, yield)
	return nil
}

// Count is the number of candidates of at most maxBits bits, and how many
// of them cost each whole number of bits (perBit[b]: those of more than
// b−1 and at most b bits), counted block by block without making one.
func Count(maxBits float64) (total int, perBit map[int]int, err error) {
	l, err := listBlocks(maxBits)
	if err != nil {
		return 0, nil, err
	}
	total, perBit = l.count()
	return total, perBit, nil
}

// listing is the enumeration up to a bound before its first candidate: the
// spaces within the bound, by number of actions, the queue of their first
// blocks (patterns of length 1), and each space's block counter, made when
// first needed.
type listing struct {
	maxBits    float64
	spacesByNA map[int][]spaceEntry
	blocks     blockQueue
	counters   map[[2]int]*blockCounter
}

// blocksInOrder calls each with the blocks within the bound, in the
// stream's order, on a copy of the queue, until it returns false.
func (l *listing) blocksInOrder(each func(b patternBlock, space spaceEntry) bool) {
	blocks := slices.Clone(l.blocks)
	for blocks.Len() > 0 {
		b := heap.Pop(&blocks).(patternBlock)
		if b.bits > l.maxBits {
			return
		}
		space := l.spacesByNA[b.na][b.space]
		longer := b
		longer.length++
		longer.bits = blockBits(b.na, space, longer.length)
		blocks.push(longer)
		if !each(b, space) {
			return
		}
	}
}

// counter is the block counter of a block's space.
func (l *listing) counter(b patternBlock, space spaceEntry) *blockCounter {
	key := [2]int{b.na, b.space}
	bc := l.counters[key]
	if bc == nil {
		bc = newBlockCounter(space, b.na)
		l.counters[key] = bc
	}
	return bc
}

// count is Count's.
func (l *listing) count() (total int, perBit map[int]int) {
	perBit = map[int]int{}
	l.blocksInOrder(func(b patternBlock, space spaceEntry) bool {
		n := l.counter(b, space).count(b.length, nil)
		total += n
		perBit[int(math.Ceil(b.bits))] += n
		return true
	})
	return total, perBit
}

// walk is EnumerateRange's: it skips the blocks before from by their
// counts, unranks the first pattern, and yields from there.
func (l *listing) walk(from, to int, yield func(Candidate) bool) {
	index := 0
	l.blocksInOrder(func(b patternBlock, space spaceEntry) bool {
		if to >= 0 && index >= to {
			return false
		}
		digits := make([]int, b.length)
		if index < from {
			bc := l.counter(b, space)
			n := bc.count(b.length, nil)
			if from-index >= n {
				index += n
				return true
			}
			digits = bc.unrank(b.length, from-index)
			index = from
		}
		for {
			if primitive(digits) && canonicalOn(digits, space) {
				if to >= 0 && index >= to {
					return false
				}
				c := Candidate{Index: index, Bits: b.bits, Actions: b.na, Space: space.space, Pattern: slices.Clone(digits)}
				index++
				if !yield(c) {
					return false
				}
			}
			if !next(digits, b.na) {
				return true
			}
		}
	})
}

// listBlocks lists the spaces within maxBits and queues their first
// blocks.
func listBlocks(maxBits float64) (*listing, error) {
	l := &listing{maxBits: maxBits, spacesByNA: map[int][]spaceEntry{}, counters: map[[2]int]*blockCounter{}}
	for na := 2; na <= MaxActions; na++ {
		base := complexity.Natural(na-2) + fixedBits + complexity.PatternBits(1, na)
		if base+minSpaceBits(na, 2) > maxBits {
			break
		}
		var spaces []spaceEntry
		for nc := 2; base+minSpaceBits(na, nc) <= maxBits; nc++ {
			found, err := spacesOf(na, nc, maxBits-base)
			if err != nil {
				return nil, err
			}
			spaces = append(spaces, found...)
		}
		slices.SortStableFunc(spaces, func(a, b spaceEntry) int { return cmpFloat(a.bits, b.bits) })
		l.spacesByNA[na] = spaces
		for si := range spaces {
			l.blocks.push(patternBlock{na: na, space: si, length: 1, bits: blockBits(na, spaces[si], 1)})
		}
	}
	return l, nil
}

// patternBlock stands for the patterns of one length on one space: they all
// cost the same.
type patternBlock struct {
	bits      float64
	na, space int
	length    int
}

func blockBits(na int, s spaceEntry, length int) float64 {
	return complexity.Natural(na-2) + fixedBits + s.bits + complexity.PatternBits(length, na)
}

// blockQueue orders blocks by cost, then actions, space and length.
type blockQueue []patternBlock

func (q blockQueue) Len() int { return len(q) }
func (q blockQueue) Less(i, j int) bool {
	a, b := q[i], q[j]
	if a.bits != b.bits {
		return a.bits < b.bits
	}
	if a.na != b.na {
		return a.na < b.na
	}
	if a.space != b.space {
		return a.space < b.space
	}
	return a.length < b.length
}
func (q blockQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *blockQueue) Push(x any)   { *q = append(*q, x.(patternBlock)) }
func (q *blockQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
func (q *blockQueue) push(b patternBlock) { heap.Push(q, b) }

func cmpFloat(a, b float64) int {
	if a < b {
		return -1
	}
	return 1
}

// minSpaceBits bounds from below the cost of any valid space of nc cells
// and na actions: its code has nc − 1 separators and, in every cell, at
// least one arrow leaving it, an action and a sign.
func minSpaceBits(na, nc int) float64 { return codeBits(nc-1+2*nc, na) }

type spaceEntry struct {
	space      *env.Space
	bits       float64
	classes    []int   // each action's class: the lowest action with the same arrows
	symmetries [][]int // action maps of the renumberings that leave the space as it is
}

// spacesOf enumerates the valid spaces of na actions and nc cells costing
// at most budget bits, one per class of spaces equal up to renumbering the
// cells (the one whose canonical code is least), cheapest first. It walks
// the tables arrow by arrow, keeping the length of the code they write
// within what the budget allows: an arrow that stays writes nothing, one
// that leaves writes its action and its offset in signs.
func spacesOf(na, nc int, budget float64) ([]spaceEntry, error) {
	names := actionNames(na)
	maxCode := 0
	for codeBits(maxCode+1, na) <= budget {
		maxCode++
	}
	perms, actionPerms := permutations(nc), actionPermutations(na)
	s := &env.Space{Dest: make([][]int, nc)}
	for c := range nc {
		s.Dest[c] = make([]int, na)
		for a := range na {
			s.Dest[c][a] = c
		}
	}
	var out []spaceEntry
	visited := 0
	var walk func(i, length int, leaves bool) error
	walk = func(i, length int, leaves bool) error {
		c, a := i/(na-1), 1+i%(na-1)
		if a == 1 && c > 0 && !leaves {
			return nil // the cell before has no arrow leaving it
		}
		if c == nc {
			if visited++; visited > maxTables {
				return fmt.Errorf("%w: more than %d spaces of %d cells and %d actions; lower --max-bits", ErrTooManySpaces, maxTables, nc, na)
			}
			if bits := complexity.ExplicitSpaceBits(s, names); bits <= budget && len(s.Check()) == 0 {
				if ok, symmetries := isCanonical(s, names, perms, actionPerms); ok {
					out = append(out, spaceEntry{space: cloneSpace(s), bits: bits, classes: actionClasses(s), symmetries: symmetries})
				}
			}
			return nil
		}
		if a == 1 {
			leaves = false
			if c > 0 {
				length++ // the separator before this cell
			}
		}
		for d := range nc {
			cost := 0
			if d != c {
				off := ((d-c)%nc + nc) % nc
				cost = 1 + min(off, nc-off)
			}
			// Every cell still to come needs an arrow out: two symbols.
			if length+cost+2*(nc-1-c) > maxCode {
				continue
			}
			s.Dest[c][a] = d
			if err := walk(i+1, length+cost, leaves || d != c); err != nil {
				return err
			}
			s.Dest[c][a] = c
		}
		return nil
	}
	if err := walk(0, 0, false); err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b spaceEntry) int { return cmpFloat(a.bits, b.bits) })
	return out, nil
}

// codeBits is the cost of an explicit space whose canonical code has n
// symbols, for na actions (complexity.ExplicitSpaceBits).
func codeBits(n, na int) float64 {
	return 1 + complexity.Natural(0) + complexity.Natural(1) + 1 +
		1 + complexity.Natural(0) + complexity.Natural(0) + complexity.Natural(n) + float64(n)*(1+math.Log2(float64(na+3)))
}

func cloneSpace(s *env.Space) *env.Space {
	c := &env.Space{Dest: make([][]int, len(s.Dest))}
	for i, row := range s.Dest {
		c.Dest[i] = slices.Clone(row)
	}
	return c
}

// isCanonical reports whether no renumbering of the cells and of the
// moving actions gives a smaller canonical code, and returns the action
// maps of the renumberings that give the same code (the space's
// symmetries), under which patterns are equal too.
func isCanonical(s *env.Space, names []string, cellPerms, actionPerms [][]int) (bool, [][]int) {
	own := strings.Join(complexity.CanonicalCode(s, names), "")
	var symmetries [][]int
	r := cloneSpace(s)
	for _, ap := range actionPerms {
		for _, cp := range cellPerms {
			for c, row := range s.Dest {
				for a, d := range row {
					r.Dest[cp[c]][ap[a]] = cp[d]
				}
			}
			switch other := strings.Join(complexity.CanonicalCode(r, names), ""); {
			case other < own:
				return false, nil
			case other == own:
				symmetries = append(symmetries, ap)
			}
		}
	}
	return true, symmetries
}

// actionPermutations renumbers the moving actions; the stay action keeps
// its place.
func actionPermutations(na int) [][]int {
	var out [][]int
	for _, p := range permutations(na - 1) {
		out = append(out, append([]int{0}, shift(p)...))
	}
	return out
}

func shift(p []int) []int {
	for i := range p {
		p[i]++
	}
	return p
}

func permutations(n int) [][]int {
	var out [][]int
	var rec func(p []int, used []bool)
	rec = func(p []int, used []bool) {
		if len(p) == n {
			out = append(out, slices.Clone(p))
			return
		}
		for i := range n {
			if !used[i] {
				used[i] = true
				rec(append(p, i), used)
				used[i] = false
			}
		}
	}
	rec(nil, make([]bool, n))
	return out
}

// actionClasses maps each action to the lowest action with the same
// arrows in every cell.
func actionClasses(s *env.Space) []int {
	na := s.Actions()
	classes := make([]int, na)
	for a := range na {
		classes[a] = a
		for b := range a {
			same := true
			for _, row := range s.Dest {
				same = same && row[a] == row[b]
			}
			if same {
				classes[a] = b
				break
			}
		}
	}
	return classes
}

// canonicalOn reports whether the pattern is the one a space counts among
// those that act identically on it: it uses only the lowest action of each
// class of identical actions, and no symmetry of the space maps it to a
// lexicographically smaller pattern.
func canonicalOn(pattern []int, s spaceEntry) bool {
	for _, a := range pattern {
		if s.classes[a] != a {
			return false
		}
	}
	for _, sym := range s.symmetries {
		for _, a := range pattern {
			if sym[a] != a {
				if sym[a] < a {
					return false
				}
				break
			}
		}
	}
	return true
}

// primitive reports whether p is not a shorter pattern repeated.
func primitive(p []int) bool {
	n := len(p)
	for d := 1; d < n; d++ {
		if n%d != 0 {
			continue
		}
		repeats := true
		for i := d; i < n && repeats; i++ {
			repeats = p[i] == p[i-d]
		}
		if repeats {
			return false
		}
	}
	return true
}

// next counts digits up in base n; false when it wraps.
func next(digits []int, n int) bool {
	for i := len(digits) - 1; i >= 0; i-- {
		if digits[i]++; digits[i] < n {
			return true
		}
		digits[i] = 0
	}
	return false
}
