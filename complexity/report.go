package complexity

import (
	"bytes"
	"math"

	"github.com/andybalholm/brotli"
	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// Report is the complexity of one file.
type Report struct {
	File    string `json:"file"`
	Version string `json:"version"`
	// Bits is the description length; Parts its breakdown.
	Bits  float64 `json:"bits"`
	Parts []Part  `json:"parts"`
	// KtBits is Kt^max ([T] Def. 3.4.1): Bits plus log2 of the most VM
	// steps any interaction needed (MaxSteps, at least 1), over
	// Interactions interactions with Agent and Seed.
	KtBits       float64 `json:"kt_bits"`
	MaxSteps     int     `json:"max_steps"`
	Interactions int     `json:"interactions"`
	Agent        string  `json:"agent"`
	Seed         uint64  `json:"seed"`
	// BrotliBits is the brotli-compressed size of the canonical source
	// without comments, in bits: a second figure that does not depend on
	// the code above.
	BrotliBits int `json:"brotli_bits"`
	// PatternZlibBits, for an environment whose Good and Evil follow a
	// pattern, is the zlib length of the pattern written as digits, in
	// bits: the Λ_one experiments' complexity axis ([T] §6.3).
	PatternZlibBits int `json:"pattern_zlib_bits,omitempty"`
}

// KtSettings fix how Kt^max is measured.
type KtSettings struct {
	Interactions int
	Agent        string
	Seed         uint64
}

// DefaultKt is one episode of 1,000 interactions of the random agent,
// seed 1.
var DefaultKt = KtSettings{Interactions: 1000, Agent: "random", Seed: 1}

// OfEnvironment reports on an environment.
func OfEnvironment(f *lang.File, e *env.Env, kt KtSettings) (*Report, error) {
	r := &Report{File: f.Name, Version: Version, Parts: Environment(f, e),
		Interactions: kt.Interactions, Agent: kt.Agent, Seed: kt.Seed, BrotliBits: brotliBits(f)}
	r.Bits = Total(r.Parts)
	a, err := agent.New(kt.Agent, agent.DefaultSettings)
	if err != nil {
		return nil, err
	}
	ep := env.NewEpisode(e, a, kt.Seed)
	ep.Run(kt.Interactions, nil)
	r.MaxSteps = ep.MaxSteps
	r.KtBits = r.Bits + math.Log2(float64(max(1, r.MaxSteps)))
	if p := e.GoodEvil.Pattern; p != nil {
		digits := make([]byte, len(p))
		for i, a := range p {
			digits[i] = byte('0' + a%10)
		}
		r.PatternZlibBits = 8 * ZlibLength(digits, 6)
	}
	return r, nil
}

// OfRuleFile reports on a bare rule file; its Kt^max is over one run from
// the empty string, under the VM's default bounds.
func OfRuleFile(f *lang.File) (*Report, error) {
	prog, err := compiler.Compile(f, compiler.Options{})
	if err != nil {
		return nil, err
	}
	r := &Report{File: f.Name, Version: Version, Parts: RuleFile(f, prog.Symbols[:prog.AlphabetSize]),
		Interactions: 1, BrotliBits: brotliBits(f)}
	r.Bits = Total(r.Parts)
	_, res := vm.New(prog).Run(nil, vm.DefaultOptions())
	r.MaxSteps = res.Steps
	r.KtBits = r.Bits + math.Log2(float64(max(1, r.MaxSteps)))
	return r, nil
}

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
