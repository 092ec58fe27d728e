// Package reference is the naive interpreter of plain Markov rules that the
// tests keep as the oracle for the virtual machine.
//
// It runs the ordered expansion of an algorithm (a []lang.PlainRule)
// the way the language reference defines a step, with nothing clever in
// between: strings are slices of symbol names, the first applicable rule is
// found by trying the rules in order, and its occurrence by a linear scan
// (from the right by default, as the environment papers do; from the left in
// the classic mode). Every run is bounded by a step limit and a length limit.
// The VM must agree with it on every program and input; differential tests and
// fuzz targets compare the two. It is written for obviousness, not speed, and
// nothing outside tests should use it. It imports only lang, so that the vm
// package's internal tests can use it as well.
//
// One step, precisely:
//
//  1. The first rule, in order, whose LHS occurs in the string applies; if
//     none does, the run ends (NoRule). The empty LHS occurs at the right end
//     (rightmost mode) or at the left end (leftmost mode).
//  2. If MaxSteps rewrites have already happened, the run ends (StepLimit).
//  3. The RHS is built: ∇ (PlainItem.Recall) writes the memory register as it
//     was before this step.
//  4. The occurrence is replaced by the RHS. If the new string would be longer
//     than MaxLen, the rewrite is not applied and the run ends (LengthLimit).
//  5. Memory: if the rule marks LHS symbols (MarkFrom >= 0), those symbols
//     are stored; then, if StoreWhole, the whole new string is stored.
//  6. A terminating rule ends the run (Terminated); otherwise go to 1.
//
// An input already longer than MaxLen ends the run before any step
// (InputTooLong). The limits are taken literally: zero allows no rewrite, or
// only the empty string, and a negative limit counts as zero. The memory register starts empty and is kept across runs of
// one Interpreter until Reset.
package reference
