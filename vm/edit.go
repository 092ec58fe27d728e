package vm

// Edits. Every change of the string is an edit, and the machine's
// speed-ups that depend on the string are components that follow it: each
// is told of every edit through one method, edited, and keeps its own
// invariant (stated in its doc comment, and tested against a recomputation
// from scratch after random edits). Machine.commit, which makes every
// edit (one step, or repeat's steps of one erasure at once), calls them in
// a fixed order.
//
// An edit is one change of the string: str[start:end] becomes added, and
// the string is then newLen symbols long. rule made the edit, and no rule
// before it occurred in the string before the edit (find returns the first
// rule that applies, and repeat only does steps find would). whole says
// the step stores the new string whole in the memory register (Δ). What
// the edit removed is a removal. The caller gives the span, the rule and
// the symbols; commit works out newLen and whole.
//
// edited takes the edit's parts as arguments rather than a record: the
// ones every component may read each step are values, which stay in
// registers along the machine's hottest path, a step on a short string
// (edited fills the nine integer registers of Go's calling convention);
// a record of them, written by the caller and read back by each
// component, cost Good/Evil about a tenth more data reads (cachegrind),
// though no time that its benchmarks could tell apart. The removal, which
// only the counts read, and only while they are not stale, is passed by
// pointer.
type editObserver interface {
	edited(start, end, newLen int, added []byte, rule int, whole bool, removed *removal)
}

// A removal is what an edit removed: the symbols, text, or, when run is
// set, end-start copies of sym (repeat's erasures, whose symbols nobody
// need read). text may be nil when nothing reads it (the counts are stale,
// the rule stores no capture: runShort's usual step).
type removal struct {
	text []byte
	sym  byte
	run  bool
}

// The components, in the order Machine.commit calls them. They are called
// directly, as concrete types, so that the small ones are inlined into the
// machine's hottest loop; the interface states what they have in common.
var (
	_ editObserver = (*symbolCounts)(nil) // the string's symbol counts (counts.go)
	_ editObserver = (*factLog)(nil)      // where literals can occur in a long string (facts.go)
	_ editObserver = (*scanState)(nil)    // where the scanner resumes (scan.go)
	_ editObserver = (*recentEdit)(nil)   // which rules can only occur near the edit (recent.go)
	_ editObserver = (*register)(nil)     // the memory register (memory.go)
	_ editObserver = (*gapBuffer)(nil)    // the string itself (gap.go)
)
