package compiler

import (
	"errors"
	"slices"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/stdlib"
	"github.com/anynt/anynt/vm"
)

// Options steer compilation.
type Options struct {
	// Alphabet, when set, is the alphabet χ ranges over, in order; it
	// overrides the file's `alphabet` declaration.
	Alphabet []string
	// Extra lists further symbols the strings may hold (an input). Without
	// a declared alphabet they join the default alphabet after the file's
	// own symbols; with one, they are symbols χ does not match.
	Extra []string
	// Prefix, when there is neither Alphabet nor a declaration, starts the
	// default alphabet: an environment puts its observation symbols and
	// actions first, so that every behaviour gives them the same codes.
	Prefix []string
	// MaxExpansion bounds the ordered expansion of a rule list: Check,
	// Compile and Expand refuse a list that stands for more plain rules.
	// 0 means DefaultMaxExpansion.
	MaxExpansion int
}

// DefaultMaxExpansion is the default bound on the size of a rule list's
// ordered expansion: 1,048,576 plain rules.
const DefaultMaxExpansion = 1 << 20

// MaxRules bounds the rules and uses met in resolving a rule list's uses:
// blocks that use blocks twice would otherwise double them at each link.
const MaxRules = 1 << 20

// maxExpansion is the bound opts set.
func (opts Options) maxExpansion() int {
	if opts.MaxExpansion <= 0 {
		return DefaultMaxExpansion
	}
	return opts.MaxExpansion
}

// Compile resolves, checks and lowers a rule file's main algorithm to a
// program for the VM. All errors of the file are returned, positioned.
func Compile(f *lang.File, opts Options) (*vm.Program, error) {
	return CompileList(f, f.Rules(), opts)
}

// CompileList compiles a rule list of f, such as an object's behaviour;
// its uses refer to f's blocks and the standard library.
func CompileList(f *lang.File, list []lang.Entry, opts Options) (*vm.Program, error) {
	u, err := analyze(f, list, opts)
	if err != nil {
		return nil, err
	}
	return u.lower(), nil
}

// Check runs every check of Compile without producing code. Tools call it
// on the part of a file that parsed, so that one run reports the syntax
// errors and the errors of meaning together.
func Check(f *lang.File, opts Options) error {
	_, err := analyze(f, f.Rules(), opts)
	return err
}

// unit is a checked algorithm: its rules with uses resolved, its symbol
// table, and what the checks learned about each rule.
type unit struct {
	rules    []ruleInfo // one allocation for every rule's
	symbols  []string   // by code; the alphabet first
	codes    map[string]byte
	alphabet int
	opts     Options
}

// ruleInfo is what the checks learned about one rule.
type ruleInfo struct {
	rule     *lang.Rule
	bindings map[string]*binding
	backref  map[lang.Elem]*binding // later LHS occurrences of a binding
	marked   bool                   // some LHS element is marked ^Δ
	captures int
	// expansions is the number of plain rules the rule stands for; more
	// than the limit when above it (checkExpansions).
	expansions int
}

// binding is a subscript: its first occurrence on the LHS defines it.
type binding struct {
	def     lang.Elem
	text    string // the canonical spelling, to compare later occurrences
	capture int
	guards  *guard // the innermost group alternative its definition stands in
}

// guard is one alternative of a group, linked to the alternative that holds
// the group (nil at the top level). Everything inside an alternative shares
// its guard, so that entering a group costs the same at any depth.
type guard struct {
	group *lang.Group
	alt   int
	outer *guard
}

// within reports whether g is inner, or stands inside it.
func (g *guard) within(inner *guard) bool {
	for ; g != nil; g = g.outer {
		if g == inner {
			return true
		}
	}
	return inner == nil
}

func analyze(f *lang.File, list []lang.Entry, opts Options) (*unit, error) {
	var errs lang.ErrorList
	rules, ok := resolve(f, list, &errs)
	if !ok {
		return nil, errs.Err()
	}
	u := &unit{codes: map[string]byte{}, opts: opts, rules: make([]ruleInfo, len(rules))}
	for i, r := range rules {
		if len(errs) > lang.MaxErrors {
			// As the parser does: a file of a million wrong rules would
			// give a million errors.
			errs.Add(r.At, "more than %d errors (lang.MaxErrors): the rules from here on are not checked", lang.MaxErrors)
			return nil, errs.Err()
		}
		u.rules[i].check(r, &errs)
	}
	u.buildSymbols(f, &errs)
	u.checkExpansions(&errs)
	if err := errs.Err(); err != nil {
		return nil, err
	}
	return u, nil
}

// resolve flattens a rule list: each `use` is replaced by the rules
// of its block, found in the file first and in the standard library next.
// Uses may nest, and a block used twice by each of a chain of blocks
// doubles the work at each link, so the flattening stops, with an error at
// the entry of the list that passes it, after MaxRules rules and uses; ok
// is false then.
func resolve(f *lang.File, list []lang.Entry, errs *lang.ErrorList) (rules []*lang.Rule, ok bool) {
	rules = make([]*lang.Rule, 0, len(list)) // all of it when there is no use
	blocks := map[string]*lang.Block{}
	for _, d := range f.Decls {
		if b, isBlock := d.(*lang.Block); isBlock && b.Kind == lang.SharedBlock && blocks[b.Name] == nil {
			blocks[b.Name] = b
		}
	}
	entries := 0
	using := map[string]bool{} // the blocks being flattened, to find cycles
	// A block used twice is flattened twice: its mistakes are reported once.
	reported := map[lang.Pos]bool{}
	report := func(at lang.Pos, format string, args ...any) {
		if !reported[at] {
			reported[at] = true
			errs.Add(at, format, args...)
		}
	}
	var walk func(list []lang.Entry, path []string) bool
	walk = func(list []lang.Entry, path []string) bool {
		for _, e := range list {
			if entries++; entries > MaxRules {
				if len(path) == 0 {
					errs.Add(e.Pos(), "with its uses resolved, this rule list has more than %d rules and uses", MaxRules)
				}
				return false
			}
			switch e := e.(type) {
			case *lang.Rule:
				rules = append(rules, e)
			case *lang.Use:
				if using[e.Name] {
					report(e.At, "block %s uses itself (through %v)", e.Name, path)
					continue
				}
				b := blocks[e.Name]
				if b == nil {
					b = stdlib.Lookup(e.Name)
				}
				if b == nil {
					report(e.At, "no block named %s in this file or the standard library", e.Name)
					continue
				}
				using[e.Name] = true
				ok := walk(b.Rules, append(path, e.Name))
				delete(using, e.Name)
				if !ok {
					if len(path) == 0 {
						errs.Add(e.At, "with its uses resolved, this rule list has more than %d rules and uses", MaxRules)
					}
					return false
				}
			}
		}
		return true
	}
	return rules, walk(list, nil)
}

// check checks a rule and records what it learns in info. The maps are
// made at the first subscript: most rules of a large file have none, and
// two empty maps a rule were most of the checker's memory.
func (info *ruleInfo) check(r *lang.Rule, errs *lang.ErrorList) {
	info.rule = r
	if marks := maxMarks(r.LHS); marks > 1 {
		errs.Add(r.At, "one expansion of this rule would store %d marked elements; mark at most one per alternative", marks)
	}
	info.marked = maxMarks(r.LHS) > 0
	info.checkLHS(r.LHS, nil, errs)
	stores := info.checkRHS(r.RHS, false, errs)
	if stores > 1 {
		errs.Add(r.At, "Δ appears %d times on the right-hand side; once stores the whole string", stores)
	}
	if stores > 0 && info.marked {
		errs.Add(r.At, "this rule would store twice: both a marked element (^Δ) and the whole string (Δ)")
	}
	info.captures = len(info.bindings)
	if info.marked {
		info.captures++
	}
}

// maxMarks is the largest number of ^Δ marks one expansion can hold.
func maxMarks(elems []lang.Elem) int {
	n := 0
	for _, e := range elems {
		switch e := e.(type) {
		case *lang.Symbol:
			n += b2i(e.Marked)
		case *lang.Wildcard:
			n += b2i(e.Marked)
		case *lang.Group:
			inner := 0
			for _, a := range e.Alts {
				inner = max(inner, maxMarks(a))
			}
			n += inner + b2i(e.Marked)
		}
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (info *ruleInfo) checkLHS(elems []lang.Elem, guards *guard, errs *lang.ErrorList) {
	for _, e := range elems {
		switch e := e.(type) {
		case *lang.Store:
			errs.Add(e.At, "Δ alone belongs on the right-hand side; on the left, mark an element with ^Δ")
		case *lang.Recall:
			errs.Add(e.At, "∇ belongs on the right-hand side")
		case *lang.Wildcard:
			if e.Bind != "" && info.bindLater(e, e.Bind, guards, errs) {
				continue
			}
			info.define(e, e.Bind, guards)
		case *lang.Group:
			if e.Bind != "" && info.bindLater(e, e.Bind, guards, errs) {
				continue
			}
			info.define(e, e.Bind, guards)
			for i, a := range e.Alts {
				info.checkLHS(a, &guard{group: e, alt: i, outer: guards}, errs)
			}
		}
	}
}

// define records the first occurrence of a subscript.
func (info *ruleInfo) define(e lang.Elem, sub string, guards *guard) {
	if sub == "" {
		return
	}
	if info.bindings == nil {
		info.bindings = map[string]*binding{}
	}
	info.bindings[sub] = &binding{def: e, text: spelling(e), capture: len(info.bindings), guards: guards}
}

// bindLater handles a subscript seen before: the occurrence must be the
// same element as the first, and must stand wherever the first does, so
// that in every expansion that has it the first occurrence is there too.
// It reports whether e is such a later occurrence.
func (info *ruleInfo) bindLater(e lang.Elem, sub string, guards *guard, errs *lang.ErrorList) bool {
	b, ok := info.bindings[sub]
	if !ok {
		return false
	}
	if info.backref == nil {
		info.backref = map[lang.Elem]*binding{}
	}
	info.backref[e] = b
	if !sameBinding(b, e) {
		errs.Add(e.Pos(), "subscript %s is bound to %s at %s; this occurrence must read the same", sub, b.text, b.def.Pos())
	}
	if !guards.within(b.guards) {
		errs.Add(e.Pos(), "subscript %s is bound inside an optional or alternative group at %s; a later use on the left-hand side must stand inside it", sub, b.def.Pos())
	}
	return true
}

// sameBinding reports whether e repeats the binding b: χk may be repeated
// as χk or with the same exclusions; a group must be written identically.
func sameBinding(b *binding, e lang.Elem) bool {
	if w, ok := e.(*lang.Wildcard); ok {
		if _, defIsChi := b.def.(*lang.Wildcard); !defIsChi {
			return false
		}
		return !w.HasExcept || spelling(w) == b.text
	}
	return spelling(e) == b.text
}

// spelling prints an element without its mark, to compare occurrences.
func spelling(e lang.Elem) string {
	switch e := e.(type) {
	case *lang.Wildcard:
		c := *e
		c.Marked = false
		return lang.ElemsString([]lang.Elem{&c}, false)
	case *lang.Group:
		c := *e
		c.Marked = false
		return lang.ElemsString([]lang.Elem{&c}, false)
	}
	return lang.ElemsString([]lang.Elem{e}, false)
}

// checkRHS checks a right-hand side and counts its Δ.
func (info *ruleInfo) checkRHS(elems []lang.Elem, inOptional bool, errs *lang.ErrorList) int {
	stores := 0
	for _, e := range elems {
		switch e := e.(type) {
		case *lang.Symbol:
			if e.Marked {
				errs.Add(e.At, "^Δ marks a left-hand side element; on the right-hand side write Δ alone to store the whole string")
			}
		case *lang.Store:
			if inOptional {
				errs.Add(e.At, "Δ cannot stand inside an optional group")
			}
			stores++
		case *lang.Wildcard:
			switch b := info.bindings[e.Bind]; {
			case e.Bind == "":
				errs.Add(e.At, "χ on the right-hand side must carry a subscript bound on the left-hand side")
			case b == nil:
				errs.Add(e.At, "χ%s is not bound on the left-hand side", e.Bind)
			case e.HasExcept:
				errs.Add(e.At, "write χ%s on the right-hand side; the exclusions belong to the left", e.Bind)
			case !sameBinding(b, e):
				errs.Add(e.At, "subscript %s is bound to %s at %s, not to a χ", e.Bind, b.text, b.def.Pos())
			}
			if e.Marked {
				errs.Add(e.At, "^Δ marks a left-hand side element; on the right-hand side write Δ alone to store the whole string")
			}
		case *lang.Group:
			if e.Marked {
				errs.Add(e.At, "^Δ marks a left-hand side element; on the right-hand side write Δ alone to store the whole string")
			}
			if e.Bind != "" {
				switch b := info.bindings[e.Bind]; {
				case b == nil:
					errs.Add(e.At, "subscript %s is not bound on the left-hand side", e.Bind)
				case !sameBinding(b, e):
					errs.Add(e.At, "subscript %s is bound to %s at %s; this occurrence must read the same", e.Bind, b.text, b.def.Pos())
				}
				continue
			}
			if !e.Optional || len(e.Alts) != 1 {
				errs.Add(e.At, "a group on the right-hand side must carry a subscript bound on the left-hand side, or be an optional [ … ] around bound references")
				continue
			}
			if len(references(e.Alts[0])) == 0 {
				errs.Add(e.At, "an optional group on the right-hand side is written when the subscripts inside it are bound; this one has none")
			}
			stores += info.checkRHS(e.Alts[0], true, errs)
		}
	}
	return stores
}

// references lists the subscripts an RHS sequence refers to, outside
// nested optionals (those are conditions of their own).
func references(elems []lang.Elem) []string {
	var out []string
	for _, e := range elems {
		switch e := e.(type) {
		case *lang.Wildcard:
			out = append(out, e.Bind)
		case *lang.Group:
			if e.Bind != "" {
				out = append(out, e.Bind)
			}
		}
	}
	return out
}

// buildSymbols makes the symbol table: the alphabet first, in its order,
// then every other symbol the rules or the extra symbols mention. Past 256
// symbols the error stands where the 257th first appears in the file, so
// that a long file says which line crossed the limit; a symbol the file
// does not hold (one of the input's, or of the environment's) is named at
// the file's start.
func (u *unit) buildSymbols(f *lang.File, errs *lang.ErrorList) {
	seen := map[string]bool{}
	at := map[string]lang.Pos{} // where the file first shows each symbol
	add := func(names ...string) {
		for _, name := range names {
			if !seen[name] {
				seen[name] = true
				u.symbols = append(u.symbols, name)
			}
		}
	}
	ruleSymbols := u.ruleSymbols()
	var ruleNames []string
	for _, s := range ruleSymbols {
		ruleNames = append(ruleNames, s.Name)
		at[s.Name] = s.At
	}
	switch {
	case u.opts.Alphabet != nil:
		add(u.opts.Alphabet...)
	case f.Alphabet() != nil:
		for _, s := range f.Alphabet().Symbols {
			if seen[s.Name] {
				errs.Add(s.At, "symbol %s is listed twice in the alphabet", s.Name)
			} else {
				at[s.Name] = s.At
			}
			add(s.Name)
		}
	default:
		add(u.opts.Prefix...)
		add(ruleNames...)
		add(u.opts.Extra...)
	}
	u.alphabet = len(u.symbols)
	add(ruleNames...)
	add(u.opts.Extra...)
	if len(u.symbols) > 256 {
		u.tooManySymbols(f, at, errs)
		return
	}
	for i, s := range u.symbols {
		u.codes[s] = byte(i)
	}
}

// tooManySymbols reports a symbol table past 256 at the 257th symbol.
func (u *unit) tooManySymbols(f *lang.File, at map[string]lang.Pos, errs *lang.ErrorList) {
	first := u.symbols[256]
	pos, inFile := at[first]
	if !inFile {
		errs.Add(lang.Pos{File: f.Name, Line: 1, Col: 1}, "the algorithm and its input use %d distinct symbols; the 257th, %s, is not written in this file (it comes from the input or the environment); at most 256 are allowed", len(u.symbols), first)
		return
	}
	errs.Add(pos, "%s is the 257th distinct symbol of the algorithm and its input (%d in all); at most 256 are allowed", first, len(u.symbols))
}

// ruleSymbols lists the symbols of the rules in order of first
// appearance, each at its first occurrence. Each is listed once, so that
// the list is as long as the symbol table, not as the file.
func (u *unit) ruleSymbols() []*lang.Symbol {
	var out []*lang.Symbol
	seen := map[string]bool{}
	for i := range u.rules {
		r := &u.rules[i]
		collectSymbols(r.rule.LHS, seen, &out)
		collectSymbols(r.rule.RHS, seen, &out)
	}
	return out
}

// collectSymbols appends the symbols of elems not seen yet, in order of
// appearance.
func collectSymbols(elems []lang.Elem, seen map[string]bool, out *[]*lang.Symbol) {
	add := func(s *lang.Symbol) {
		if !seen[s.Name] {
			seen[s.Name] = true
			*out = append(*out, s)
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
				collectSymbols(a, seen, out)
			}
		}
	}
}

// CheckPartial is Check on a file that parsed with errors: f holds the
// statements that parsed (nil when none did) and parseErr the parser's
// errors. It returns those errors and the errors of meaning of what parsed,
// together, so that one run reports every error of the file. A parseErr
// that is not a lang.ErrorList (the file could not be read) is returned as
// it is.
func CheckPartial(f *lang.File, parseErr error, opts Options) error {
	var syntax lang.ErrorList
	if !errors.As(parseErr, &syntax) {
		return parseErr
	}
	all := slices.Clone(syntax)
	var meaning lang.ErrorList
	if f != nil && errors.As(Check(f, opts), &meaning) {
		all = append(all, meaning...)
	}
	return all.Err()
}
