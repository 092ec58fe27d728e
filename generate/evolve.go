package generate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/random"
)

// EvolveSettings fix a run of Evolve.
type EvolveSettings struct {
	Seed        uint64 `json:"seed"`        // decides every choice of the run and the filters' seed
	Generations int    `json:"generations"` // generations after the first population
	Population  int    `json:"population"`  // environments in a population, and candidates a generation
	// Filters are the settings of Check. Their Seed is replaced by the
	// run's; no reference agents means DefaultFilters' ones.
	Filters FilterSettings `json:"filters"`
	// Out, if not empty, is a folder that holds the run: its state after
	// every generation and the population's files, so that a killed run
	// started again with the same settings resumes where it stopped.
	Out string `json:"-"`
}

// DefaultEvolve are the defaults of anynt evolve: 10 generations of 16, the
// filters at 60 episodes of 60 interactions with the default reference
// agents.
var DefaultEvolve = EvolveSettings{
	Seed: 1, Generations: 10, Population: 16,
	Filters: FilterSettings{Episodes: 60, Steps: 60, References: DefaultFilters.References},
}

// Bounds of a run's size: the seen sources grow with their product.
const (
	MaxPopulation  = 10_000
	MaxGenerations = 100_000
)

// Generation is the record of one generation: how its population scores
// and what became of its candidates.
type Generation struct {
	Number     int     `json:"generation"` // 0 is the first population
	Best       float64 `json:"best_fitness"`
	Mean       float64 `json:"mean_fitness"` // over the population
	BestBits   float64 `json:"best_bits"`    // the best environment's description length
	Population int     `json:"population"`
	Candidates int     `json:"candidates"`
	Accepted   int     `json:"accepted"`
	// Rejected counts the rejected candidates by reason (ReasonSyntax,
	// ReasonSpace, ReasonUnbalanced, ReasonInsensitive, ReasonDuplicate).
	Rejected map[string]int `json:"rejected"`
}

// Individual is an environment of a population.
type Individual struct {
	Source  string // the canonical form, as lang.Format prints it
	Verdict Verdict
	Born    int // the generation that made it
	genome  *genome
}

// Evolution is the outcome of a run: a record a generation and the last
// population, best first.
type Evolution struct {
	Settings    EvolveSettings
	Generations []Generation
	Population  []Individual
}

// ErrNoSeed says that no candidate of the first population passed the
// filters within its tries (20 a place in the population).
var ErrNoSeed = errors.New("no seed environment passed the filters; give them more episodes or steps")

// Evolve runs the evolution that s describes. onGeneration, if not nil, is
// called after each generation with its record; onCandidate, if not nil,
// after each candidate's filters with the generation and the number of its
// candidates done. When ctx is done, Evolve returns the generations it
// finished with ctx's error.
//
// With s.Out, Evolve holds the folder's lock, and writes its state and the
// population's files after every generation; a run started again with the
// same settings goes on from the last generation written (onGeneration is
// called only for the generations it makes) and ends with the result of an
// uninterrupted run, bit for bit.
func Evolve(ctx context.Context, s EvolveSettings, onGeneration func(Generation), onCandidate func(generation, done int)) (*Evolution, error) {
	if s.Population < 2 || s.Population > MaxPopulation || s.Generations < 0 || s.Generations > MaxGenerations {
		return nil, fmt.Errorf("evolve needs a population of 2 to %d and 0 to %d generations", MaxPopulation, MaxGenerations)
	}
	s.Filters.Seed = s.Seed
	if len(s.Filters.References) == 0 {
		s.Filters.References = DefaultFilters.References
	}
	if err := s.Filters.Validate(); err != nil {
		return nil, err
	}
	r := &evolution{settings: s, seen: map[string]bool{}, onCandidate: onCandidate}
	ev := &Evolution{Settings: s}
	if s.Out != "" {
		release, err := openFolder(s.Out)
		if err != nil {
			return nil, err
		}
		defer release()
		if err := r.restore(ev); err != nil {
			return nil, err
		}
		if len(ev.Generations) > 0 {
			// The files are rewritten from the state: one torn or removed
			// by hand comes back.
			if _, err := ev.WriteFiles(s.Out); err != nil {
				return ev, err
			}
		}
	}
	finish := func(rec Generation) error {
		rec.Population = len(r.pop)
		rec.Best, rec.BestBits = r.pop[0].Verdict.Fitness, r.pop[0].Verdict.Bits
		for _, ind := range r.pop {
			rec.Mean += ind.Verdict.Fitness / float64(len(r.pop))
		}
		ev.Generations = append(ev.Generations, rec)
		ev.Population = slices.Clone(r.pop)
		if s.Out != "" {
			if err := r.checkpoint(ev); err != nil {
				return err
			}
		}
		if onGeneration != nil {
			onGeneration(rec)
		}
		return nil
	}

	if len(ev.Generations) == 0 {
		rec, err := r.first(ctx)
		if err != nil {
			return ev, err
		}
		if len(r.pop) == 0 {
			return ev, ErrNoSeed
		}
		if err := finish(rec); err != nil {
			return ev, err
		}
	}
	for g := len(ev.Generations); g <= s.Generations; g++ {
		rec, err := r.next(ctx, g)
		if err != nil {
			return ev, err
		}
		if err := finish(rec); err != nil {
			return ev, err
		}
	}
	return ev, nil
}

// evolution is the state of a run.
type evolution struct {
	settings    EvolveSettings
	pop         []Individual // best first
	seen        map[string]bool
	onCandidate func(generation, done int)
}

// stream is generation g's source of random choices.
func (r *evolution) stream(g int) *random.Rand {
	return random.New(r.settings.Seed, env.EpisodeSeed(r.settings.Seed, g))
}

// first makes generation 0: the seeds that pass the filters, then mutants
// of the population (or of the seeds, while it is empty) until it is full,
// within 20 attempts an environment.
func (r *evolution) first(ctx context.Context) (Generation, error) {
	rng := r.stream(0)
	rec := Generation{Rejected: map[string]int{}}
	seeds := seedGenomes()
	var accepted []Individual
	for _, g := range seeds {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		ind, ok, err := r.consider(g, 0, &rec)
		if err != nil {
			return rec, err
		}
		if ok {
			accepted = append(accepted, ind)
		}
	}
	for try := 0; len(accepted) < r.settings.Population && try < 20*r.settings.Population; try++ {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		parent := seeds[rng.IntN(len(seeds))]
		if len(accepted) > 0 {
			parent = accepted[rng.IntN(len(accepted))].genome
		}
		child := parent.clone()
		child.mutate(rng, 1+rng.IntN(2))
		ind, ok, err := r.consider(child, 0, &rec)
		if err != nil {
			return rec, err
		}
		if ok {
			accepted = append(accepted, ind)
		}
	}
	r.keepBest(accepted)
	return rec, nil
}

// next breeds generation g from the population.
func (r *evolution) next(ctx context.Context, g int) (Generation, error) {
	rng := r.stream(g)
	rec := Generation{Number: g, Rejected: map[string]int{}}
	var accepted []Individual
	for range r.settings.Population {
		if err := ctx.Err(); err != nil {
			return rec, err
		}
		ind, ok, err := r.consider(r.breed(rng), g, &rec)
		if err != nil {
			return rec, err
		}
		if ok {
			accepted = append(accepted, ind)
		}
	}
	r.keepBest(accepted)
	return rec, nil
}

// consider runs the filters on a candidate, unless an earlier candidate was
// the same environment, and counts the outcome in rec. The error is
// Check's, about the settings.
func (r *evolution) consider(g *genome, generation int, rec *Generation) (Individual, bool, error) {
	rec.Candidates++
	defer func() {
		if r.onCandidate != nil {
			r.onCandidate(generation, rec.Candidates)
		}
	}()
	src := g.canonicalSource()
	if r.seen[src] {
		rec.Rejected[ReasonDuplicate]++
		return Individual{}, false, nil
	}
	r.seen[src] = true
	v, err := Check(fmt.Sprintf("generation-%d.anynt", generation), src, r.settings.Filters)
	if err != nil {
		return Individual{}, false, err
	}
	if !v.Accepted {
		rec.Rejected[v.Reason]++
		return Individual{}, false, nil
	}
	rec.Accepted++
	return Individual{Source: src, Verdict: v, Born: generation, genome: g}, true, nil
}

// File is the text of the population's environment of the given rank (from
// 1): a header comment with the run's seed and settings, the generation
// that made it, its fitness and bits, then its canonical source. The whole
// text is in canonical form.
func (ev *Evolution) File(rank int) string {
	ind := ev.Population[rank-1]
	s, v := ev.Settings, ind.Verdict
	return fmt.Sprintf(`# anynt evolve --seed %d --generations %d --population %d --episodes %d --steps %d
# rank %d of generation %d, born in generation %d
# fitness %.4f = (%s %.4f - random %.4f) / log2(%.2f bits)
# written by anynt %s

%s`, s.Seed, s.Generations, s.Population, s.Filters.Episodes, s.Filters.Steps,
		rank, len(ev.Generations)-1, ind.Born,
		v.Fitness, v.Best.Agent, v.Best.Mean, v.Random.Mean, v.Bits, version.String(), ind.Source)
}

// WriteFiles writes the last population to dir, one file an environment,
// best first: best-01.anynt, best-02.anynt, … (as many digits as the
// settings' population needs). It creates dir if needed, writes each file
// atomically, removes the best-*.anynt files that are not of this
// population, and returns the paths it wrote.
func (ev *Evolution) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var paths []string
	for i := range ev.Population {
		p := filepath.Join(dir, bestName(i+1, max(ev.Settings.Population, len(ev.Population))))
		if err := atomicfile.Write(p, []byte(ev.File(i+1))); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, removeStale(dir, paths)
}
