package exam

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// PoolEnv is an environment a battery can draw: a file's, or one the
// generator made.
type PoolEnv struct {
	Name string // the file's name, or enumerate:INDEX
	Env  *env.Env
	// Bits is its description length (complexity.Total), the complexity
	// that weights and orders a battery.
	Bits float64
	// Source is the text it was loaded from.
	Source string
}

// Source is an environment's text with the name its errors are positioned
// in.
type Source struct {
	Name string
	Text []byte
	// InFolder marks a file found in a folder rather than named: a rule
	// file there is passed over, since folders such as the corpus's hold
	// rule files beside environments, while a rule file named is refused.
	InFolder bool
}

// Ceilings of a battery, so that a typo cannot fill memory or start a test
// that never ends.
const (
	MaxPool  = 100_000   // environments read or generated
	MaxSteps = 1_000_000 // interactions of one environment
	// MaxGeneratedBits bounds the generator's description lengths; the
	// enumeration refuses what it cannot list well before.
	MaxGeneratedBits = 1000
)

// ErrEmptyPool is the error of a battery drawn from no environment.
var ErrEmptyPool = errors.New("the battery has no environment to draw from")

// ErrRuleFile is the cause of LoadPool's error at a rule file named as an
// environment.
var ErrRuleFile = errors.New("a rule file (no environment statements such as actions), not an environment")

// ReadPool reads the environments of paths: a file is read whatever its
// name, an enumeration's pack gives every environment it holds, in order,
// each named PACK#INDEX (and PACK#INDEX names one), a folder gives every
// *.anynt file under it, recursively, in sorted order. A file that cannot be read stops it at once (the error wraps the
// *fs.PathError); otherwise every file is loaded, as LoadPool does, and a
// file too large to read (lang.MaxSourceSize) is one more of the errors of
// every file.
func ReadPool(paths []string) ([]PoolEnv, error) {
	var srcs []Source
	var large lang.ErrorList
	add := func(name string, inFolder bool) error {
		if len(srcs)+len(large) >= MaxPool {
			return fmt.Errorf("more than %d environment files", MaxPool)
		}
		text, err := generate.ReadSource(name)
		var list lang.ErrorList
		if errors.As(err, &list) {
			large = append(large, list...)
			return nil
		}
		if err != nil {
			return err
		}
		srcs = append(srcs, Source{Name: name, Text: text, InFolder: inFolder})
		return nil
	}
	for _, p := range paths {
		if names, texts, ok, err := generate.PackSources(p); ok {
			if err != nil {
				return nil, err
			}
			for i, name := range names {
				if len(srcs)+len(large) >= MaxPool {
					return nil, fmt.Errorf("more than %d environment files", MaxPool)
				}
				srcs = append(srcs, Source{Name: name, Text: texts[i]})
			}
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			if err := add(p, false); err != nil {
				return nil, err
			}
			continue
		}
		before := len(srcs) + len(large)
		// WalkDir visits a folder's entries in lexical order.
		err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() && strings.HasSuffix(name, ".anynt") {
				return add(name, true)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(srcs)+len(large) == before {
			return nil, fmt.Errorf("%s: no *.anynt file in this folder", p)
		}
	}
	pool, err := LoadPool(srcs)
	if len(large) == 0 {
		return pool, err
	}
	var list lang.ErrorList
	if errors.As(err, &list) {
		large = append(large, list...)
	}
	return nil, large.Err()
}

// LoadPool parses and loads every source as an environment. If any fails,
// the battery cannot start: the error is a lang.ErrorList of every error of
// every file, positioned and sorted. A rule file (one without environment
// statements, env.IsEnvironment) is one of those errors, with ErrRuleFile
// as its cause (a command line that names the wrong kind of file, which a
// caller may tell from a file with errors), unless it was found in a
// folder, when it is passed over; a pool left empty is ErrEmptyPool.
func LoadPool(srcs []Source) ([]PoolEnv, error) {
	if len(srcs) > MaxPool {
		return nil, fmt.Errorf("%d environments; a battery draws from at most %d", len(srcs), MaxPool)
	}
	loaded := make([]loadedSource, len(srcs))
	cores.Do(len(srcs), func(k int) { loaded[k] = loadPoolSource(srcs[k]) }, nil)
	var all lang.ErrorList
	pool := make([]PoolEnv, 0, len(srcs))
	for _, l := range loaded { // in the sources' order, whatever the cores
		switch {
		case l.fatal != nil:
			return nil, l.fatal
		case l.errs != nil:
			all = append(all, l.errs...)
		case l.env.Env != nil:
			pool = append(pool, l.env)
		}
	}
	if err := all.Err(); err != nil {
		return nil, err
	}
	if len(pool) == 0 {
		return nil, ErrEmptyPool
	}
	return pool, nil
}

// loadedSource is what LoadPool made of one source: its environment, the
// positioned errors of a file that does not load, another error that stops
// the battery, or nothing for a rule file found in a folder.
type loadedSource struct {
	env   PoolEnv
	errs  lang.ErrorList
	fatal error
}

// loadPoolSource parses and loads one source of LoadPool; sources are
// loaded on all cores, each into its own slot.
func loadPoolSource(s Source) loadedSource {
	f, err := lang.Parse(s.Name, s.Text)
	if err == nil && !env.IsEnvironment(f) {
		if s.InFolder {
			return loadedSource{}
		}
		var errs lang.ErrorList
		errs.Add(lang.Pos{File: s.Name, Line: 1, Col: 1}, "%w: a battery takes environments", ErrRuleFile)
		return loadedSource{errs: errs}
	}
	var e *env.Env
	if err == nil {
		e, err = env.Load(f)
	}
	if err != nil {
		var list lang.ErrorList
		if !errors.As(err, &list) { // Parse and Load give positioned lists
			return loadedSource{fatal: err}
		}
		return loadedSource{errs: list}
	}
	return loadedSource{env: PoolEnv{Name: s.Name, Env: e, Bits: complexity.Total(complexity.Environment(f, e)), Source: string(s.Text)}}
}

// GeneratePool takes the first size environments of the generator's stream
// (generate.Enumerate: increasing description length, up to maxBits),
// keeping only those that pass filters when filters is not nil. It stops
// with what it has when the stream ends before size.
func GeneratePool(maxBits float64, size int, filters *generate.FilterSettings) ([]PoolEnv, error) {
	if !(maxBits > 0 && maxBits <= MaxGeneratedBits) {
		return nil, fmt.Errorf("the generator's bound is %v bits; it must be above 0 and at most %d", maxBits, MaxGeneratedBits)
	}
	if size < 1 || size > MaxPool {
		return nil, fmt.Errorf("the generator's pool is %d environments; it must be 1 to %d", size, MaxPool)
	}
	if filters != nil {
		if err := filters.Validate(); err != nil {
			return nil, err
		}
	}
	var pool []PoolEnv
	var failed error
	err := generate.Enumerate(maxBits, func(c generate.Candidate) bool {
		name := fmt.Sprintf("enumerate:%d", c.Index)
		src := c.Source()
		if filters != nil {
			v, err := generate.Check(name, src, *filters)
			if err != nil {
				failed = err
				return false
			}
			if !v.Accepted {
				return true
			}
		}
		e, _, err := loadSource(name, src)
		if err != nil { // the generator wrote a file that does not load
			failed = err
			return false
		}
		pool = append(pool, PoolEnv{Name: name, Env: e, Bits: c.Bits, Source: src})
		return len(pool) < size
	})
	if err := cmp.Or(err, failed); err != nil {
		return nil, err
	}
	return pool, nil
}

// Weighting names how a battery draws environments from its pool.
type Weighting string

// The weightings.
const (
	// Universal draws with probability ∝ 2^−K (K the description length in
	// bits), repeats discarded: each draw is among the environments not
	// yet drawn (successive sampling without replacement).
	Universal Weighting = "universal"
	// Stratum draws a complexity stratum uniformly among those with an
	// environment left, then an environment uniformly within it, as AIQ
	// does.
	Stratum Weighting = "stratum"
	// List takes the environments in the pool's order.
	List Weighting = "list"
)

// Weightings lists the weightings by name.
var Weightings = []Weighting{Universal, Stratum, List}

// Sampling says how a battery is drawn from its pool.
type Sampling struct {
	Weighting Weighting
	// Sample is the number of environments drawn, at most the pool's (no
	// environment is drawn twice); 0 takes the whole pool.
	Sample int
	// StratumWidth is the width of a complexity stratum, in bits: stratum
	// k holds the environments of k·w ≤ K < (k+1)·w.
	StratumWidth float64
	// Steps is the number of interactions of each environment.
	Steps int
	// Seed decides the draw and, through env.EpisodeSeed, each item's seed.
	Seed uint64
}

// Validate reports a setting out of its range.
func (s Sampling) Validate() error {
	switch {
	case !slices.Contains(Weightings, s.Weighting):
		return fmt.Errorf("no weighting %q (the weightings: universal, stratum, list)", s.Weighting)
	case s.Sample < 0 || s.Sample > MaxPool:
		return fmt.Errorf("sample is %d; it must be 0 (the whole pool) to %d", s.Sample, MaxPool)
	case s.Steps < 1 || s.Steps > MaxSteps:
		return fmt.Errorf("steps is %d; it must be 1 to %d", s.Steps, MaxSteps)
	case s.Weighting == Stratum && !(s.StratumWidth > 0 && s.StratumWidth <= 1e6):
		return fmt.Errorf("the stratum width is %v bits; it must be above 0 and at most 1e6", s.StratumWidth)
	}
	return nil
}

// batteryStream is the second word of the PCG that draws batteries
// ("Battery"), so that a battery and a Λ_one test of the same seed draw
// different numbers.
const batteryStream = 0x42617474657279

// Battery draws a battery from pool and makes its items: every item gets
// s.Steps interactions and the seed env.EpisodeSeed(s.Seed, index), so
// every examinee meets the same environments with the same randomness.
// Drawn batteries (universal, stratum) are given in increasing
// description length, ties in the pool's order; a list keeps its order.
func Battery(pool []PoolEnv, s Sampling) ([]Item, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if len(pool) == 0 {
		return nil, ErrEmptyPool
	}
	n := s.Sample
	if n == 0 {
		n = len(pool)
	}
	if n > len(pool) {
		return nil, fmt.Errorf("sample is %d but the pool holds %d environments, and none is drawn twice", n, len(pool))
	}
	rng := random.New(s.Seed, batteryStream)
	var drawn []int
	switch s.Weighting {
	case Universal:
		drawn = drawUniversal(rng, pool, n)
	case Stratum:
		drawn = drawStratum(rng, pool, n, s.StratumWidth)
	default:
		drawn = make([]int, n)
		for i := range drawn {
			drawn[i] = i
		}
	}
	if s.Weighting != List {
		slices.SortFunc(drawn, func(a, b int) int { return cmp.Or(cmp.Compare(pool[a].Bits, pool[b].Bits), a-b) })
	}
	items := make([]Item, n)
	for i, k := range drawn {
		p := pool[k]
		items[i] = Item{Test: 1, Number: i + 1, Name: p.Name, Env: p.Env, Source: p.Source, Steps: s.Steps,
			Seed: env.EpisodeSeed(s.Seed, i), Complexity: p.Bits, Bits: p.Bits,
			KApprox: kApprox(p.Env), Cells: p.Env.Space.Cells()}
	}
	return items, nil
}

// drawUniversal draws n environments ∝ 2^−K without replacement by an
// exponential race: environment i finishes at E_i/w_i with E_i ~ Exp(1)
// and w_i = 2^−K_i; the first to finish is i with probability w_i/Σw, the
// next is the first of the others, and so on. The times are compared in
// logarithms, ln E_i + K_i·ln 2, which neither overflow nor underflow
// whatever K.
func drawUniversal(rng *random.Rand, pool []PoolEnv, n int) []int {
	keys := make([]float64, len(pool))
	order := make([]int, len(pool))
	for i, p := range pool {
		keys[i] = math.Log(rng.ExpFloat64()) + p.Bits*math.Ln2
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(keys[a], keys[b]), a-b) })
	return order[:n]
}

// drawStratum draws n environments: a stratum uniformly among those with
// an environment left, then an environment uniformly among its own left.
func drawStratum(rng *random.Rand, pool []PoolEnv, n int, width float64) []int {
	byStratum := map[float64][]int{}
	for i, p := range pool {
		k := math.Floor(p.Bits / width)
		byStratum[k] = append(byStratum[k], i)
	}
	strata := make([][]int, 0, len(byStratum))
	for _, k := range slices.Sorted(maps.Keys(byStratum)) {
		strata = append(strata, byStratum[k])
	}
	drawn := make([]int, 0, n)
	for len(drawn) < n {
		si := rng.IntN(len(strata))
		s := strata[si]
		j := rng.IntN(len(s))
		drawn = append(drawn, s[j])
		s[j] = s[len(s)-1]
		strata[si] = s[:len(s)-1]
		if len(strata[si]) == 0 {
			strata = slices.Delete(strata, si, si+1)
		}
	}
	return drawn
}

// kApprox is the zlib length of Good and Evil's pattern, the papers'
// figure, or 0 when they run a program.
func kApprox(e *env.Env) int {
	p := e.GoodEvilPattern()
	if len(p) == 0 {
		return 0
	}
	return complexity.ZlibLength(digits(p), 6)
}
