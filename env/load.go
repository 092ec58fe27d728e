package env

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// Bounds of a space generator's run: it runs once, so it may take longer
// than a behaviour ([P] §6.3).
const (
	GeneratorSteps = 100_000
	GeneratorLen   = 100_000
	GeneratorWork  = vm.DefaultMaxWork
)

// IsEnvironment reports whether a file declares an environment rather than
// a bare rule list. The kind is decided by content: a file with any
// environment statement (actions, space, object, goodevil, reward, place,
// set) is an environment, and one without is a rule file, so that both
// kinds can share the .anynt extension (docs/environments.md).
func IsEnvironment(f *lang.File) bool {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *lang.Actions, *lang.SpaceCode, *lang.Pattern, *lang.Setting:
			return true
		case *lang.Block:
			if d.Kind != lang.SharedBlock {
				return true
			}
		}
	}
	return false
}

// Load reads an environment from a parsed file. Every error is positioned;
// all of them are returned together.
func Load(f *lang.File) (*Env, error) {
	l := &loader{file: f, env: &Env{Name: f.Name, Reward: Reward{Value: 0.5}}}
	l.env.Settings = Settings{Cycle: true, Garbage: true, MaxSteps: DefaultBehaviourSteps, MaxLen: DefaultBehaviourLen, MaxWork: DefaultBehaviourWork}
	l.declarations()
	if len(l.errs) == 0 {
		l.symbols()
		l.space()
		l.behaviours()
		l.settings()
	}
	if err := l.errs.Err(); err != nil {
		if len(l.spaceErrs) > 0 {
			return nil, &InvalidSpaceError{List: err.(lang.ErrorList), Space: l.spaceErrs}
		}
		return nil, err
	}
	return l.env, nil
}

// InvalidSpaceError is Load's error when the space breaks the rules of the
// class. It holds every error of the file, the space's among them, prints
// as that list and unwraps to it and to each SpaceError, so that a caller
// learns that the space was at fault with errors.As, not by reading
// messages.
type InvalidSpaceError struct {
	List  lang.ErrorList // every error of the file, sorted
	Space []SpaceError   // what Space.Check found
}

func (e *InvalidSpaceError) Error() string { return e.List.Error() }

func (e *InvalidSpaceError) Unwrap() []error {
	errs := []error{e.List}
	for _, s := range e.Space {
		errs = append(errs, s)
	}
	return errs
}

type loader struct {
	file *lang.File
	env  *Env
	errs lang.ErrorList
	// spaceErrs are the ways the space breaks the rules of the class.
	spaceErrs []SpaceError

	actions   *lang.Actions
	spaceDecl lang.Decl // *lang.SpaceCode or a table or generator *lang.Block
	objects   []*lang.Block
	goodEvil  lang.Decl // *lang.Block or *lang.Pattern
	settingsD []*lang.Setting
	placedAt  []lang.Pos // the place statement of each object, by Place index
}

func (l *loader) fileStart() lang.Pos { return lang.Pos{File: l.file.Name, Line: 1, Col: 1} }

// declarations sorts the file's declarations and checks that each part is
// given once.
func (l *loader) declarations() {
	once := func(slot *lang.Decl, d lang.Decl, what string) {
		if *slot != nil {
			l.errs.Add(d.Pos(), "%s is already given at %s", what, (*slot).Pos())
			return
		}
		*slot = d
	}
	var actions lang.Decl
	for _, d := range l.file.Decls {
		switch d := d.(type) {
		case *lang.Actions:
			once(&actions, d, "the actions")
		case *lang.SpaceCode:
			once(&l.spaceDecl, d, "the space")
		case *lang.Pattern:
			once(&l.goodEvil, d, "the Good/Evil behaviour")
		case *lang.Setting:
			l.settingsD = append(l.settingsD, d)
		case *lang.Alphabet:
			l.errs.Add(d.At, "an environment fixes the alphabet of its behaviours (docs/environments.md); it declares none")
		case *lang.Rule, *lang.Use:
			l.errs.Add(d.Pos(), "rules of an environment stand inside an object, goodevil or space generator block")
		case *lang.Block:
			switch d.Kind {
			case lang.TableBlock, lang.GeneratorBlock:
				once(&l.spaceDecl, d, "the space")
			case lang.GoodEvilBlock:
				once(&l.goodEvil, d, "the Good/Evil behaviour")
			case lang.ObjectBlock:
				l.objects = append(l.objects, d)
			}
		}
	}
	if actions == nil {
		l.errs.Add(l.fileStart(), "an environment declares its actions: actions s l r (the stay action first)")
	} else {
		l.actions = actions.(*lang.Actions)
		l.checkActions()
	}
	if l.spaceDecl == nil {
		l.errs.Add(l.fileStart(), "an environment gives its space: space CODE, space table { … } or space generator { … }")
	}
	if l.goodEvil == nil {
		l.errs.Add(l.fileStart(), "an environment gives the Good/Evil behaviour: goodevil { … } or goodevil pattern …")
	}
}

// checkActions checks the action names, each mistake once: the rest of the
// loading reads the actions and their markers, so it runs only when they
// are sound.
func (l *loader) checkActions() {
	a := l.actions
	if len(a.Names) < 2 {
		l.errs.Add(a.At, "an environment needs at least 2 actions, the stay action first")
	}
	var bad []string
	var at lang.Pos
	seen := map[string]bool{}
	for _, n := range a.Names {
		if seen[n.Name] {
			l.errs.Add(n.At, "action %s is listed twice", n.Name)
		}
		seen[n.Name] = true
		if _, ok := marker(n.Name); !ok {
			if bad == nil {
				at = n.At
			}
			bad = append(bad, n.Name)
		}
	}
	switch len(bad) {
	case 0:
	case 1:
		l.errs.Add(at, "action %s must start with a lower-case letter: its observation marker is its upper-case form", bad[0])
	default:
		l.errs.Add(at, "actions %s must start with a lower-case letter, such as actions s l r: an action's observation marker is its upper-case form", strings.Join(bad, ", "))
	}
}

// symbols fixes the observation symbols and actions: markers, π, ⊕, ⊖, ⊙,
// the objects, ':', the actions, then the reward levels ρ1….
func (l *loader) symbols() {
	e, t := l.env, &l.env.symbols
	seen := map[string]string{}
	add := func(name, what string, at lang.Pos) byte {
		if prev, ok := seen[name]; ok {
			l.errs.Add(at, "%s is already %s", name, prev)
		}
		seen[name] = what
		t.names = append(t.names, name)
		return byte(len(t.names) - 1)
	}
	for _, a := range l.actions.Names {
		e.Actions = append(e.Actions, a.Name)
		m, _ := marker(a.Name) // checkActions made sure it has one
		e.Markers = append(e.Markers, m)
		t.marker = append(t.marker, add(m, "the marker of action "+a.Name, a.At))
	}
	t.pi = add("π", "the evaluated agent", l.fileStart())
	t.good = add("⊕", "Good", l.fileStart())
	t.evil = add("⊖", "Evil", l.fileStart())
	t.odot = add("⊙", "Good or Evil as objects see them", l.fileStart())
	for _, o := range l.objects {
		e.Objects = append(e.Objects, Object{Name: o.Name})
		t.object = append(t.object, add(o.Name, "an object", o.At))
	}
	t.colon = add(":", "the cell separator of observations", l.fileStart())
	for _, a := range l.actions.Names {
		t.action = append(t.action, add(a.Name, "an action", a.At))
	}
	t.actions = len(t.action)
	for _, s := range l.settingsD {
		if s.Key == "reward" && len(s.Args) > 1 && s.Args[0] == "levels" {
			for k := range len(s.Args) - 1 {
				t.levels = append(t.levels, add(fmt.Sprintf("ρ%d", k+1), "a reward level", s.At))
			}
		}
	}
}

// marker is an action's observation symbol: its first letter upper-cased.
func marker(action string) (string, bool) {
	r, size := utf8.DecodeRuneInString(action)
	if !unicode.IsLower(r) || unicode.ToUpper(r) == r {
		return "", false
	}
	return string(unicode.ToUpper(r)) + action[size:], true
}

func (l *loader) space() {
	var s *Space
	switch d := l.spaceDecl.(type) {
	case *lang.SpaceCode:
		code := make([]string, len(d.Code))
		for i, c := range d.Code {
			code[i] = c.Name
		}
		var err error
		s, err = DecodeCode(d.Dialect, code, l.env.Actions, true)
		var ce *CodeError
		if errors.As(err, &ce) {
			l.errs.Add(d.Code[ce.Index].At, "%s", ce.Msg)
			return
		} else if err != nil {
			l.errs.Add(d.At, "%w", err)
			return
		}
	case *lang.Block:
		if d.Kind == lang.TableBlock {
			s = l.table(d)
		} else {
			s = l.generate(d)
		}
	}
	if s == nil {
		return
	}
	if s.Cells() > MaxCells {
		l.errs.Add(l.spaceDecl.Pos(), "the space has %d cells, more than %d (env.MaxCells)", s.Cells(), MaxCells)
		return
	}
	for _, err := range s.Check() {
		l.errs.Add(l.spaceDecl.Pos(), "the space is invalid: %w", err)
		l.spaceErrs = append(l.spaceErrs, err)
	}
	l.env.Space = s
}

func (l *loader) table(b *lang.Block) *Space {
	if len(b.Rows) > MaxCells {
		l.errs.Add(b.At, "the table has %d cells, more than %d (env.MaxCells)", len(b.Rows), MaxCells)
		return nil
	}
	s := &Space{}
	for _, r := range b.Rows {
		if len(r.Dests) != len(l.env.Actions) {
			l.errs.Add(r.At, "a table row gives one cell for each of the %d actions; this one has %d", len(l.env.Actions), len(r.Dests))
			return nil
		}
		row := make([]int, len(r.Dests))
		for a, d := range r.Dests {
			if d > len(b.Rows) {
				l.errs.Add(r.At, "cell %d does not exist: the table has %d cells", d, len(b.Rows))
				return nil
			}
			row[a] = d - 1
		}
		s.Dest = append(s.Dest, row)
	}
	return s
}

// generate runs a space generator from the empty string under its bounds,
// and decodes what it wrote leniently ([P] §6.1: "let the algorithm run for
// a limited number of iterations and then pass a postprocessing").
func (l *loader) generate(b *lang.Block) *Space {
	prog, err := compiler.CompileList(l.file, b.Rules, compiler.Options{Prefix: l.env.Actions})
	if err != nil {
		l.addErrors(err)
		return nil
	}
	out, _ := vm.New(prog).Run(nil, vm.Options{MaxSteps: GeneratorSteps, MaxLen: GeneratorLen, MaxWork: GeneratorWork})
	s, err := DecodeCode(b.Dialect, prog.Decode(out), l.env.Actions, false)
	if err != nil {
		l.errs.Add(b.At, "%w", err)
		return nil
	}
	return s
}

func (l *loader) addErrors(err error) {
	var list lang.ErrorList
	if errors.As(err, &list) {
		l.errs = append(l.errs, list...)
		return
	}
	l.errs.Add(l.fileStart(), "%w", err)
}

// behaviours compiles every program with the shared symbol table first.
func (l *loader) behaviours() {
	opts := compiler.Options{Prefix: l.env.symbols.names}
	for i, o := range l.objects {
		prog, err := compiler.CompileList(l.file, o.Rules, opts)
		if err != nil {
			l.addErrors(err)
			continue
		}
		l.env.Objects[i].Program = prog
	}
	switch d := l.goodEvil.(type) {
	case *lang.Block:
		prog, err := compiler.CompileList(l.file, d.Rules, opts)
		if err != nil {
			l.addErrors(err)
			return
		}
		l.env.GoodEvil.Program = prog
	case *lang.Pattern:
		for _, sym := range d.Actions {
			a := (&decoder{actions: l.env.Actions}).action(sym.Name)
			if a < 0 {
				l.errs.Add(sym.At, "%s is not an action (a name, or an index from 0)", sym.Name)
				continue
			}
			l.env.GoodEvil.Pattern = append(l.env.GoodEvil.Pattern, a)
		}
		if len(d.Actions) == 0 {
			l.errs.Add(d.At, "a pattern needs at least one action")
		}
	}
}

func (l *loader) settings() {
	e := l.env
	e.Place = make([]int, 3+len(e.Objects))
	l.placedAt = make([]lang.Pos, len(e.Place))
	for i := range e.Place {
		e.Place[i] = -1
	}
	for _, s := range l.settingsD {
		if err := l.setting(s); err != nil {
			l.errs.Add(s.At, "%s %s: %w", s.Key, strings.Join(s.Args, " "), err)
		}
	}
	if e.Settings.CycleBound == 0 && e.Space != nil {
		e.Settings.CycleBound = min(intPow(e.Space.Cells(), len(e.Actions)), MaxCycleBound)
	}
	if e.Space != nil {
		for i, c := range e.Place {
			if c >= e.Space.Cells() {
				l.errs.Add(l.placedAt[i], "%s is placed in cell %d; the space has %d cells", l.env.ObjectName(i), c+1, e.Space.Cells())
			}
		}
	}
	if p := e.Place; p[Good] >= 0 && p[Good] == p[Evil] {
		first, second := l.placedAt[Good], l.placedAt[Evil]
		if second.Before(first) {
			first, second = second, first
		}
		l.errs.Add(second, "Good and Evil are placed in the same cell, %d (the other at %s); they never share one", p[Good]+1, first)
	}
}

func intPow(b, e int) int {
	n := 1
	for range e {
		if n > MaxCycleBound/max(b, 1) {
			return MaxCycleBound
		}
		n *= b
	}
	return n
}

func (l *loader) setting(s *lang.Setting) error {
	e := l.env
	args := s.Args
	switch s.Key {
	case "reward":
		if len(args) > 1 && args[0] == "levels" {
			e.Reward.Levels = nil
			for _, a := range args[1:] {
				v, err := rewardValue(a)
				if err != nil {
					return err
				}
				e.Reward.Levels = append(e.Reward.Levels, v)
			}
			return nil
		}
		if len(args) != 1 {
			return fmt.Errorf("write reward VALUE, or reward levels V1 V2 …")
		}
		v, err := rewardValue(args[0])
		e.Reward.Value = v
		return err
	case "place":
		if len(args) != 2 {
			return fmt.Errorf("write place OBJECT CELL")
		}
		cell, err := strconv.Atoi(args[1])
		if err != nil || cell < 1 {
			return fmt.Errorf("%q is not a cell number (cells count from 1)", args[1])
		}
		for i := range e.Place {
			if l.env.ObjectName(i) == args[0] {
				e.Place[i] = cell - 1
				l.placedAt[i] = s.At
				return nil
			}
		}
		return fmt.Errorf("no object %s (π, ⊕, ⊖ or a declared object)", args[0])
	case "set":
		if len(args) != 2 {
			return fmt.Errorf("write set NAME VALUE")
		}
		return l.set(args[0], args[1])
	}
	return fmt.Errorf("unknown setting")
}

func (l *loader) set(name, value string) error {
	st := &l.env.Settings
	onOff := func(b *bool) error {
		switch value {
		case "on":
			*b = true
		case "off":
			*b = false
		default:
			return fmt.Errorf("%s is on or off", name)
		}
		return nil
	}
	// count reads a whole number from 1 to most; larger values are
	// refused rather than capped, so that a file never means what it
	// does not say.
	count := func(n *int, most int) error {
		v, err := strconv.Atoi(value)
		if err != nil && !errors.Is(err, strconv.ErrRange) || err == nil && v < 1 {
			return fmt.Errorf("%s is a whole number from 1 to %d", name, most)
		}
		if err != nil || v > most {
			return fmt.Errorf("%s is at most %d", name, most)
		}
		*n = v
		return nil
	}
	switch name {
	case "cycle":
		return onOff(&st.Cycle)
	case "garbage":
		return onOff(&st.Garbage)
	case "cycle-bound":
		switch value {
		case "paper":
			st.CycleBound = 0 // n_c^n_a, filled in when the space is known
			return nil
		case "thesis":
			if l.env.Space != nil {
				st.CycleBound = min(l.env.Space.Cells()*len(l.env.Actions), MaxCycleBound)
			}
			return nil
		}
		return count(&st.CycleBound, MaxCycleBound)
	case "rewards":
		switch value {
		case "trace":
			st.Rewards = TraceRewards
		case "lambda-one":
			st.Rewards = LambdaOneRewards
		default:
			return fmt.Errorf("rewards are trace or lambda-one")
		}
		return nil
	case "max-steps":
		return count(&st.MaxSteps, MaxBehaviourSteps)
	case "max-len":
		return count(&st.MaxLen, MaxBehaviourLen)
	case "max-work":
		return count(&st.MaxWork, MaxBehaviourWork)
	}
	return fmt.Errorf("unknown setting %s (cycle, cycle-bound, garbage, rewards, max-steps, max-len, max-work)", name)
}

// rewardValue reads a reward: a fraction (1/2) or a decimal (0.5) in (0, 1].
func rewardValue(s string) (float64, error) {
	var v float64
	if num, den, ok := strings.Cut(s, "/"); ok {
		n, err1 := strconv.ParseFloat(num, 64)
		d, err2 := strconv.ParseFloat(den, 64)
		if err1 != nil || err2 != nil || d == 0 {
			return 0, fmt.Errorf("%q is not a reward value", s)
		}
		v = n / d
	} else {
		var err error
		if v, err = strconv.ParseFloat(s, 64); err != nil {
			return 0, fmt.Errorf("%q is not a reward value", s)
		}
	}
	if !(v > 0 && v <= 1) || math.IsNaN(v) {
		return 0, fmt.Errorf("a reward lies in (0, 1]; %s does not", s)
	}
	return v, nil
}
