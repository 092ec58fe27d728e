package generate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/anynt/anynt/env"
)

// EvolveSettings fix a run of Evolve.
type EvolveSettings struct {
	Seed        uint64 // decides every choice of the run and the filters' seed
	Generations int    // generations after the first population
	Population  int    // environments in a population, and candidates a generation
	// Filters are the settings of Check. Their Seed is replaced by the
	// run's; an empty Good agent is the oracle.
	Filters FilterSettings
}

// DefaultEvolve are the defaults of anynt evolve: 10 generations of 16, the
// filters at 60 episodes of 60 interactions with the oracle.
var DefaultEvolve = EvolveSettings{
	Seed: 1, Generations: 10, Population: 16,
	Filters: FilterSettings{Episodes: 60, Steps: 60, Good: "oracle"},
}

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

// Evolve runs the evolution that s describes. onGeneration, if not nil, is
// called after each generation with its record; onCandidate, if not nil,
// after each candidate's filters with the generation and the number of its
// candidates done. When ctx is done, Evolve returns the generations it
// finished with ctx's error.
func Evolve(ctx context.Context, s EvolveSettings, onGeneration func(Generation), onCandidate func(generation, done int)) (*Evolution, error) {
	if s.Population < 2 || s.Generations < 0 || s.Filters.Episodes < 2 || s.Filters.Steps < 1 {
		return nil, errors.New("evolve needs a population of at least 2, at least 2 episodes and 1 step, and no negative generations")
	}
	s.Filters.Seed = s.Seed
	if s.Filters.Good == "" {
		s.Filters.Good = DefaultFilters.Good
	}
	r := &evolution{settings: s, seen: map[string]bool{}, onCandidate: onCandidate}
	ev := &Evolution{Settings: s}
	finish := func(rec Generation) {
		rec.Population = len(r.pop)
		rec.Best, rec.BestBits = r.pop[0].Verdict.Fitness, r.pop[0].Verdict.Bits
		for _, ind := range r.pop {
			rec.Mean += ind.Verdict.Fitness / float64(len(r.pop))
		}
		ev.Generations = append(ev.Generations, rec)
		ev.Population = slices.Clone(r.pop)
		if onGeneration != nil {
			onGeneration(rec)
		}
	}

	rec, err := r.first(ctx)
	if err != nil {
		return ev, err
	}
	if len(r.pop) == 0 {
		return ev, errors.New("no seed environment passed the filters; give them more episodes or steps")
	}
	finish(rec)
	for g := 1; g <= s.Generations; g++ {
		rec, err := r.next(ctx, g)
		if err != nil {
			return ev, err
		}
		finish(rec)
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
func (r *evolution) stream(g int) *rand.Rand {
	return rand.New(rand.NewPCG(r.settings.Seed, env.EpisodeSeed(r.settings.Seed, g)))
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
		if ind, ok := r.consider(g, 0, &rec); ok {
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
		if ind, ok := r.consider(child, 0, &rec); ok {
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
		child := r.breed(rng)
		if ind, ok := r.consider(child, g, &rec); ok {
			accepted = append(accepted, ind)
		}
	}
	r.keepBest(accepted)
	return rec, nil
}

// consider runs the filters on a candidate, unless an earlier candidate was
// the same environment, and counts the outcome in rec.
func (r *evolution) consider(g *genome, generation int, rec *Generation) (Individual, bool) {
	rec.Candidates++
	defer func() {
		if r.onCandidate != nil {
			r.onCandidate(generation, rec.Candidates)
		}
	}()
	src := g.canonicalSource()
	if r.seen[src] {
		rec.Rejected[ReasonDuplicate]++
		return Individual{}, false
	}
	r.seen[src] = true
	v := Check(fmt.Sprintf("generation-%d.anynt", generation), src, r.settings.Filters)
	if !v.Accepted {
		rec.Rejected[v.Reason]++
		return Individual{}, false
	}
	rec.Accepted++
	return Individual{Source: src, Verdict: v, Born: generation, genome: g}, true
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

%s`, s.Seed, s.Generations, s.Population, s.Filters.Episodes, s.Filters.Steps,
		rank, len(ev.Generations)-1, ind.Born,
		v.Fitness, s.Filters.Good, v.Good.Mean, v.Random.Mean, v.Bits, ind.Source)
}

// WriteFiles writes the last population to dir, one file an environment,
// best first: best-01.anynt, best-02.anynt, …. It creates dir if needed and
// returns the paths it wrote.
func (ev *Evolution) WriteFiles(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	width := max(2, len(strconv.Itoa(len(ev.Population))))
	var paths []string
	for i := range ev.Population {
		p := filepath.Join(dir, fmt.Sprintf("best-%0*d.anynt", width, i+1))
		if err := os.WriteFile(p, []byte(ev.File(i+1)), 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
