package env_test

import (
	"bytes"
	"slices"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// seen is what one interaction showed: π's reward and where everything
// went.
type seen struct {
	reward float64
	pos    []int
}

// idle is an agent never asked to act: the tests play by Begin and
// Finish.
type idle struct{}

func (idle) Start(*env.Env, *random.Rand) {}
func (idle) Act(*env.View) int            { return 0 }
func (idle) End(float64)                  {}

// playThrough plays actions on ep by Begin and Finish.
func playThrough(t *testing.T, ep *env.Episode, actions []int) []seen {
	t.Helper()
	var out []seen
	for _, a := range actions {
		v, err := ep.Begin()
		if err != nil {
			t.Fatal(err)
		}
		r, err := ep.Finish(a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, seen{r, slices.Clone(v.Positions())})
	}
	return out
}

// TestRestoreReplays saves an episode of the ω1-blocker (a fleeing ω1,
// halving trace rewards, the cycle clause and the garbage phase drawing
// from the environment's stream) after some interactions, plays on,
// restores and plays other actions, restores again and plays the first
// actions again: each continuation must be what a fresh episode of the
// same seed playing the whole sequence shows, interaction by interaction.
func TestRestoreReplays(t *testing.T) {
	e := loadCorpus(t, "thesis/omega1-blocker.anynt")
	rng := random.New(1, 2)
	actions := func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = rng.IntN(len(e.Actions))
		}
		return s
	}
	for seed := range uint64(6) {
		before, after, other := actions(int(seed)*7), actions(40), actions(40)
		ep := env.NewEpisode(e, idle{}, seed)
		playThrough(t, ep, before)
		s, err := ep.Save()
		if err != nil {
			t.Fatal(err)
		}
		playThrough(t, ep, after)
		ep.Restore(s)
		gotOther := playThrough(t, ep, other)
		ep.Restore(s)
		gotAfter := playThrough(t, ep, after)
		for _, c := range []struct {
			got  []seen
			then []int
		}{{gotAfter, after}, {gotOther, other}} {
			fresh := env.NewEpisode(e, idle{}, seed)
			want := playThrough(t, fresh, append(slices.Clone(before), c.then...))[len(before):]
			for i := range want {
				if c.got[i].reward != want[i].reward || !slices.Equal(c.got[i].pos, want[i].pos) {
					t.Fatalf("seed %d, interaction %d after the restore: %v, a fresh episode %v", seed, i+1, c.got[i], want[i])
				}
			}
		}
	}
}

// TestKeyTellsStatesApart checks that the key changes with the
// environment's random stream and with a behaviour's memory, which the
// positions alone do not show, and that a restored state has the key it
// was saved with.
func TestKeyTellsStatesApart(t *testing.T) {
	e := loadCorpus(t, "thesis/omega1-blocker.anynt")
	ep := env.NewEpisode(e, idle{}, 3)
	playThrough(t, ep, []int{1, 2, 0, 2, 1, 1, 2})
	s, err := ep.Save()
	if err != nil {
		t.Fatal(err)
	}
	key, err := ep.AppendKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	env.Draw(ep)
	if k, _ := ep.AppendKey(nil); bytes.Equal(k, key) {
		t.Error("a draw from the random stream leaves the key as it was")
	}
	ep.Restore(s)
	if k, _ := ep.AppendKey(nil); !bytes.Equal(k, key) {
		t.Error("a restored state has another key")
	}
	ids := env.MemoryIDs(ep)
	env.SetMemoryID(ep, 0, ids[0]+1)
	if k, _ := ep.AppendKey(nil); bytes.Equal(k, key) {
		t.Error("another memory of ω1 leaves the key as it was")
	}
}
