// Package compiler resolves, checks and lowers rule files to programs for
// the VM, and defines the meaning of the notation's sugar as its ordered
// expansion into plain rules.
//
// Passes:
//
//  1. Resolve: the main algorithm's `use NAME` entries are replaced by the
//     rules of the named block, from the file or else the standard library
//     (stdlib); cycles are errors, and so is a list of more than MaxRules
//     rules. A file that holds that many rules itself is refused sooner,
//     by the parser (lang.MaxStatements); the compiler's bound is for the
//     rules that uses multiply.
//  2. Check: every rule is checked for meaning — subscripts are bound on the
//     left-hand side by their first occurrence, later occurrences must read
//     the same and stand inside the groups the first stands in; the right-hand
//     side only refers to bound subscripts; ^Δ marks stand on the left, at
//     most one per expansion, and not beside a Δ; Δ and ∇ stand on the right.
//     A rule list's ordered expansion may hold at most Options.MaxExpansion
//     plain rules (DefaultMaxExpansion, 2^20): the size is computed from
//     each rule's shape, without expanding (limits.go), and it bounds the
//     VM's backtracking at a position, so Check, Compile and Expand refuse
//     the same files. Resolving uses stops past MaxRules rules. Checking is
//     linear in the file at any depth: the groups around an element are a
//     chain shared by everything inside, and blocks are found by name in a
//     map. Its memory is linear too, and small beside the AST's: a rule's
//     maps of subscripts are made at its first subscript, the rules' infos
//     are one allocation, the symbols are collected once each, and the
//     plain rules' literals are cut from shared chunks.
//     All errors of a file are reported, positioned, up to
//     lang.MaxErrors: then checking stops, as parsing does.
//  3. Symbols: the alphabet (declared, given as an option, or the file's
//     symbols in order of first appearance) gets codes 0..n-1 in its order;
//     other symbols follow. At most 256 symbols.
//  4. Lower: a left-hand side of plain symbols becomes a Plain rule the VM
//     finds with a byte search; any other becomes matcher code in which the
//     order of the OpSplit branches is the order of the expansion. The
//     right-hand side becomes writer code.
//
// Expand is the meaning: each sugared rule replaced, in place, by its plain
// rules in order — present before absent, alternatives as written, χ in
// alphabet order, the leftmost choice varying slowest. The VM must behave
// exactly like the naive interpreter of this expansion (internal/reference);
// the differential fuzz target checks it.
package compiler
