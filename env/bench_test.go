package env_test

import (
	"os"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

func loadCorpus(tb testing.TB, name string) *env.Env {
	tb.Helper()
	src, err := os.ReadFile("../corpus/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := lang.Parse(name, src)
	if err != nil {
		tb.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		tb.Fatal(err)
	}
	return e
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
