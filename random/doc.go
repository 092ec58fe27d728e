// Package draw is the one random-number generator that every random
// choice in anynt comes from: where an episode puts π, Good and Evil,
// when they swap, what the agents choose, how a generated environment
// mutates, which items a battery takes.
//
// A Rand is math/rand/v2's PCG (a 128-bit permuted congruential generator
// with the DXSM output function) with the draws anynt makes of it written
// here: IntN and Uint64N by Lemire's multiply-and-reject method ("Fast
// random integer generation in an interval", ACM TOMACS, 2019), Float64
// from a draw's top 53 bits, Perm by Fisher–Yates from the last element
// down. They give exactly the draws that math/rand/v2's Rand gives over
// the same PCG on a 64-bit platform, so that a seed keeps every
// trajectory, score and environment it gave before (TestSameDrawsAsRand
// checks each against the library).
//
// Why not math/rand/v2's Rand itself:
//
//   - Speed. A Rand of the library calls its Source through an interface,
//     which the compiler cannot inline; a draw costs about twice what the
//     generator does. An episode of the lean kind spends about a third of
//     its time drawing, and this package's draws, on a concrete PCG, are
//     what keep it as fast as it was when it had a private copy of the
//     library's algorithm.
//   - One implementation. That copy, and a second one for drawing spaces
//     in the Λ_one protocol, are gone: Uniform is the second, kept here.
//   - The same draws on every platform. On a 32-bit platform the library
//     takes another path for bounds below 2³², and a seed would give other
//     draws there; this package takes the 64-bit path everywhere.
//
// The exponential and normal draws (ExpFloat64, NormFloat64) are the
// library's, made from the same stream: they are used in two cold places
// and their tables are not worth a second copy.
package random
