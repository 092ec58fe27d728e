package env_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
)

// ringCopy is e with its space replaced by a ring of n cells, its actions
// read as stay, left and right: the ω1-blocker's at any size.
func ringCopy(e *env.Env, n int) *env.Env {
	r := *e
	r.Space = env.Ring(n)
	return &r
}

// The memo keyed by state answers every run as the run itself would:
// episodes with and without it play the same trajectories (observations,
// actions, rewards, positions), count the same runs and bounds and the
// same Kt steps, on every corpus environment and on rings of up to 400
// cells (and of 10,000 cells, whose keys do not fit in 64 bits), over episodes long enough for the memo to answer most runs and
// with a Player that keeps its memos from episode to episode.
func TestMemoPlaysAsPlainRuns(t *testing.T) {
	cases := corpusAndRings(t, 3000, 2000, 7, 50, 400)
	blocker := loadCorpus(t, "thesis/omega1-blocker.anynt")
	// Too many cells for a key in 64 bits: the memo keys by bytes.
	cases = append(cases, envCase{"omega1-blocker ring 10000", ringCopy(blocker, 10_000), 150})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			player := env.NewPlayer(c.e)
			for _, name := range []string{"random", "qlearning", "oracle"} {
				for seed := range uint64(3) {
					newAgent := func() env.Agent { a, _ := agent.New(name, agent.DefaultSettings); return a }
					var fast, plain []env.Step
					memo := player.Episode(newAgent(), seed)
					memo.Run(c.n, func(s env.Step) { fast = append(fast, s) })
					alone := env.NewPlainEpisode(c.e, newAgent(), seed)
					alone.Run(c.n, func(s env.Step) { plain = append(plain, s) })
					if diff := cmp.Diff(plain, fast); diff != "" {
						t.Fatalf("%s seed %d: the memo changes the trajectory (-plain +memo):\n%s", name, seed, diff)
					}
					if memo.MaxSteps != alone.MaxSteps || !cmp.Equal(memo.Bounds, alone.Bounds) {
						t.Fatalf("%s seed %d: steps %d, bounds %v with the memo; %d, %v without", name, seed, memo.MaxSteps, memo.Bounds, alone.MaxSteps, alone.Bounds)
					}
				}
			}
		})
	}
}

// A memo that is full forgets its runs and goes on remembering new ones:
// with memos of 50 runs, forgotten every few interactions, episodes play
// as they do without memos.
func TestForgetfulMemoPlaysAsPlainRuns(t *testing.T) {
	defer env.SetMemoRuns(50)()
	blocker := loadCorpus(t, "thesis/omega1-blocker.anynt")
	for _, e := range []*env.Env{blocker, ringCopy(blocker, 50)} {
		player := env.NewPlayer(e)
		for seed := range uint64(4) {
			a, _ := agent.New("random", agent.DefaultSettings)
			b, _ := agent.New("random", agent.DefaultSettings)
			var fast, plain []env.Step
			memo := player.Episode(a, seed)
			memo.Run(3000, func(s env.Step) { fast = append(fast, s) })
			alone := env.NewPlainEpisode(e, b, seed)
			alone.Run(3000, func(s env.Step) { plain = append(plain, s) })
			if diff := cmp.Diff(plain, fast); diff != "" {
				t.Fatalf("seed %d: a forgetful memo changes the trajectory (-plain +memo):\n%s", seed, diff)
			}
			if memo.MaxSteps != alone.MaxSteps || !cmp.Equal(memo.Bounds, alone.Bounds) {
				t.Fatalf("seed %d: steps %d, bounds %v with the memo; %d, %v without", seed, memo.MaxSteps, memo.Bounds, alone.MaxSteps, alone.Bounds)
			}
		}
	}
}

// FuzzForgetfulMemo plays corpus environments and rings of any size with
// memos that forget every few runs, with the memo and without: the two
// play the same trajectory, steps and bounds.
func FuzzForgetfulMemo(f *testing.F) {
	f.Add(uint8(0), uint16(0), uint8(5), uint64(1), false)
	f.Add(uint8(3), uint16(30), uint8(1), uint64(7), true)
	f.Fuzz(func(t *testing.T, which uint8, cells uint16, runs uint8, seed uint64, learner bool) {
		e := loadCorpus(t, corpusEnvs[int(which)%len(corpusEnvs)])
		if cells > 2 && e.Space.Actions() == 3 {
			e = ringCopy(e, 3+int(cells)%400)
		}
		defer env.SetMemoRuns(1 + int(runs))()
		name := "random"
		if learner {
			name = "qlearning"
		}
		a, _ := agent.New(name, agent.DefaultSettings)
		b, _ := agent.New(name, agent.DefaultSettings)
		var fast, plain []env.Step
		memo := env.NewEpisode(e, a, seed)
		memo.Run(300, func(s env.Step) { fast = append(fast, s) })
		alone := env.NewPlainEpisode(e, b, seed)
		alone.Run(300, func(s env.Step) { plain = append(plain, s) })
		if diff := cmp.Diff(plain, fast); diff != "" {
			t.Fatalf("a forgetful memo changes the trajectory (-plain +memo):\n%s", diff)
		}
		if memo.MaxSteps != alone.MaxSteps || !cmp.Equal(memo.Bounds, alone.Bounds) {
			t.Fatalf("steps %d, bounds %v with the memo; %d, %v without", memo.MaxSteps, memo.Bounds, alone.MaxSteps, alone.Bounds)
		}
	})
}

// envCase is an environment a test plays, and for how many interactions.
type envCase struct {
	name string
	e    *env.Env
	n    int
}

// corpusAndRings gives every environment of the corpus, to be played n
// interactions, and ring copies of the ω1-blocker of the given cells, to
// be played ringN, each able to hold its observation (max-len at least
// twice the cells).
func corpusAndRings(t *testing.T, n, ringN int, cells ...int) []envCase {
	var cases []envCase
	for _, file := range corpusEnvs {
		cases = append(cases, envCase{file, loadCorpus(t, file), n})
	}
	blocker := loadCorpus(t, "thesis/omega1-blocker.anynt")
	for _, c := range cells {
		r := ringCopy(blocker, c)
		r.Settings.MaxLen = max(r.Settings.MaxLen, 2*c)
		cases = append(cases, envCase{fmt.Sprintf("omega1-blocker ring %d", c), r, ringN})
	}
	return cases
}
