package generate

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/internal/version"
)

// evolveStateName is the file in which evolve --out keeps its run after
// every generation, so that a killed run resumes where it stopped.
const evolveStateName = ".evolve.json"

// evolveState is everything the next generation depends on: each
// generation draws from its own stream of the seed, so the population
// (genomes included), the sources already seen and the records are the
// whole state. Floats survive JSON exactly (encoding/json writes the
// shortest text that reads back as the same float64).
type evolveState struct {
	Version     string            `json:"version"` // the build that wrote it, for the reader
	Settings    EvolveSettings    `json:"settings"`
	Generations []Generation      `json:"generations"`
	Population  []savedIndividual `json:"population"`
	Seen        []string          `json:"seen"` // sorted
}

type savedIndividual struct {
	Source  string      `json:"source"`
	Verdict Verdict     `json:"verdict"`
	Born    int         `json:"born"`
	Genome  savedGenome `json:"genome"`
}

// savedGenome is a genome in JSON; a symbol is [kind, index].
type savedGenome struct {
	Actions  int           `json:"actions"`
	Space    [][]int       `json:"space"`
	GoodEvil []savedRule   `json:"goodevil"`
	Objects  [][]savedRule `json:"objects"`
}

type savedRule struct {
	LHS         []savedTerm `json:"lhs"`
	RHS         [][2]int    `json:"rhs"`
	Terminating bool        `json:"terminating"`
}

type savedTerm struct {
	Alts     [][2]int `json:"alts"`
	Optional bool     `json:"optional"`
}

func saveGenome(g *genome) savedGenome {
	syms := func(in []geneSym) [][2]int {
		out := make([][2]int, len(in))
		for i, s := range in {
			out[i] = [2]int{int(s.kind), s.index}
		}
		return out
	}
	program := func(p geneProgram) []savedRule {
		out := make([]savedRule, len(p))
		for i, r := range p {
			out[i] = savedRule{RHS: syms(r.rhs), Terminating: r.terminating}
			for _, t := range r.lhs {
				out[i].LHS = append(out[i].LHS, savedTerm{Alts: syms(t.alts), Optional: t.optional})
			}
		}
		return out
	}
	s := savedGenome{Actions: g.actions, Space: g.space, GoodEvil: program(g.goodEvil)}
	for _, p := range g.objects {
		s.Objects = append(s.Objects, program(p))
	}
	return s
}

func (s savedGenome) genome() *genome {
	syms := func(in [][2]int) []geneSym {
		var out []geneSym
		for _, s := range in {
			out = append(out, geneSym{kind: symKind(s[0]), index: s[1]})
		}
		return out
	}
	program := func(in []savedRule) geneProgram {
		out := make(geneProgram, len(in))
		for i, r := range in {
			out[i] = geneRule{rhs: syms(r.RHS), terminating: r.Terminating}
			for _, t := range r.LHS {
				out[i].lhs = append(out[i].lhs, geneTerm{alts: syms(t.Alts), optional: t.Optional})
			}
		}
		return out
	}
	g := &genome{actions: s.Actions, goodEvil: program(s.GoodEvil)}
	for _, row := range s.Space {
		g.space = append(g.space, slices.Clone(row))
	}
	for _, p := range s.Objects {
		g.objects = append(g.objects, program(p))
	}
	return g
}

// checkpoint writes the run's state to the folder, then the population's
// files, each atomically.
func (r *evolution) checkpoint(ev *Evolution) error {
	st := evolveState{Version: version.String(), Settings: r.settings, Generations: ev.Generations,
		Seen: slices.Sorted(func(yield func(string) bool) {
			for s := range r.seen {
				if !yield(s) {
					return
				}
			}
		})}
	for _, ind := range r.pop {
		st.Population = append(st.Population, savedIndividual{ind.Source, ind.Verdict, ind.Born, saveGenome(ind.genome)})
	}
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(r.settings.Out, evolveStateName), b); err != nil {
		return err
	}
	_, err = ev.WriteFiles(r.settings.Out)
	return err
}

// restore reads the folder's state into r and ev. A folder without a state
// must hold no environments of an earlier run; a state of other settings,
// or one whose genomes do not render as their sources, is refused.
func (r *evolution) restore(ev *Evolution) error {
	dir := r.settings.Out
	path := filepath.Join(dir, evolveStateName)
	var st evolveState
	if found, err := readState(path, "best-*.anynt", &st); !found || err != nil {
		return err
	}
	if !st.Settings.equal(r.settings) {
		return fmt.Errorf("%s holds a run with other settings (seed %d, %d generations of %d); use another folder",
			dir, st.Settings.Seed, st.Settings.Generations, st.Settings.Population)
	}
	if len(st.Generations) == 0 || len(st.Population) == 0 {
		return fmt.Errorf("%s is damaged: no generation; use another folder", path)
	}
	r.pop = nil
	for i, saved := range st.Population {
		g := saved.Genome.genome()
		if g.canonicalSource() != saved.Source {
			return fmt.Errorf("%s is damaged: individual %d's genome is not its source; use another folder", path, i+1)
		}
		r.pop = append(r.pop, Individual{Source: saved.Source, Verdict: saved.Verdict, Born: saved.Born, genome: g})
	}
	for _, s := range st.Seen {
		r.seen[s] = true
	}
	ev.Generations = st.Generations
	ev.Population = slices.Clone(r.pop)
	return nil
}

// equal compares the settings that decide a run's result.
func (s EvolveSettings) equal(t EvolveSettings) bool {
	return s.Seed == t.Seed && s.Generations == t.Generations && s.Population == t.Population && s.Filters.equal(t.Filters)
}

// bestName is the file of the environment of the given rank.
func bestName(rank, population int) string {
	return fmt.Sprintf("best-%0*d.anynt", max(2, len(strconv.Itoa(population))), rank)
}

// removeStale removes the best-*.anynt files of dir that are not in keep.
func removeStale(dir string, keep []string) error {
	all, err := filepath.Glob(filepath.Join(dir, "best-*.anynt"))
	if err != nil {
		return err
	}
	for _, p := range all {
		if !slices.Contains(keep, p) {
			if err := os.Remove(p); err != nil {
				return err
			}
		}
	}
	return nil
}
