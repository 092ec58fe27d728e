package env

import (
	"fmt"
	"strings"
)

// Space is the graph of cells: Dest[c][a] is the cell that action a leads
// to from cell c (cells and actions count from 0 here; files and messages
// count cells from 1). Action 0 is the stay action.
type Space struct {
	Dest [][]int
}

// Cells is the number of cells.
func (s *Space) Cells() int { return len(s.Dest) }

// Actions is the number of actions.
func (s *Space) Actions() int {
	if len(s.Dest) == 0 {
		return 0
	}
	return len(s.Dest[0])
}

// SpaceError is one way a space breaks the rules of the class: Cell counts
// from 1 (0 when the space as a whole is at fault).
type SpaceError struct {
	Cell int
	Msg  string
}

func (e SpaceError) Error() string {
	if e.Cell == 0 {
		return e.Msg
	}
	return fmt.Sprintf("cell %d: %s", e.Cell, e.Msg)
}

// Check returns every way the space breaks the rules of [P] §4.1: at least
// two actions and two cells; the stay action loops in every cell; two
// arrows of every cell reach different cells; every cell reaches every
// other (strong connectivity).
func (s *Space) Check() []SpaceError {
	var errs []SpaceError
	if s.Cells() < 2 {
		errs = append(errs, SpaceError{0, fmt.Sprintf("a space needs at least 2 cells; this one has %d", s.Cells())})
	}
	if s.Actions() < 2 {
		errs = append(errs, SpaceError{0, fmt.Sprintf("a space needs at least 2 actions; this one has %d", s.Actions())})
	}
	if len(errs) > 0 {
		return errs
	}
	for c, row := range s.Dest {
		if len(row) != s.Actions() {
			errs = append(errs, SpaceError{c + 1, fmt.Sprintf("has %d arrows; every cell has one per action (%d)", len(row), s.Actions())})
			continue
		}
		if row[0] != c {
			errs = append(errs, SpaceError{c + 1, fmt.Sprintf("the stay action leads to cell %d; it must loop", row[0]+1)})
		}
		leaves := false
		for _, d := range row {
			if d < 0 || d >= s.Cells() {
				errs = append(errs, SpaceError{c + 1, fmt.Sprintf("an arrow leads to cell %d, which does not exist", d+1)})
			}
			leaves = leaves || d != c
		}
		if !leaves {
			errs = append(errs, SpaceError{c + 1, "every arrow loops; two arrows of a cell must reach different cells"})
		}
	}
	if len(errs) > 0 {
		return errs
	}
	if c, ok := s.unreachable(); !ok {
		errs = append(errs, SpaceError{c.to + 1, fmt.Sprintf("cannot be reached from cell %d; the space must be strongly connected", c.from+1)})
	}
	return errs
}

type pair struct{ from, to int }

// unreachable finds a cell that cell 1 cannot reach, or that cannot reach
// cell 1; with neither, every cell reaches every other.
func (s *Space) unreachable() (pair, bool) {
	n := s.Cells()
	forward := s.reach(func(c int) []int { return s.Dest[c] })
	for c := range n {
		if !forward[c] {
			return pair{0, c}, false
		}
	}
	into := make([][]int, n)
	for c, row := range s.Dest {
		for _, d := range row {
			into[d] = append(into[d], c)
		}
	}
	backward := s.reach(func(c int) []int { return into[c] })
	for c := range n {
		if !backward[c] {
			return pair{c, 0}, false
		}
	}
	return pair{}, true
}

func (s *Space) reach(next func(int) []int) []bool {
	seen := make([]bool, s.Cells())
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range next(c) {
			if !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return seen
}

// Table prints the arrow table, one cell a line: its number, then the
// destination of each action.
func (s *Space) Table(actions []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cell")
	for _, a := range actions {
		fmt.Fprintf(&b, "\t%s", a)
	}
	b.WriteByte('\n')
	for c, row := range s.Dest {
		fmt.Fprintf(&b, "%d", c+1)
		for _, d := range row {
			fmt.Fprintf(&b, "\t%d", d+1)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// DOT writes the space in Graphviz DOT: a node a cell, an edge an arrow
// labelled with its actions (the stay loops are left out, as in the
// papers' figures).
func (s *Space) DOT(name string, actions []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %q {\n\trankdir=LR;\n\tnode [shape=box];\n", name)
	for c := range s.Dest {
		fmt.Fprintf(&b, "\tc%d [label=\"%d\"];\n", c+1, c+1)
	}
	for c, row := range s.Dest {
		labels := map[int][]string{}
		var order []int
		for a, d := range row {
			if d == c {
				continue
			}
			if _, ok := labels[d]; !ok {
				order = append(order, d)
			}
			labels[d] = append(labels[d], actions[a])
		}
		for _, d := range order {
			fmt.Fprintf(&b, "\tc%d -> c%d [label=%q];\n", c+1, d+1, strings.Join(labels[d], ","))
		}
	}
	b.WriteString("}\n")
	return b.String()
}
