// Package fuzz holds the fuzz targets of the toolchain. It has no code of
// its own: its tests drive the pipeline (lang → compiler → vm) from the
// outside, the way a user's files do, and check the promises the packages
// make to each other.
//
// # Targets
//
// FuzzParse feeds arbitrary text to lang.Parse. Parsing never panics; every
// error is a *lang.Error of a sorted lang.ErrorList whose position names the
// file and lies inside the input (line 1 to the number of lines, column 1 to
// one past the line's last character). A file that parses is formatted; the
// canonical text parses again without error to the same tree (positions
// aside), and formatting is idempotent. Seeds: every corpus and standard
// library file, and a table of tricky snippets.
//
// FuzzCompile feeds arbitrary text through the whole pipeline. When it
// parses, compiler.Compile never panics and only produces programs that
// pass vm.Program.Validate; when it compiles and its ordered expansion
// (compiler.Expand) is small, the VM and the naive interpreter of the
// expansion (internal/reference) agree on a short input, as below.
//
// FuzzDifferential turns its bytes into a random but valid rule file over
// the alphabet a b c d (plus x, a symbol outside the alphabet): up to five
// rules whose left-hand sides mix symbols, χ, bound χk, (χk ∉ {…}),
// alternatives and optionals (nested, bound, repeated), at most one ^Δ mark,
// and whose right-hand sides mix symbols, bound references, conditional
// optionals, ∇ and Δ, spelled with the notation's variants (\chi, _1, →, ·,
// ;). The alphabet is given as an option, declared in the file, or left to
// the default. It then runs the compiled program on the VM and the
// expansion on the reference interpreter, in rightmost and leftmost mode,
// three runs in a row with one memory register (each run's input is fresh
// or the previous output), with small limits, and requires the same string
// after every step, the same rule at every step, and the same output, halt
// reason, step count and memory after every run. TestDifferentialRandom
// does the same for thousands of fixed seeds, TestGeneratorCompiles checks
// that the generator's files almost always compile, and
// TestDifferentialThesisFixture runs the thesis's expansion example on every
// short input.
//
// FuzzClassic feeds arbitrary text to lang.ParseClassic: no panic, errors
// positioned inside the input; a file that parses compiles (unless it uses
// more than 256 symbols) and runs in leftmost mode on a string made of its
// own patterns exactly like the reference interpreter.
//
// # Running
//
// The seeds run as ordinary tests with `go test ./fuzz/`. To fuzz one
// target:
//
//	go test ./fuzz -run=^$ -fuzz=FuzzParse -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzCompile -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzDifferential -fuzztime=30s
//	go test ./fuzz -run=^$ -fuzz=FuzzClassic -fuzztime=30s
//
// A failing input is written under testdata/fuzz/FuzzX/; once the bug is
// fixed it stays there and runs with the seeds. A FuzzDifferential failure
// prints the generated source, the options, the mode and the runs, so that
// it can be replayed with `anynt markov` or turned into a table test.
package fuzz
