// Package vm runs compiled Markov algorithms.
//
// # Programs
//
// A Program is the compiler's output and the machine's only input; it is
// read-only, so one Program can back many machines. Its strings are byte
// strings of symbol codes (at most 256 symbols), so that the machine can
// search them with byte searches; codes below AlphabetSize form the
// alphabet that χ ranges over, in the alphabet's order. All code of all
// rules is one flat []Instr; a rule points at its matcher code (Rule.Match)
// and its writer code (Rule.Write). Literals and exclusion sets live in
// constant pools that instructions index. Validate checks the invariants
// that the machine relies on instead of checking them while it runs; Disasm
// prints a program for tests and debugging.
//
// # One step
//
// The rules are tried in order; the first that applies replaces one
// occurrence and the run stops if that rule is terminating or if none
// applies. The occurrence replaced is the rightmost by default (the
// environment papers' convention) and the leftmost with Options.Leftmost
// (the classic one). An empty left-hand side matches at the right end, or
// at the left end in leftmost mode.
//
// A plain rule has a fixed left-hand side, found with bytes.Index, or from
// the right with a word-at-a-time scan (bytes.LastIndex hashes every
// byte). A sugared rule (optionals, alternatives, χ, bound subscripts) means
// its ordered expansion, the list of plain rules e1..ek it stands for: it
// applies iff some ei occurs, and the ei applied is the first that occurs
// anywhere, at its rightmost (leftmost) occurrence.
//
// The matcher code computes this without expanding. At one start position
// it is a backtracking depth-first search in which OpSplit tries its
// fall-through branch first, so the first success is the lowest-ranked
// expansion that matches there. The search records each choice it makes
// (0 or 1 per OpSplit, the symbol code per OpAny); the compiler lays out the
// code so that comparing these records lexicographically orders expansions
// by rank. The machine scans start positions from the preferred end and
// keeps the first match it meets unless a later position has a strictly
// lower record: the result is the lowest record, nearest the preferred end.
// Shortcuts that do not change the answer keep this fast: a search stops as
// soon as its record climbs above the best one found (records are met in
// increasing order); the scan stops at a record of all first choices, which
// nothing can beat; and the matcher only starts where the rule's anchor, a
// run of symbols that every match contains at a known distance from its
// start, occurs at that distance.
//
// Most sugared rules have small expansions, though, and searching for a
// handful of literals with a byte search is much faster than starting the
// matcher at every position. So New enumerates each rule's ordered
// expansion (the paths through its matcher code, in search order) and,
// when it has at most 32 literals, finds the rule by searching for them in
// order; the first literal that occurs gives the position, and the
// captures the expansion recorded for that literal are the ones the matcher
// would find there, since its first success there is that literal's
// expansion.
//
// Finding the first rule that applies is itself sped up three ways, none of
// which changes the answer:
//
//   - On a string of at most 64 symbols (most observations are that
//     short), one pass of an Aho–Corasick automaton over every literal of
//     the leading expanded rules, each state knowing the lowest-ranked
//     literal ending there, finds the first literal that occurs; the pass
//     resumes where the last rewrite began, the states before it being
//     unchanged. On a string of up to 512 symbols the automaton serves the
//     first step of a run, and then every step whose pass resumes at most
//     16 symbols from the end: rewrites at the right, as under the papers'
//     rightmost convention, keep it so; rewrites further left go to the
//     byte searches below. When the automaton covers every rule, Run steps
//     through a loop of its own (runShort) while it serves: each literal
//     carries its whole step, including its right-hand side, which the
//     literal and its captures decide unless the writer reads the memory
//     register, and the splice moves a short string's tail in 8-byte words.
//     The automaton is built during a run, not by New: once the machine's
//     searches without it have cost about what building it would (a rule
//     tested or a symbol of the string against a transition of its table
//     or a literal ranked), so that a machine that runs little, such as
//     that of a file of half a million rules run once on a short input,
//     never builds it, and one that runs long pays at most about twice the
//     cheaper of the two, as one who rents skis until the rent reaches
//     their price (scan.go).
//   - A rule that needs a symbol the string lacks is skipped: the machine
//     counts the string's symbols (lazily, and only when a search reads the
//     counts; RunPieces counts them from the pieces its input comes in, a
//     step a run of one symbol).
//   - A rule that did not occur before the last rewrite can only occur now
//     across the rewritten span, so only its surroundings are searched.
//
// # Edits and the components that follow them
//
// Every change of the string is an edit: str[start:end], whose symbols
// were removed, becomes the symbols added (edit.go). The speed-ups that
// depend on the string are components, each its own type with its state
// and its invariant stated in its doc comment, and each is told of every
// edit through one method, edited; all but the string itself are told
// before the string changes:
//
//   - symbolCounts (counts.go): unless stale, the count of each symbol in
//     the string;
//   - factLog (facts.go): for every literal of an expanded rule, an
//     interval that holds the start of every occurrence;
//   - scanState (scan.go): the scanner's points are right up to where the
//     last edit began, so a scan resumes there;
//   - recentEdit (recent.go): the rules before the one that made the last
//     edit did not occur before it, so an occurrence of one of them now
//     overlaps the span it wrote;
//   - register (memory.go), the memory register: its value is what the
//     language says whatever the edits, and while it shadows the string,
//     the shadow with its pending splices is the string;
//   - gapBuffer (gap.go), the string itself, which applies the edit last.
//
// Machine.commit, which makes every edit, calls them in that order: the
// register just before the string, because it may copy the string as it was;
// the string last, because the others may read it as it was. A step and
// repeat's many steps at once both go through commit, so each component sees
// every edit, and none depends on another's state but for two stated
// couplings: the register reads the string (it may be the string), and the
// counts are let go stale while the scanner serves every step, since nothing
// reads them then. The components are called as concrete types, not through
// the interface that states what they share, so that the small ones are
// inlined into the step. A test per component (edit_test.go) checks its
// invariant after random edits against a recomputation from scratch; the
// differential tests and fuzzers check that together they change no run.
//
// # Long strings
//
// On a string longer than 512 symbols (longLen) a step costs time in
// proportion to what it changes, not to the string's length, as long as
// the rules are expanded (plain, or sugared with a small expansion): a -> b
// on 100,000 a's takes milliseconds, rightmost or leftmost, where searching
// the whole string at every step would take seconds. Two things make it so.
//
// Facts. For every literal of every expanded rule the machine keeps an
// interval [lo, hi] that holds the start of every occurrence of the
// literal, as of some splice. A search looks only inside it and leaves a
// new one: the literal does not occur (lo > hi), or, found at p, no
// occurrence starts beyond p on the preferred side, since the search came
// from there ([lo, p] rightmost, [p, hi] leftmost). Literals not searched
// keep theirs: the rules ranked after the one that fired, and the literals
// of a sugared rule after the one found. A splice that writes n symbols
// over str[start:end] moves an interval to the smallest one that holds
// three kinds of occurrence, which are all there can be: those wholly
// before the rewritten span, which were there before and started in
// [lo, min(hi, start-len)]; those wholly after it, which were there before
// at or after end and so moved by the change of length; and those that
// overlap the new span (or straddle it, if it is empty), which start in
// [start-len+1, start+n-1]. The machine logs its last 1,024 splices and
// carries a fact across them when it is read; an older fact, or one from
// an earlier run, is forgotten and its literal searched for everywhere, as
// at a run's start. Under rightmost a -> b, the fact after a rewrite at p
// is "no a starts beyond p", so the next search reads one symbol; under
// leftmost, symmetrically. The shortcut for the rules before the one
// that fired (they can only occur across the rewritten span) narrows
// their intervals further.
//
// A gap buffer. The string is kept as a head and a tail, the tail at the
// end of the buffer, with the gap at the end of the last rewrite; a
// rewrite moves the gap to the end of its span (moving the symbols in
// between) and writes its right-hand side before it, so a run of nearby
// rewrites moves few symbols however long the string; one that keeps the
// length writes in place and leaves the gap, and an erasure just after
// the gap shrinks the tail. A search looks at the head, the tail, and the
// few symbols across the gap copied out. Whatever reads the string whole
// closes the gap first: the matcher of a sugared rule that is not
// expanded (its matches are not of bounded length, so it gets no facts
// and searches the whole string), a trace, and the end of Run, whose
// output is contiguous. Δ, which stores the whole
// string, does not copy it (see Memory). The writer and ^Δ read captures
// from the symbols of the match, which for a literal are the literal
// itself, never from the string.
//
// Strings of up to 512 symbols are not long: the scanner and the byte
// searches above serve them, and there facts and a gap would cost more
// than they save.
// TestLongAgrees and FuzzLong compare the machine with one that searches
// plainly, and with one for which every string is long.
//
// Captures are slot pairs (start, end) set by OpSave, undone on
// backtracking through an undo log on the backtrack stack. The writer code
// builds the right-hand side from literals, captures of the string before
// the rewrite, and the memory register as it was before the step; the
// result is spliced into the string in place.
//
// # Runs of one erasure
//
// Observations are mostly separators, and programs often begin by erasing
// them: Good/Evil's (π|ω1|S|L|R|:) -> takes a 400-cell observation apart
// one ':' a step. When a step erases a literal that is one symbol repeated
// (c^l), the rules before it cannot form across the join while at least
// b-1 copies of c remain beside it (b the longest literal ranked before
// it: any occurrence would lie within a substring of the string before the
// step, where none occurred), and the next occurrence of c^l is the one
// next to the join: so the machine does the steps that erase the rest of
// the run of c at once, as long as at least max(l, b-1) copies remain,
// in one edit, and counts each of them (repeat.go states the argument). It needs the
// scanner's ranks of every rule up to the erasing one, and is skipped
// while a trace watches every step; output, result, memory and the step
// limit are as if the steps were done one by one. A 400-cell ring's
// observation then takes about ten steps' work instead of 400.
// TestRepeatAgrees, FuzzRepeat and FuzzLong compare it with a machine
// that steps through each erasure, and with the reference interpreter.
//
// # Memory
//
// A Machine has one memory register, empty at first and kept across runs,
// because an environment object runs its algorithm once per interaction and
// remembers between interactions. When a rule fires and Rule.Store >= 0, the
// text capture Store matched is stored (nothing is, if the capture is
// unbound: the mark stood in an alternative the match did not take); with
// Rule.StoreWhole the whole new string is. Reset empties the register.
//
// Storing the whole string costs what the step changes, not the string's
// length (register, memory.go): after a Δ step the register is the string itself,
// which further Δ steps keep so for nothing. A step without Δ must change
// the string and not the register, so the machine then keeps a shadow, a
// second gap buffer that follows the string's splices (copied from the
// string once a run): the register is the shadow as of the last Δ, the
// splices since wait in a log, and the next Δ replays them, a cost in
// proportion to their changes. The log never grows past the string's
// length: then the register is copied out, once for as many splices. ∇
// reads the register where it is; Memory, and the end of Run, copy it out
// so that between runs it is the machine's own. a -> b Δ on 300,000 a's
// costs what a -> b costs; copying the string at every step would take
// seconds.
// TestDeltaCopiesFollowTheChange bounds the symbols a run copies by a
// multiple of its steps and its input's length; TestDeltaAgreesWithReference
// and FuzzDifferentialLong compare long runs with the reference
// interpreter.
//
// # Limits
//
// Every run is bounded, and every limit means what it says. Options.MaxSteps
// is the most rewrites a run does: when that many happened and a rule still
// applies the run halts with StepLimit (with NoRule if none applies); 0
// allows none. Options.MaxLen is the longest string, in symbols: a rewrite
// that would exceed it is not done and the run halts with LengthLimit; an
// input already longer is not run at all and halts with InputTooLong.
// Options.MaxWork bounds the time the matcher may take, which steps and
// length alone do not: a rule with k optionals can make one search try 2^k
// paths at each start position. It counts one unit for each start position
// the matcher tries and one for each choice point it passes (between two
// choice points the matcher runs at most the rule's code, which has no
// loops), summed over the run; when it runs out, the step under way is
// abandoned and the run halts with WorkLimit. The budget is the run's, not
// a step's, so that a run's time is bounded by it directly rather than by
// MaxSteps times it. Plain rules, and sugared ones found by searching for
// their expansion's literals, cost no work: their searches are bounded by
// the string's length.
//
// A negative limit counts as zero, so the zero Options run nothing:
// DefaultOptions gives the defaults, DefaultMaxSteps and DefaultMaxLen (one
// million each) and DefaultMaxWork (a hundred million units, a second or
// two). A default is asked for by name, never by leaving a field at zero,
// so that a limit of zero can mean zero, as it does in the reference
// interpreter.
//
// # Cost
//
// A Machine owns its buffers (the string, the right-hand side scratch, the
// memory, the capture slots, the choice records and the backtrack stack) and
// reuses them (the facts, the splice log, the gap buffer and the memory's
// shadow included), so once they have grown to the run's needs a step
// allocates nothing; the tests assert it with testing.AllocsPerRun. The
// string and the register also count the symbols they copy, which tests
// bound per step. The output of Run is the machine's string buffer, valid
// until the next Run. The matcher is one for loop around one switch over a
// flat instruction stream. New analyses each rule once (its expansion, its
// anchor): make a machine once per program and memory register, and reuse
// it.
package vm
