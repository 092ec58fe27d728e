package env

import (
	"fmt"
	"slices"
)

// Space codes come in two dialects in the papers (the thesis's and
// Hernández-Orallo 2010b's). Both give each cell's non-stay arrows as offsets
// from the cell, toroidally (1 − 2 = n_c − 1); an action a cell does not
// mention stays in it.
//
//   - thesis ([T] §3.6.6, and with '|' and digit actions §4.1.3): cells
//     separated by ':' (or '|'); an action followed by its offset written
//     as signs, lr+:l-r+:l-r is a line of three cells.
//   - paper ([P] §6.1): a sign followed by the action repeated offset times,
//     +r-l+r-l; a cell ends where an action it already has comes again (the
//     paper writes +r-l for a cell although l comes before r, so the cells
//     cannot be told apart by action order).
//
// In both, an action is written by its name or, when no action is named by
// that digit, by its index as one digit (0 is the stay action).

// DecodeCode turns a code into a space. Strict decoding (for codes written
// by hand) reports every stray symbol; lenient decoding (the
// post-processing of a generator's output, [P] §6.1) drops them, lets a
// repeated action's last offset win and ignores a trailing separator.
func DecodeCode(dialect string, code []string, actions []string, strict bool) (*Space, error) {
	d := decoder{actions: actions, strict: strict}
	var cells [][]offset
	switch dialect {
	case "thesis":
		cells = d.thesis(code)
	case "paper":
		cells = d.paper(code)
	default:
		return nil, fmt.Errorf("unknown space-code dialect %q (thesis or paper)", dialect)
	}
	if len(d.errs) > 0 {
		return nil, d.errs[0]
	}
	n := len(cells)
	s := &Space{Dest: make([][]int, n)}
	for c, arrows := range cells {
		s.Dest[c] = make([]int, len(actions))
		for a := range actions {
			s.Dest[c][a] = c
		}
		for _, o := range arrows {
			s.Dest[c][o.action] = ((c+o.offset)%n + n) % n
		}
	}
	return s, nil
}

type offset struct{ action, offset int }

type decoder struct {
	actions []string
	strict  bool
	errs    []error
}

// CodeError is a mistake in a space code, at the symbol Index (from 0).
type CodeError struct {
	Index int
	Msg   string
}

func (e *CodeError) Error() string { return fmt.Sprintf("symbol %d of the code: %s", e.Index+1, e.Msg) }

func (d *decoder) fail(i int, format string, args ...any) {
	if d.strict {
		d.errs = append(d.errs, &CodeError{Index: i, Msg: fmt.Sprintf(format, args...)})
	}
}

// action returns the index of the action a symbol names, or -1.
func (d *decoder) action(sym string) int {
	if i := slices.Index(d.actions, sym); i >= 0 {
		return i
	}
	if len(sym) == 1 && sym[0] >= '0' && int(sym[0]-'0') < len(d.actions) {
		return int(sym[0] - '0')
	}
	return -1
}

func (d *decoder) thesis(code []string) [][]offset {
	var cells [][]offset
	var cell []offset
	for i := 0; i < len(code); i++ {
		sym := code[i]
		switch a := d.action(sym); {
		case sym == ":" || sym == "|":
			cells = append(cells, cell)
			cell = nil
		case a >= 0:
			o := offset{action: a}
			for i+1 < len(code) && (code[i+1] == "+" || code[i+1] == "-") {
				i++
				if code[i] == "+" {
					o.offset++
				} else {
					o.offset--
				}
			}
			if a == 0 && o.offset != 0 {
				d.fail(i, "the stay action %s takes no offset", sym)
				continue
			}
			cell = d.add(cell, o, i)
		default:
			d.fail(i, "%q is neither an action, a sign after one, nor a cell separator", sym)
		}
	}
	if len(cell) > 0 || d.strict || len(cells) == 0 {
		cells = append(cells, cell)
	}
	return cells
}

// add puts an arrow in a cell; a second offset for one action is an error,
// or, leniently, replaces the first.
func (d *decoder) add(cell []offset, o offset, i int) []offset {
	for j := range cell {
		if cell[j].action == o.action {
			d.fail(i, "action %s appears twice in one cell", d.actions[o.action])
			cell[j] = o
			return cell
		}
	}
	return append(cell, o)
}

func (d *decoder) paper(code []string) [][]offset {
	var cells [][]offset
	var cell []offset
	for i := 0; i < len(code); i++ {
		sign := code[i]
		if sign != "+" && sign != "-" {
			d.fail(i, "%q where a sign (+ or -) should start an arrow", sign)
			continue
		}
		if i+1 >= len(code) || d.action(code[i+1]) < 0 {
			d.fail(i, "a sign must be followed by an action")
			continue
		}
		a := d.action(code[i+1])
		o := offset{action: a}
		for i+1 < len(code) && d.action(code[i+1]) == a {
			i++
			o.offset++
		}
		if sign == "-" {
			o.offset = -o.offset
		}
		if slices.ContainsFunc(cell, func(x offset) bool { return x.action == a }) {
			cells = append(cells, cell)
			cell = nil
		}
		cell = append(cell, o)
	}
	if len(cell) > 0 {
		cells = append(cells, cell)
	}
	return cells
}
