package exam_test

import (
	"fmt"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
)

// BenchmarkBattery gives a battery of 1,000 environments × 1,000
// interactions to one agent on every core (Take spreads the items over
// them). The environments are the corpus's, repeated in its order to
// 1,000 (a list battery; each item has its own seed): they hold what makes
// an interaction cost, objects and Good and Evil running Markov programs,
// where the generator's are all patterns. generated/ is the same on the
// generator's first 1,000 environments, for comparison. The gallery
// (corpus/gallery) is left out, so that the figures stay those of the
// papers' six environments that the README's performance table quotes.
func BenchmarkBattery(b *testing.B) {
	const envs, steps = 1000, 1000
	srcs := papersEnvironments(b)
	repeated := make([]exam.Source, envs)
	for i := range repeated {
		repeated[i] = srcs[i%len(srcs)]
	}
	fromCorpus, err := exam.LoadPool(repeated)
	if err != nil {
		b.Fatal(err)
	}
	generated, err := exam.GeneratePool(80, envs, nil)
	if err != nil {
		b.Fatal(err)
	}
	for _, pool := range []struct {
		name string
		envs []exam.PoolEnv
	}{{"corpus", fromCorpus}, {"generated", generated}} {
		items, err := exam.Battery(pool.envs, exam.Sampling{Weighting: exam.List, Steps: steps, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		for _, name := range []string{"random", "qlearning"} {
			b.Run(fmt.Sprintf("%s/%s", pool.name, name), func(b *testing.B) {
				newAgent, err := agent.Lookup(name, agent.DefaultSettings)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				interactions := 0
				for b.Loop() {
					out, err := exam.Take(items, []exam.Examinee{{Name: name, New: newAgent}}, exam.DefaultSettings, nil)
					if err != nil {
						b.Fatal(err)
					}
					for _, o := range out {
						interactions += o.Values.Count
					}
				}
				b.ReportMetric(float64(interactions)/b.Elapsed().Seconds(), "interactions/s")
				b.ReportMetric(float64(interactions)/float64(b.N), "interactions/op")
			})
		}
	}
}

// BenchmarkBounds computes the scales of one Λ_one test (7 exercises, 20
// to 80 interactions) and of a battery of 100 generated environments of
// 100 interactions, on every core: for each item, the optimum and random's
// expectation of its one episode, the two forward sweeps over its states
// that a report with --bounds adds to the test.
func BenchmarkBounds(b *testing.B) {
	lambdaOne, err := exam.LambdaOneItems(1, 1, "bench")
	if err != nil {
		b.Fatal(err)
	}
	pool, err := exam.GeneratePool(60, 100, nil)
	if err != nil {
		b.Fatal(err)
	}
	battery, err := exam.Battery(pool, exam.Sampling{Weighting: exam.List, Steps: 100, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		items []exam.Item
	}{{"lambda-one-test", lambdaOne}, {"battery-100", battery}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, bd := range exam.Bounds(c.items, exam.DefaultSettings, nil) {
					if bd.Err != nil {
						b.Fatal(bd.Err)
					}
				}
			}
		})
	}
}
