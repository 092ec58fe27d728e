package compiler

import (
	"fmt"

	"github.com/anynt/anynt/lang"
)

// ExpansionLimitError says that a rule, or the rules up to it (List), stand
// for more plain rules than the limit allows.
type ExpansionLimitError struct {
	Limit int
	List  bool
}

func (e *ExpansionLimitError) Error() string {
	if e.List {
		return fmt.Sprintf("the rules up to this one stand for more than %d plain rules (their ordered expansion), more than the matcher may try at each position; use fewer or smaller rules", e.Limit)
	}
	return fmt.Sprintf("this rule stands for more than %d plain rules (its ordered expansion), more than the matcher may try at each position; split it, or use fewer optional groups, alternatives and χ", e.Limit)
}

// checkExpansions refuses a rule list whose ordered expansion has more than
// opts.MaxExpansion plain rules, at the rule that passes the limit. The VM
// matches a sugared rule without expanding it, but at one start position
// its search may try every path through the rule's choices, and those
// paths are at most the rule's expansions: bounding the expansion bounds
// the matcher's work per position and step, so that an algorithm that
// checks also runs, and Check refuses exactly what Expand would. The size
// is computed from each rule's shape, without expanding.
func (u *unit) checkExpansions(errs *lang.ErrorList) {
	limit := u.opts.maxExpansion()
	inAlphabet := make(map[string]bool, u.alphabet)
	for _, s := range u.symbols[:u.alphabet] {
		inAlphabet[s] = true
	}
	c := &counter{unit: u, inAlphabet: inAlphabet, most: limit + 1}
	total := 0
	for i := range u.rules {
		info := &u.rules[i]
		c.info = info
		info.expansions = c.count(info.rule.LHS)
		if info.expansions > limit {
			errs.Add(info.rule.At, "%w", &ExpansionLimitError{Limit: limit})
			return
		}
		if total += info.expansions; total > limit {
			errs.Add(info.rule.At, "%w", &ExpansionLimitError{Limit: limit, List: true})
			return
		}
	}
}

// counter counts the expansions of a left-hand side, saturating at most:
// any count from most up means "more than the limit".
type counter struct {
	*unit
	info       *ruleInfo
	inAlphabet map[string]bool
	most       int
}

// count is the number of expansions of a sequence: the product of its
// elements' choices, as Expand enumerates them. A later occurrence of a
// binding repeats what the first matched: one choice.
func (c *counter) count(elems []lang.Elem) int {
	n := 1
	for _, el := range elems {
		if _, ok := c.info.backref[el]; ok {
			continue
		}
		switch el := el.(type) {
		case *lang.Wildcard:
			n = c.mul(n, c.wildcard(el))
		case *lang.Group:
			alts := 0
			if el.Optional {
				alts = 1
			}
			for _, a := range el.Alts {
				alts = min(alts+c.count(a), c.most)
			}
			n = c.mul(n, alts)
		}
	}
	return n
}

// wildcard is the number of alphabet symbols a χ takes.
func (c *counter) wildcard(w *lang.Wildcard) int {
	excluded := map[string]bool{}
	for _, s := range w.Except {
		if c.inAlphabet[s.Name] {
			excluded[s.Name] = true
		}
	}
	return c.alphabet - len(excluded)
}

// mul multiplies two counts of at most c.most, saturating at c.most; a
// sequence with a choice of none has no expansion at all.
func (c *counter) mul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > c.most/b {
		return c.most
	}
	return min(a*b, c.most)
}
