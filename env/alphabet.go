package env

import "github.com/anynt/anynt/random"

// Alphabet is the alphabet an agent outside the process reads π's
// observations in (docs/protocol.md): a permutation of the environment's
// base symbols, drawn from the exercise's seed, so that an observation is a
// list of small integers whose meaning is not fixed in advance, as the
// human interface changes the glyphs of each exercise. The agent learns
// what each index means by playing, as π does; nothing says which index is
// Good or Evil.
type Alphabet struct {
	// Index[c] is the index an agent sees for observation code c (an
	// index into Env.BaseSymbols).
	Index []int
	// Codes is the inverse: Codes[i] is the code index i stands for.
	Codes []int
}

// alphabetStream is the second word of the PCG stream that draws an
// alphabet, apart from the streams of the episode, the agent and the
// garbage, which share the seed.
const alphabetStream = 0xa1fa_be7

// ObservationAlphabet draws the alphabet of an exercise of e from its seed:
// the same environment and seed give the same alphabet. Both directions of
// the protocol use it, so that an agent sees the same indices whether anynt
// drives it (--agent-cmd) or it drives anynt (serve-env). The draw,
// random.New(seed, alphabetStream).Perm(n), is part of the protocol:
// changing it changes every recorded trajectory.
func ObservationAlphabet(e *Env, seed uint64) Alphabet {
	n := len(e.symbols.names)
	a := Alphabet{Index: random.New(seed, alphabetStream).Perm(n), Codes: make([]int, n)}
	for c, i := range a.Index {
		a.Codes[i] = c
	}
	return a
}

// Encode appends to dst the indices of an observation's codes (as
// View.Observation gives them).
func (a Alphabet) Encode(dst []int, codes []byte) []int {
	for _, c := range codes {
		dst = append(dst, a.Index[c])
	}
	return dst
}

// Names spells the alphabet: the symbol each index stands for.
func (a Alphabet) Names(e *Env) []string {
	names := make([]string, len(a.Codes))
	for i, c := range a.Codes {
		names[i] = e.symbols.names[c]
	}
	return names
}
