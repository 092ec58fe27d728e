package agentproto

import (
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// lengths is a random agent that notes the length of every observation.
type lengths struct {
	rng  *random.Rand
	n    int
	seen map[int]bool
}

func (a *lengths) Start(e *env.Env, rng *random.Rand) { a.n, a.rng = len(e.Actions), rng }
func (a *lengths) Act(v *env.View) int                { a.seen[len(v.Observation())] = true; return a.rng.IntN(a.n) }
func (a *lengths) End(float64)                        {}

// The length start announces is the length of every observation, in
// every environment of the corpus (Λ_one's among them), whatever the
// agent does.
func TestStartGivesTheObservationsLength(t *testing.T) {
	files, err := filepath.Glob("../corpus/*/*.anynt")
	if err != nil || len(files) == 0 {
		t.Fatal("no corpus", err)
	}
	played := 0
	for i, name := range files {
		src, err := lang.ReadSource(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := lang.Parse(name, src)
		if err != nil || !env.IsEnvironment(f) {
			continue // a rule file
		}
		e, err := env.Load(f)
		if err != nil {
			continue // the corpus's files with errors on purpose
		}
		a := &lengths{seen: map[int]bool{}}
		ep := env.NewPlayer(e).Episode(a, uint64(i))
		for range 500 {
			ep.Interact()
		}
		if want := observationLength(e); len(a.seen) != 1 || !a.seen[want] {
			t.Errorf("%s: observations of lengths %v; start says %d", name, a.seen, want)
		}
		played++
	}
	if played < 5 {
		t.Errorf("only %d environments in the corpus", played)
	}
}
