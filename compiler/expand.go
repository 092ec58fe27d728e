package compiler

import (
	"github.com/anynt/anynt/lang"
)

// Expand returns the ordered expansion of a rule file's main algorithm:
// every sugared rule replaced, in place, by the plain rules it stands for,
// in their order (present before absent for optionals, alternatives in
// written order, χ in alphabet order; the leftmost choice varies slowest).
// This is the meaning of the notation; the VM must behave exactly like a
// naive interpreter of it.
func Expand(f *lang.File, opts Options) ([]lang.PlainRule, error) {
	var out []lang.PlainRule
	err := ExpandEach(f, opts, func(r lang.PlainRule) error {
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ExpandEach is Expand one plain rule at a time: it calls yield with each,
// in order, and holds none, so that printing a large expansion takes little
// memory. A file whose expansion has more than opts.MaxExpansion plain rules
// is refused, as Check refuses it, before the first call; an error from
// yield stops the expansion and is returned.
func ExpandEach(f *lang.File, opts Options, yield func(lang.PlainRule) error) error {
	u, err := analyze(f, f.Rules(), opts)
	if err != nil {
		return err
	}
	var yieldErr error
	for i := range u.rules {
		info := &u.rules[i]
		x := &expander{unit: u, info: info, bound: map[string][]string{}, markFrom: -1}
		x.lhs(info.rule.LHS, nil, func(lhs []string) bool {
			yieldErr = yield(lang.PlainRule{
				Pos:         info.rule.At,
				LHS:         append([]string(nil), lhs...),
				Terminating: info.rule.Terminating,
				MarkFrom:    x.markFrom,
				MarkTo:      x.markTo,
				RHS:         x.rhs(info.rule.RHS, nil),
				StoreWhole:  hasStore(info.rule.RHS),
			})
			return yieldErr == nil
		})
		if yieldErr != nil {
			return yieldErr
		}
	}
	return nil
}

// expander enumerates the expansions of one rule by backtracking over its
// left-hand side, calling yield for each in order.
type expander struct {
	*unit
	info             *ruleInfo
	bound            map[string][]string // what each subscript stands for now
	markFrom, markTo int
}

// lhs expands elems after the symbols acc and continues with k; it returns
// false to stop the enumeration.
func (x *expander) lhs(elems []lang.Elem, acc []string, k func([]string) bool) bool {
	if len(elems) == 0 {
		return k(acc)
	}
	el, rest := elems[0], elems[1:]
	start := len(acc)
	next := func(acc []string) bool {
		if !isMarked(el) {
			return x.lhs(rest, acc, k)
		}
		from, to := x.markFrom, x.markTo
		x.markFrom, x.markTo = start, len(acc)
		ok := x.lhs(rest, acc, k)
		x.markFrom, x.markTo = from, to
		return ok
	}
	if b, ok := x.info.backref[el]; ok {
		return next(append(acc, x.bound[subscriptOf(b.def)]...))
	}
	switch el := el.(type) {
	case *lang.Symbol:
		return next(append(acc, el.Name))
	case *lang.Wildcard:
		excluded := map[string]bool{}
		for _, s := range el.Except {
			excluded[s.Name] = true
		}
		for _, s := range x.symbols[:x.alphabet] {
			if excluded[s] {
				continue
			}
			x.bind(el.Bind, []string{s})
			if !next(append(acc, s)) {
				return false
			}
		}
		x.unbind(el.Bind)
		return true
	case *lang.Group:
		for _, alt := range el.Alts {
			ok := x.lhs(alt, acc, func(acc []string) bool {
				x.bind(el.Bind, acc[start:])
				return next(acc)
			})
			if !ok {
				return false
			}
		}
		x.unbind(el.Bind)
		if el.Optional {
			return next(acc)
		}
		return true
	}
	return next(acc)
}

func (x *expander) bind(sub string, text []string) {
	if sub != "" {
		x.bound[sub] = append([]string(nil), text...)
	}
}

func (x *expander) unbind(sub string) {
	if sub != "" {
		delete(x.bound, sub)
	}
}

func subscriptOf(e lang.Elem) string {
	switch e := e.(type) {
	case *lang.Wildcard:
		return e.Bind
	case *lang.Group:
		return e.Bind
	}
	return ""
}

// rhs writes a right-hand side under the current bindings.
func (x *expander) rhs(elems []lang.Elem, out []lang.PlainItem) []lang.PlainItem {
	for _, el := range elems {
		switch el := el.(type) {
		case *lang.Symbol:
			out = append(out, lang.PlainItem{Sym: el.Name})
		case *lang.Recall:
			out = append(out, lang.PlainItem{Recall: true})
		case *lang.Wildcard:
			out = x.writeBound(el.Bind, out)
		case *lang.Group:
			if el.Bind != "" {
				out = x.writeBound(el.Bind, out)
				continue
			}
			if x.allBound(references(el.Alts[0])) {
				out = x.rhs(el.Alts[0], out)
			}
		}
	}
	return out
}

func (x *expander) writeBound(sub string, out []lang.PlainItem) []lang.PlainItem {
	for _, s := range x.bound[sub] {
		out = append(out, lang.PlainItem{Sym: s})
	}
	return out
}

func (x *expander) allBound(subs []string) bool {
	for _, s := range subs {
		if _, ok := x.bound[s]; !ok {
			return false
		}
	}
	return true
}

func hasStore(elems []lang.Elem) bool {
	for _, el := range elems {
		switch el := el.(type) {
		case *lang.Store:
			return true
		case *lang.Group:
			for _, a := range el.Alts {
				if hasStore(a) {
					return true
				}
			}
		}
	}
	return false
}

// PlainString prints a plain rule as a rule of the notation: juxtaposed
// symbols, a marked span as `(…)^Δ`, Δ last when the rule stores the whole
// string. The output parses back to the same plain rule.
func PlainString(r lang.PlainRule) string {
	rule := &lang.Rule{Terminating: r.Terminating}
	for i := 0; i <= len(r.LHS); {
		switch {
		case i == r.MarkFrom && r.MarkTo-r.MarkFrom == 1:
			rule.LHS = append(rule.LHS, &lang.Symbol{Name: r.LHS[i], Marked: true})
			i++
		case i == r.MarkFrom:
			span := &lang.Group{Marked: true, Alts: [][]lang.Elem{symbolsOf(r.LHS[r.MarkFrom:r.MarkTo])}}
			rule.LHS = append(rule.LHS, span)
			i = r.MarkTo
			if i == r.MarkFrom { // an empty span: step on
				r.MarkFrom = -1
			}
		case i < len(r.LHS):
			rule.LHS = append(rule.LHS, &lang.Symbol{Name: r.LHS[i]})
			i++
		default:
			i++
		}
	}
	for _, it := range r.RHS {
		if it.Recall {
			rule.RHS = append(rule.RHS, &lang.Recall{})
		} else {
			rule.RHS = append(rule.RHS, &lang.Symbol{Name: it.Sym})
		}
	}
	if r.StoreWhole {
		rule.RHS = append(rule.RHS, &lang.Store{})
	}
	return lang.RuleString(rule)
}

func symbolsOf(names []string) []lang.Elem {
	out := make([]lang.Elem, len(names))
	for i, n := range names {
		out[i] = &lang.Symbol{Name: n}
	}
	return out
}
