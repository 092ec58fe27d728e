package complexity

import (
	"bytes"
	"math"

	"github.com/andybalholm/brotli"
	"github.com/anynt/anynt/lang"
)

// Report is the complexity of one file.
type Report struct {
	File string `json:"file"`
	// Code names the code the bits are counted in (Version).
	Code string `json:"code"`
	// Bits is the description length; Parts its breakdown.
	Bits  float64 `json:"bits"`
	Parts []Part  `json:"parts"`
	// KtBits is Kt^max ([T] Def. 3.4.1): Bits plus log2 of the most VM
	// steps any interaction of the measured run needed (at least 1).
	KtBits float64 `json:"kt_bits"`
	Run
	// BrotliBits is the brotli-compressed size of the canonical source
	// without comments, in bits: a second figure that does not depend on
	// the code above.
	BrotliBits int `json:"brotli_bits"`
	// PatternZlibBits, for an environment whose Good and Evil follow a
	// pattern, is the zlib length of the pattern written as digits, in
	// bits: the Λ_one experiments' complexity axis ([T] §6.3).
	PatternZlibBits int `json:"pattern_zlib_bits,omitempty"`
}

// Run is the run Kt^max is taken over, measured by whoever ran it and
// handed over: the package defines the quantity and runs nothing.
type Run struct {
	// MaxSteps is the most VM steps one interaction needed (for a rule
	// file, its one run).
	MaxSteps     int `json:"max_steps"`
	Interactions int `json:"interactions"`
	// Agent and Seed decided the run; Agent is "" for a rule file's run
	// from the empty string.
	Agent string `json:"agent"`
	Seed  uint64 `json:"seed"`
}

// OfEnvironment reports on an environment, given the run that measured
// its steps.
func OfEnvironment(f *lang.File, e Loaded, run Run) *Report {
	r := &Report{File: f.Name, Code: Version, Parts: Environment(f, e), Run: run, BrotliBits: brotliBits(f)}
	r.Bits = Total(r.Parts)
	r.KtBits = kt(r.Bits, run.MaxSteps)
	if p := e.GoodEvilPattern(); p != nil {
		digits := make([]byte, len(p))
		for i, a := range p {
			digits[i] = byte('0' + a%10)
		}
		r.PatternZlibBits = 8 * ZlibLength(digits, 6)
	}
	return r
}

// OfRuleFile reports on a bare rule file with the given alphabet (the
// compiled program's), given its one run from the empty string.
func OfRuleFile(f *lang.File, alphabet []string, run Run) *Report {
	r := &Report{File: f.Name, Code: Version, Parts: RuleFile(f, alphabet), Run: run, BrotliBits: brotliBits(f)}
	r.Bits = Total(r.Parts)
	r.KtBits = kt(r.Bits, run.MaxSteps)
	return r
}

// kt is Kt^max: the length plus log2 of the steps, a run of no steps
// counting as one.
func kt(bits float64, steps int) float64 { return bits + math.Log2(float64(max(1, steps))) }

// brotliBits compresses the canonical source, without its comments, at
// brotli's best quality: comments are not part of the program.
func brotliBits(f *lang.File) int {
	bare := *f
	bare.Comments = nil
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, brotli.BestCompression)
	w.Write(lang.Format(&bare))
	w.Close()
	return 8 * b.Len()
}
