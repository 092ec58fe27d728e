package exam

import (
	"fmt"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/internal/cores"
	"github.com/anynt/anynt/lang"
)

// LambdaOneItems draws tests Λ_one tests, test k from the seed seed+k−1, so
// that any one of them can be taken again alone with its own seed. Each
// exercise is loaded from the file Source writes (Exercise.Load), so the
// test runs exactly what a user can check and run. The items come test by
// test, each test's in the order of its exercises; version names the
// toolchain in the files' headers. The work is done on all cores, each
// job into its own slot: first each test is drawn (a test's exercises
// come from one stream, in order), then each exercise is written, loaded
// and measured on its own, so that the last jobs are short. The loads
// follow the draws without a barrier between them: a load waits only for
// its own test's draw, which another worker is then finishing, since
// every draw is handed out before any load. The items do not depend on
// the number of cores.
func LambdaOneItems(seed uint64, tests int, version string) ([]Item, error) {
	drawn := make([][]Exercise, tests)
	isDrawn := make([]chan struct{}, tests) // closed when the test is drawn
	for k := range isDrawn {
		isDrawn[k] = make(chan struct{})
	}
	n := len(lambdaOneCells)
	items := make([]Item, tests*n)
	errs := make([]error, tests*n)
	cores.Do(tests+tests*n, func(j int) {
		if j < tests {
			drawn[j] = LambdaOne(seed + uint64(j))
			close(isDrawn[j])
			return
		}
		j -= tests
		k := j / n
		<-isDrawn[k]
		items[j], errs[j] = lambdaOneItem(seed+uint64(k), k+1, drawn[k][j%n], version)
	}, nil)
	for _, err := range errs { // the first in the items' order
		if err != nil {
			return nil, err
		}
	}
	return items, nil
}

// lambdaOneItem writes, loads and measures exercise x of the Λ_one test of
// seed s, the test'th of a run.
func lambdaOneItem(s uint64, test int, x Exercise, version string) (Item, error) {
	name := fmt.Sprintf("lambda-one:%d/%d", s, x.Number)
	e, f, src, err := x.Load(name, s, version)
	if err != nil {
		return Item{}, err
	}
	return Item{
		Test: test, Number: x.Number, Name: name, Env: e, Source: src, Steps: x.Steps,
		Seed: env.EpisodeSeed(s, x.Number), Complexity: float64(x.KApprox),
		Bits: complexity.Total(complexity.Environment(f, e)), KApprox: x.KApprox, Cells: x.Cells,
	}, nil
}

// loadSource parses and loads an environment from its source.
func loadSource(name, src string) (*env.Env, *lang.File, error) {
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		return nil, nil, err
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, nil, err
	}
	return e, f, nil
}
