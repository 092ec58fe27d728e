package vm

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunPiecesAgrees runs random programs on random inputs made of runs
// of one symbol, given as a string to Run and in pieces to RunPieces, and
// requires the same runs (see checkPieces).
func TestRunPiecesAgrees(t *testing.T) { agreeRandomly(t, 17, checkPieces) }

// FuzzPieces is TestRunPiecesAgrees with the fuzzer's bytes for the random
// choices; it lives here for the test assembler, which is unexported:
//
//	go test ./vm -run '^$' -fuzz FuzzPieces -fuzztime 10m
func FuzzPieces(f *testing.F) { fuzzAgreement(f, 17, checkPieces) }

// checkPieces makes a random program, as checkLong does, and runs it three
// times in a row on inputs of random runs of one symbol, short (which
// RunPieces counts lazily, as Run does) or up to a few thousand symbols
// (which it counts from the pieces), cut into pieces at random: a run as a
// Repeat or inside a Text, with empty pieces and Repeats of zero or less
// between. Both machines must give the same string, result and memory
// after every run.
func checkPieces(t *testing.T, rng *rand.Rand) {
	symbols := []string{"a", "b", "c"}
	a := newAsm(t, strings.Join(symbols, " "), "")
	if rng.IntN(2) == 0 {
		randomSugaredRules(rng, a, symbols)
	}
	randomPlainRules(rng, a, symbols, 1+rng.IntN(8))
	p := a.build()
	whole, pieced := New(p), New(p)
	for range 3 {
		var input []byte
		var pieces []Piece
		for range rng.IntN(12) {
			sym, n := byte(rng.IntN(len(symbols))), 1+rng.IntN(40)
			if rng.IntN(3) == 0 {
				n = 1 + rng.IntN(800)
			}
			at := len(input)
			input = append(input, bytes.Repeat([]byte{sym}, n)...)
			switch rng.IntN(4) {
			case 0:
				pieces = append(pieces, Piece{Text: input[at:]})
			case 1:
				pieces = append(pieces, Piece{Symbol: sym, Repeat: n}, Piece{Symbol: sym, Repeat: -rng.IntN(2)})
			default:
				pieces = append(pieces, Piece{Symbol: sym, Repeat: n}, Piece{Text: []byte{}})
			}
		}
		opt := Options{
			Leftmost: rng.IntN(2) == 0, MaxSteps: rng.IntN(2*len(input) + 9), MaxLen: len(input) + rng.IntN(len(input)+9),
			MaxWork: rng.IntN(1_000_000),
		}
		if got := AppendPieces(nil, pieces); !bytes.Equal(got, input) {
			t.Fatalf("pieces %+v spell %s, want %s", pieces, a.text(got), a.text(input))
		}
		want, wantRes := whole.Run(input, opt)
		out, res := pieced.RunPieces(pieces, opt)
		if !bytes.Equal(out, want) || res != wantRes || !bytes.Equal(pieced.Memory(), whole.Memory()) {
			t.Fatalf("%s\non %d symbols in %d pieces %+v: %+v, as a string %+v; strings %s; memories %q, %q",
				p.Disasm(), len(input), len(pieces), opt, res, wantRes, firstDiff(out, want), a.text(pieced.Memory()), a.text(whole.Memory()))
		}
	}
}
