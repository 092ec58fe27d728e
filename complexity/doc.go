// Package complexity measures how complex an environment or a rule file is,
// as the tests that sample and order environments by complexity need
// ([P] §1, §6; [T] §2.1, §3.4). It gives three figures, each deterministic
// (docs/complexity.md has the code in full and the reasons for it):
//
//   - the description length in bits under a prefix-free code of our own,
//     versioned (Version, "anynt-dl/1"): code.go charges naturals (Elias
//     delta) and choices (log2 of the alternatives), dl.go charges programs
//     rule by rule and element by element, and an environment part by part
//     (actions, space, objects, Good/Evil, shared blocks, rewards, placement,
//     settings). A golden test over the corpus pins every figure, so that a
//     change to what the code charges shows as a diff and must come with a
//     new Version;
//   - Kt^max ([T] Def. 3.4.1): the length plus log2 of the most VM steps one
//     interaction needed;
//   - a compression estimate that does not depend on the code: the brotli
//     size of the canonical source, and for a Good/Evil pattern the zlib
//     length the Λ_one experiments used, from zlib.go, a re-implementation
//     of C zlib's deflate that agrees with zlib 1.2.13 byte for byte.
//
// The code is read from the source (lang) and from what the environment
// loader worked out of it, through the Loaded interface, which env.Env
// satisfies. The package imports neither env nor the compiler nor the VM:
// defining a quantity is not running one. Kt^max needs a run, and the run
// is the caller's job: the complexity command plays the agent in the
// environment (env) or runs the rule file (vm), and hands the most steps
// over as a Run. So the package links only the parser and brotli, and
// whatever measures the run can change without touching the code.
//
// Design choices, each with a test: rules shared through a block are
// charged once, so 100 objects using one block cost less than twice one; a
// space is charged as the Markov algorithm that writes it, so a regular
// ring written by a generator costs less than an irregular table; symbols
// cost log2 of the alphabet in scope, and work symbols' names cost nothing,
// so renaming them changes no figure.
package complexity
