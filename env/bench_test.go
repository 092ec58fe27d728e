package env_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

func loadCorpus(tb testing.TB, name string) *env.Env {
	tb.Helper()
	src, err := fs.ReadFile(corpus.Files, name)
	if err != nil {
		tb.Fatal(err)
	}
	return loadSource(tb, name, string(src))
}

// BenchmarkInteractions measures interactions a second on one core, in
// steady state:
//
//	go test ./env -run '^$' -bench Interactions -benchmem
func BenchmarkInteractions(b *testing.B) {
	for _, bm := range []struct{ name, file, agent string }{
		{"omega1-blocker/random", "thesis/omega1-blocker.anynt", "random"},
		{"fixture-b/random", "lambda-one/fixture-b.anynt", "random"},
		{"fixture-b/qlearning", "lambda-one/fixture-b.anynt", "qlearning"},
	} {
		b.Run(bm.name, func(b *testing.B) {
			e := loadCorpus(b, bm.file)
			a, _ := agent.New(bm.agent, agent.DefaultSettings)
			ep := env.NewEpisode(e, a, 1)
			ep.Run(10_000, nil) // warms the machines' buffers and the agent
			b.ReportAllocs()
			b.ResetTimer()
			ep.Run(b.N, nil)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
		})
	}
}

// BenchmarkEvaluate measures whole evaluations, the main job of the
// README's set-up at a tenth of its size (100 episodes of 1,000
// interactions, random agent, both cores): placement, start-up garbage and
// the episodes, with the machines and memos Evaluate hands from episode to
// episode:
//
//	go test ./env -run '^$' -bench Evaluate -benchmem
func BenchmarkEvaluate(b *testing.B) {
	e := loadCorpus(b, "thesis/omega1-blocker.anynt")
	newRandom := func() env.Agent { a, _ := agent.New("random", agent.DefaultSettings); return a }
	const episodes, n = 100, 1000
	b.ReportAllocs()
	for b.Loop() {
		env.Evaluate(e, newRandom, episodes, n, 1, nil)
	}
	b.ReportMetric(float64(b.N*episodes*n)/b.Elapsed().Seconds(), "interactions/s")
}

// BenchmarkRing measures one interaction in steady state as the space
// grows: a ring copy of the ω1-blocker of 6 to 400 cells, random agent,
// one core:
//
//	go test ./env -run '^$' -bench Ring -benchmem
func BenchmarkRing(b *testing.B) {
	blocker := loadCorpus(b, "thesis/omega1-blocker.anynt")
	for _, n := range []int{6, 20, 100, 400, 2000} {
		b.Run(fmt.Sprintf("cells=%d", n), func(b *testing.B) {
			r := *blocker
			r.Space = env.Ring(n)
			a, _ := agent.New("random", agent.DefaultSettings)
			ep := env.NewEpisode(&r, a, 1)
			ep.Run(10_000, nil)
			b.ReportAllocs()
			b.ResetTimer()
			ep.Run(b.N, nil)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
		})
	}
}

// BenchmarkLargeSpace measures one interaction in steady state as the
// space grows, where every behaviour's run is remembered: a ring of 6 to
// 100,000 cells, Good and Evil on a pattern (as the generator's
// environments), trace rewards, random agent, one core. Only the space
// grows, so an interaction should cost the same at every size:
//
//	go test ./env -run '^$' -bench LargeSpace -benchmem
func BenchmarkLargeSpace(b *testing.B) {
	for _, n := range []int{6, 100, 1000, 10_000, env.MaxCells} {
		b.Run(fmt.Sprintf("cells=%d", n), func(b *testing.B) {
			e := loadRing(b, n, "goodevil pattern 1 1 2 0\nset garbage off\n")
			a, _ := agent.New("random", agent.DefaultSettings)
			ep := env.NewEpisode(e, a, 1)
			ep.Run(1000, nil)
			b.ReportAllocs()
			b.ResetTimer()
			ep.Run(b.N, nil)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "interactions/s")
		})
	}
}

// loadRing loads an environment on a ring of n cells (actions s, l, r)
// with the given declarations.
func loadRing(tb testing.TB, n int, decls string) *env.Env {
	tb.Helper()
	return loadSource(tb, "ring.anynt", ringSource(n)+decls)
}

// ringSource declares the actions and space of a ring of n cells.
func ringSource(n int) string {
	return "actions s l r\nspace thesis " + strings.Repeat("l-r+:", n-1) + "l-r+\n"
}

// loadSource loads an environment from its source text, named name.
func loadSource(tb testing.TB, name, src string) *env.Env {
	tb.Helper()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		tb.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// BenchmarkGarbage measures the start-up garbage phase: an episode's
// placement and its U[1, B] interactions of a random agent, B = n_c^n_a
// capped at env.MaxCycleBound, on ω1-blocker rings and on pattern rings
// (no objects) of growing size, a fresh episode each time, one core. The
// garbage-ns metric divides the time by the phase's expected length,
// (B+1)/2:
//
//	go test ./env -run '^$' -bench Garbage -benchmem -benchtime 20x
func BenchmarkGarbage(b *testing.B) {
	src, err := fs.ReadFile(corpus.Files, "thesis/omega1-blocker.anynt")
	if err != nil {
		b.Fatal(err)
	}
	blocker := string(src)
	start := strings.Index(blocker, "space generator")
	end := start + strings.Index(blocker[start:], "}") + 1
	for _, bm := range []struct {
		kind  string
		cells int
	}{{"omega1-blocker", 6}, {"omega1-blocker", 20}, {"omega1-blocker", 50}, {"omega1-blocker", 100}, {"pattern", 100}, {"pattern", 1000}} {
		b.Run(fmt.Sprintf("%s/cells=%d", bm.kind, bm.cells), func(b *testing.B) {
			var e *env.Env
			if bm.kind == "pattern" {
				e = loadRing(b, bm.cells, "goodevil pattern 1 1 2 0\n")
			} else {
				e = loadSource(b, "ring.anynt", blocker[:start]+"space thesis "+strings.Repeat("l-r+:", bm.cells-1)+"l-r+"+blocker[end:])
			}
			player := env.NewPlayer(e)
			a, _ := agent.New("random", agent.DefaultSettings)
			player.Episode(a, 0) // the machines meet the environment
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				player.Episode(a, uint64(i+1))
			}
			mean := float64(e.Settings.CycleBound+1) / 2
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/mean, "ns/garbage-interaction")
		})
	}
}

// BenchmarkRingRuns measures runs of 20 episodes × 1,000 interactions on
// ring copies of the ω1-blocker of 400, 2,000 and 10,000 cells (max-len
// raised to twice the cells, so that the observation fits; start-up
// garbage off, so that every interaction is a measured one), random agent,
// one Player (its memos kept from episode to episode), one core. An
// interaction's time is split in two: vm-ns, the behaviours' runs inside
// the VM, which must read an observation of a symbol a cell, and
// machine-ns, the rest: building the observations, the memo, the moves
// and rewards:
//
//	go test ./env -run '^$' -bench RingRuns -benchmem -benchtime 1x
func BenchmarkRingRuns(b *testing.B) {
	blocker := loadCorpus(b, "thesis/omega1-blocker.anynt")
	const episodes, n = 20, 1000
	for _, cells := range []int{400, 2000, 10_000} {
		b.Run(fmt.Sprintf("cells=%d", cells), func(b *testing.B) {
			r := ringCopy(blocker, cells)
			r.Settings.MaxLen = max(r.Settings.MaxLen, 2*cells)
			r.Settings.Garbage = false
			player := env.NewPlayer(r)
			inVM := env.ClockRuns(player)
			a, _ := agent.New("random", agent.DefaultSettings)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				for e := range episodes {
					player.Episode(a, uint64(i*episodes+e)).Run(n, nil)
				}
			}
			interactions := float64(b.N * episodes * n)
			total, vm := float64(b.Elapsed().Nanoseconds()), float64(inVM().Nanoseconds())
			b.ReportMetric(total/interactions, "ns/interaction")
			b.ReportMetric(vm/interactions, "vm-ns/interaction")
			b.ReportMetric((total-vm)/interactions, "machine-ns/interaction")
		})
	}
}
