package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// tryObserver is the index (env.Pi, env.Good, env.Evil, 3+i) of the
// object --object names.
func tryObserver(e *env.Env, name string) (int, error) {
	switch name {
	case "good", "goodevil":
		return env.Good, nil
	case "evil":
		return env.Evil, nil
	case "pi":
		return env.Pi, nil
	}
	sym, err := oneSymbol(name)
	if err == nil {
		for i := range 3 + len(e.Objects) {
			if e.ObjectName(i) == sym {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("--object %s: %s has no such object (%s)", name, e.Name, strings.Join(objectNames(e), ", "))
}

// objectNames are what --object and --at accept.
func objectNames(e *env.Env) []string {
	names := make([]string, 3+len(e.Objects))
	for i := range names {
		names[i] = e.ObjectName(i)
	}
	return names
}

// oneSymbol reads a name in the notation (π, \pi, ω1, \omega1) as one
// symbol.
func oneSymbol(name string) (string, error) {
	syms, err := lang.Symbols(name)
	if err != nil || len(syms) != 1 {
		return "", fmt.Errorf("%q is not one symbol", name)
	}
	return syms[0], nil
}

// tryPlacement reads --at over the file's place lines, and draws the rest
// from --seed when it was given.
func tryPlacement(e *env.Env, fl tryFlags) ([]int, error) {
	declared := append([]int(nil), e.Placement()...)
	n := e.Space.Cells()
	for _, item := range strings.FieldsFunc(fl.at, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		name, cell, ok := strings.Cut(item, "=")
		if !ok {
			return nil, fmt.Errorf("--at: %q is not NAME=CELL (π=1)", item)
		}
		i := -1
		if sym, err := oneSymbol(name); err == nil {
			for j := range declared {
				if e.ObjectName(j) == sym {
					i = j
				}
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("--at: %s is not an object of %s (%s)", name, e.Name, strings.Join(objectNames(e), ", "))
		}
		c, err := strconv.Atoi(cell)
		if err != nil || c < 1 || c > n {
			return nil, fmt.Errorf("--at: %s=%s: the cell is a number from 1 to %d", name, cell, n)
		}
		declared[i] = c - 1
	}
	var missing []string
	for i, c := range declared {
		if c < 0 {
			missing = append(missing, e.ObjectName(i))
		}
	}
	if len(missing) > 0 && !fl.group.changed("seed") {
		return nil, fmt.Errorf("--at does not place %s, nor does a place line of the file: give each a cell, or --seed S to draw them as an episode would", strings.Join(missing, ", "))
	}
	if declared[env.Good] >= 0 && declared[env.Good] == declared[env.Evil] {
		return nil, fmt.Errorf("--at: ⊕ and ⊖ are both in cell %d; Good and Evil never share a cell", declared[env.Good]+1)
	}
	return e.PlaceRest(declared, fl.seed), nil
}
