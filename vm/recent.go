package vm

// recentEdit remembers the last edit, so that a rule known not to have
// occurred before it is searched for only around it.
//
// Invariant: the first absent rules did not occur in the string before the
// last edit, which wrote str[from:to]; so every occurrence of one of their
// literals, of length l > 0, now overlaps the written span, or straddles
// it if it is empty: it starts in [from-l+1, to-1] (starts). A run starts
// with absent 0, knowing nothing.
type recentEdit struct {
	absent   int
	from, to int
}

// edited records the edit: the rules before rule did not occur before it.
func (r *recentEdit) edited(start, _, _ int, added []byte, rule int, _ bool, _ *removal) {
	r.absent, r.from, r.to = rule, start, start+len(added)
}

// starts returns the interval where an occurrence of a literal of a rule
// known absent, of length l > 0, can start.
func (r *recentEdit) starts(l int) (lo, hi int) { return r.from - l + 1, r.to - 1 }
