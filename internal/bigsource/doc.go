// Package bigsource writes large rule files for the front end's benchmarks
// and tests: the corpus's rule forms (plain, terminating, groups with
// bindings, optionals, χ with exclusions, marks, Δ and ∇, escapes, blocks
// and uses, comments and blank lines) repeated with varying symbols until the
// file reaches a given size.
//
// The file is a function of its size alone, so that a benchmark measures the
// same text on every machine and a golden hash can pin what the formatter
// and the checker make of it. It stays a valid rule file at any size: it
// declares a small alphabet (χ expands to a few symbols), uses fewer than
// 256 distinct symbols, and its ordered expansion stays under the compiler's
// default bound up to 5 MB.
package bigsource
