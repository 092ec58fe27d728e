// Package fuzz holds the fuzz targets of the toolchain. It has no code of
// its own: its tests drive the pipeline (lang → compiler → vm → env →
// generate → exam → study → web) from the
// outside, the way a user's files do, and check the promises the packages
// make to each other.
//
// # Targets
//
// FuzzParse feeds arbitrary text to lang.Parse. Parsing never panics; every
// error is a *lang.Error of a sorted lang.ErrorList whose position names the
// file and lies inside the input (line 1 to the number of lines, column 1 to
// one past the line's last character). When the text parses, every position
// in the tree lies inside the input too, and the canonical form
// (lang.Format) parses without error to the same tree, positions aside;
// formatting it again changes nothing. Seeds: every corpus and standard
// library file, and a table of tricky snippets (arrows, marks, escapes,
// subscripts next to runs, reserved characters as symbols, unbalanced
// brackets, bad bytes, comments, blocks, environment declarations).
//
// FuzzCompile feeds arbitrary text through the whole pipeline: whatever
// parses compiles without panicking, to positioned errors or to a program
// that passes vm.Program.Validate, and a program whose ordered expansion
// (compiler.Expand) is small runs on an input made of its own symbols
// exactly like the reference interpreter of the expansion, as below.
//
// FuzzDifferential turns its bytes into a random but valid rule file over
// the alphabet a b c d, in any order, plus x, a symbol outside it: up to
// five rules whose left-hand sides mix symbols, χ, bound χk, (χk ∉ {…}),
// alternatives and optionals (nested, bound, repeated where the binding
// allows), at most one ^Δ mark, and whose right-hand sides mix symbols,
// bound references, conditional optionals (nested), ∇ and Δ; terminating
// or not, sometimes in a block used once or twice, spelled with the
// notation's variants (\chi, \notin, _1, →, ·, ;). The alphabet is given as
// an option, declared in the file, or left to the default. The VM then runs
// the compiled program and the reference interpreter (internal/reference)
// runs the expansion, in rightmost and in leftmost mode, three runs in a row
// with one memory register (each run on a fresh input or on the previous
// output, sometimes after a reset), with small limits (200 steps and 160
// symbols, sometimes far fewer). They must give the same string and the
// same rule after every step, and the same output, halt reason, step count
// and memory after every run. The canonical form of the file must expand to
// the same plain rules. Expansions of more than 300 plain rules are too
// slow for the reference: the VM runs them alone.
//
// FuzzDifferentialLong runs the same check on strings longer than 512
// symbols, where the VM keeps the string in a gap buffer, searches it by
// what it knows of each literal, and lets Δ store it without copying it
// (vm/memory.go). The rules are the generator's elements in chains: rule
// i starts with the i-th symbol and mostly writes the one rule i-1
// starts with, and half of them end with Δ, so that steps that store the
// string and steps that change it without storing it take turns; files
// without Δ, ∇ or ^Δ are skipped. Each fresh input has 513 to 900
// symbols (mostly one symbol, or uniform), with up to 200 steps and 1,800
// symbols, and expansions of up to 40 plain rules.
//
// Tests run the same check without -fuzz: TestDifferentialRandom on 2000
// fixed seeds, TestDifferentialLongRandom on 100 (long strings),
// TestDifferentialThesisFixture on the thesis's expansion
// example for every input of up to four symbols, TestDifferentialRegressions
// on the discrepancies fuzzing found, once fixed. TestGeneratorCompiles
// requires 95% of generated files to compile, so that the generator keeps
// testing something.
//
// FuzzClassic feeds arbitrary text to lang.ParseClassic: no panic, a file
// even beside errors (the well-formed lines' rules), errors and symbols
// positioned inside the input, each symbol the character at its position
// (after a leading byte-order mark); a file that parses compiles (unless it has more than 256
// symbols) and runs in leftmost mode, on a string made of its own patterns,
// exactly like the reference interpreter.
//
// FuzzGeneratedEnvironment turns its bytes into a valid environment (2–4
// actions, 2–6 cells, a repaired table, Good/Evil a pattern or a program,
// up to two objects, random settings) and plays every agent in it: every
// reward and score lies in [−1, 1], Good and Evil never share a cell, π's
// observation has a ':' for each cell and π once, no interaction takes more
// VM steps than its behaviours' bounds, and the same seed gives the same
// run.
//
// FuzzSpaceCode feeds arbitrary codes to env.DecodeCode in both dialects,
// strict and lenient: no panic, and any space it returns is well formed.
//
// FuzzEnumerate enumerates up to a fuzzed bound: lengths never decrease,
// never pass the bound, and every environment emitted loads.
//
// FuzzTake gives a Λ_one exercise of a fuzzed seed to the built-in agents,
// the stopper and the modulator included, at a fuzzed pace (constant,
// uniform, exponential) and test time (exam.Take): no interaction past τ
// or the steps, every per-interaction payoff in [−1, 1], anytime curves
// that never go back, the curve's last point the payoffs at τ (it found
// that τ·n/n is not always τ), and the same outcome again.
//
// FuzzStudy answers a study's intro with fuzzed answers and sends fuzzed
// moves (participant, seq, cell, the page's time) to a study on a real
// SQLite file: answers are accepted or refused with ErrIntro, and nothing
// is recorded then; each move is played or refused with exactly the error
// its first fault calls for, a refusal changing nothing; a study opened
// again on the file resumes at the same view.
//
// FuzzWeb sends fuzzed requests (method, path, Content-Type, Origin,
// Sec-Fetch-Site, body, with or without a session's cookie) to package
// web's server over a study on a real SQLite file: every answer carries
// the security headers, every refusal is a JSON error with one of the
// documented statuses (never 500), and only a 200 to /api/move records a
// move, exactly one.
//
// FuzzDuplicateKey holds agentproto.DuplicateKey, which scans a protocol
// line's bytes for a key given twice (serve-env checks every request), to
// a reference that decodes the line with encoding/json's tokens: on every
// line the decoder takes, both find the same duplicate, or none. Seeds:
// nested objects, strings holding quotes and braces, escaped and invalid
// UTF-8 keys, keys in two cases, and more keys than the scanner compares.
//
// # Running
//
// The seeds run as ordinary tests with `go test ./fuzz/`. To fuzz one
// target:
//
//	go test ./fuzz -run=^$ -fuzz=FuzzParse -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzCompile -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzDifferential -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzDifferentialLong -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzClassic -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzGeneratedEnvironment -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzSpaceCode -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzEnumerate -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzTake -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzStudy -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzWeb -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzDuplicateKey -fuzztime=30s
//
// A failing input is written under testdata/fuzz/FuzzX/; it is committed
// once the bug is fixed, and then runs with the seeds. A differential
// failure prints the generated source, the options, the limits, the mode
// and the runs, with the step where the VM and the reference part, so that
// it can be replayed with `anynt markov` or added to
// TestDifferentialRegressions. Pauses with no executions in the progress
// lines are the fuzzer minimizing a new input, not a hang.
package fuzz
