//go:build race

package main

// raceDetector says the tests run under the race detector, which makes
// the built-in agents about fifteen times slower: a test that must signal
// anynt in the middle of their work sizes that work by it.
const raceDetector = true
