package vm

// Edits. Every change of the string is an edit, and the machine's
// speed-ups that depend on the string are components that follow it: each
// is told of every edit through one method, edited, and keeps its own
// invariant (stated in its doc comment, and tested against a recomputation
// from scratch after random edits). Machine.commit, which makes every
// edit (one step, or repeat's steps of one erasure at once), calls them in
// a fixed order.

// An edit is one change of the string: str[start:end] becomes added, and
// the string is then newLen symbols long. The symbols removed are removed,
// or, when run is set, end-start copies of sym (repeat's erasures, whose
// symbols nobody need read); removed may be nil when nothing reads it (the
// counts are stale, the rule stores no capture: runShort's usual step). rule made the edit, and no rule before it
// occurred in the string before the edit (find returns the first rule that
// applies, and repeat only does steps find would). whole says the step
// stores the new string whole in the memory register (Δ). The caller
// gives the span, the rule and the symbols; commit works out newLen and
// whole.
type edit struct {
	start, end, newLen, rule int
	removed, added           []byte
	sym                      byte
	run, whole               bool
}

// editObserver is the one interface of the components that follow the
// string: edited is told of an edit. The string itself (gapBuffer) applies
// it, and is told last, so that the others may still read the string as it
// was.
type editObserver interface {
	edited(e *edit)
}

// The components, in the order Machine.commit calls them. They are called
// directly, as concrete types, so that the small ones are inlined into the
// machine's hottest loop; the interface states what they have in common.
var (
	_ editObserver = (*register)(nil)     // the memory register (memory.go)
	_ editObserver = (*symbolCounts)(nil) // the string's symbol counts (counts.go)
	_ editObserver = (*factLog)(nil)      // where literals can occur in a long string (facts.go)
	_ editObserver = (*scanState)(nil)    // where the scanner resumes (scan.go)
	_ editObserver = (*recentEdit)(nil)   // which rules can only occur near the edit (recent.go)
	_ editObserver = (*gapBuffer)(nil)    // the string itself (gap.go)
)
