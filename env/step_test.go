package env_test

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/google/go-cmp/cmp"
)

// played is an interaction as a trace shows it.
type played struct {
	Observation string
	Action      int
	Reward      float64
	Positions   []int
}

// stepEpisode plays n interactions of e with Begin and Finish, the actions
// chosen by choose from the view, and records them as Run's trace would.
func stepEpisode(t *testing.T, ep *env.Episode, e *env.Env, n int, choose func(*env.View) int) []played {
	t.Helper()
	var out []played
	for range n {
		v, err := ep.Begin()
		if err != nil {
			t.Fatal(err)
		}
		obs := v.Text()
		a := choose(v)
		reward, err := ep.Finish(a)
		if err != nil {
			t.Fatal(err)
		}
		pos := make([]int, len(v.Positions()))
		for i, c := range v.Positions() {
			pos[i] = c + 1
		}
		out = append(out, played{obs, a, reward, pos})
	}
	return out
}

// Begin and Finish are Interact split in two: an episode stepped with them,
// π's actions given from outside, plays exactly as Run plays it with an
// agent inside, in every corpus environment (garbage and cycle clause
// included): the same observations, rewards, cells, VM steps and bound
// counts.
func TestBeginFinishPlayAsRun(t *testing.T) {
	for _, file := range corpusEnvs {
		e := loadCorpus(t, file)
		const n, seed = 300, 11
		q, _ := agent.New("qlearning", agent.DefaultSettings)
		var want []played
		ran := env.NewEpisode(e, q, seed)
		ran.Run(n, func(s env.Step) {
			want = append(want, played{s.Observation, slices.Index(e.Actions, s.Action), s.Reward, s.Positions})
		})
		at := 0
		stepped := env.NewEpisode(e, agentStay(), seed)
		got := stepEpisode(t, stepped, e, n, func(*env.View) int { at++; return want[at-1].Action })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: stepped episode differs from Run's (-Run +stepped):\n%s", file, diff)
		}
		if ran.MaxSteps != stepped.MaxSteps || !cmp.Equal(ran.Bounds, stepped.Bounds) {
			t.Errorf("%s: VM steps %d and bounds %v stepped, %d and %v run", file, stepped.MaxSteps, stepped.Bounds, ran.MaxSteps, ran.Bounds)
		}
	}
}

// Begin twice, Finish without Begin and Finish with an action out of range
// are refused and change nothing: the episode then plays on as one that
// was never misused.
func TestBeginFinishOutOfTurnChangeNothing(t *testing.T) {
	e := loadCorpus(t, "thesis/omega1-blocker.anynt")
	actions := []int{2, 1, 1, 0, 2, 2, 1, 0, 1, 2}
	chooser := func() func(*env.View) int {
		at := 0
		return func(*env.View) int { at++; return actions[(at-1)%len(actions)] }
	}
	want := stepEpisode(t, env.NewEpisode(e, agentStay(), 4), e, 60, chooser())

	ep := env.NewEpisode(e, agentStay(), 4)
	if _, err := ep.Finish(1); !errors.Is(err, env.ErrInteraction) {
		t.Errorf("Finish before Begin: error %v, want ErrInteraction", err)
	}
	if _, err := ep.Begin(); err != nil {
		t.Fatal(err)
	}
	if _, err := ep.Begin(); !errors.Is(err, env.ErrInteraction) {
		t.Errorf("Begin twice: error %v, want ErrInteraction", err)
	}
	for _, a := range []int{-1, len(e.Actions), 1 << 40} {
		if _, err := ep.Finish(a); err == nil {
			t.Errorf("Finish(%d) with %d actions: no error", a, len(e.Actions))
		}
	}
	reward, err := ep.Finish(actions[0])
	if err != nil {
		t.Fatal(err)
	}
	if reward != want[0].Reward {
		t.Errorf("first reward %v after the refused calls, want %v", reward, want[0].Reward)
	}
	if _, err := ep.Finish(actions[1]); !errors.Is(err, env.ErrInteraction) {
		t.Errorf("Finish twice: error %v, want ErrInteraction", err)
	}
	next := chooser()
	next(nil) // the first action is played
	got := stepEpisode(t, ep, e, 59, next)
	if diff := cmp.Diff(want[1:], got); diff != "" {
		t.Errorf("the episode after refused calls differs (-undisturbed +misused):\n%s", diff)
	}
}

// Stepping from outside allocates nothing per interaction either, the
// observation included.
func TestNoAllocationPerBeginFinish(t *testing.T) {
	for _, file := range corpusEnvs {
		e := loadCorpus(t, file)
		r, _ := agent.New("random", agent.DefaultSettings)
		ep := env.NewEpisode(e, r, 1)
		ep.Run(300_000, nil)
		a := env.ObservationAlphabet(e, 1)
		var buf []int
		step := func() {
			v, _ := ep.Begin()
			buf = a.Encode(buf[:0], v.Observation())
			if _, err := ep.Finish(len(buf) % len(e.Actions)); err != nil {
				t.Fatal(err)
			}
		}
		for range 100_000 {
			step()
		}
		if allocs := testing.AllocsPerRun(1000, step); allocs != 0 {
			t.Errorf("%s: %v allocations per interaction", file, allocs)
		}
	}
}

// An alphabet is a permutation of the base symbols, decided by the seed:
// the same seed gives the same one, and encoding an observation gives, for
// each symbol, the index that names it.
func TestObservationAlphabet(t *testing.T) {
	for _, file := range corpusEnvs {
		e := loadCorpus(t, file)
		a := env.ObservationAlphabet(e, 7)
		sorted := slices.Sorted(slices.Values(a.Codes))
		for i, c := range sorted {
			if c != i {
				t.Fatalf("%s: codes %v are not a permutation of 0…%d", file, a.Codes, len(e.BaseSymbols())-1)
			}
		}
		for c, i := range a.Index {
			if a.Codes[i] != c {
				t.Fatalf("%s: index %v and codes %v are not inverses", file, a.Index, a.Codes)
			}
		}
		if !slices.Equal(a.Codes, env.ObservationAlphabet(e, 7).Codes) {
			t.Errorf("%s: seed 7 gives two alphabets", file)
		}
		differs := false
		for seed := range uint64(20) {
			differs = differs || !slices.Equal(a.Codes, env.ObservationAlphabet(e, seed).Codes)
		}
		if !differs {
			t.Errorf("%s: twenty seeds give one alphabet", file)
		}
		names := a.Names(e)
		ep := env.NewEpisode(e, agentStay(), 3)
		v, _ := ep.Begin()
		var spelled string
		for _, i := range a.Encode(nil, v.Observation()) {
			spelled += names[i]
		}
		if spelled != v.Text() {
			t.Errorf("%s: encoded observation spells %q, want %q", file, spelled, v.Text())
		}
	}
}

// An agent outside the process steps an episode: Begin gives π's view,
// the agent answers (later, in another process), Finish plays the answer
// and gives the reward. Here π walks right in the six-cell ring of the
// ω1-blocker; the observation is shown as an agent outside reads it, as
// indices into the exercise's alphabet.
func ExampleEpisode_Begin() {
	src, err := fs.ReadFile(corpus.Files, "thesis/omega1-blocker.anynt")
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err := lang.Parse("omega1-blocker.anynt", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	e, err := env.Load(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	alphabet := env.ObservationAlphabet(e, 1)
	ep := env.NewEpisode(e, agentStay(), env.EpisodeSeed(1, 0))
	for range 5 {
		v, err := ep.Begin()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(v.Text(), " ", alphabet.Encode(nil, v.Observation()))
		reward, err := ep.Finish(1) // l
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf(" l → %+.4g\n", reward)
	}
	ep.End()
	// Output:
	// ⊕:::ω1L:π⊖S:R: [3 8 8 8 11 7 8 5 2 1 8 6 8] l → +3.469e-18
	// ⊕::L:πω1S:⊖R:: [3 8 8 7 8 5 11 1 8 2 6 8 8] l → +0.0625
	// :⊕L:πω1S:R::⊖: [8 3 7 8 5 11 1 8 6 8 8 2 8] l → +0.5
	// L:π⊕ω1S:R:::⊖: [7 8 5 3 11 1 8 6 8 8 8 2 8] l → +0.125
	// πω1SL:R:⊕:::⊖: [5 11 1 7 8 6 8 3 8 8 8 2 8] l → +0
}
