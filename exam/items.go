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
// exercise is loaded from the file Source writes, so the test runs exactly
// what a user can check and run. The items come test by test, each test's
// in the order of its exercises; version names the toolchain in the files'
// headers. The tests are drawn, written and loaded on all cores, each into
// its own slot from its own seed, so the items do not depend on the
// number of cores.
func LambdaOneItems(seed uint64, tests int, version string) ([]Item, error) {
	perTest := make([][]Item, tests)
	errs := make([]error, tests)
	cores.Do(tests, func(k int) {
		perTest[k], errs[k] = lambdaOneTest(seed+uint64(k), k+1, version)
	}, nil)
	items := make([]Item, 0, tests*len(lambdaOneCells))
	for k, test := range perTest {
		if errs[k] != nil {
			return nil, errs[k]
		}
		items = append(items, test...)
	}
	return items, nil
}

// lambdaOneTest draws, writes and loads the exercises of the Λ_one test
// of seed s, the test'th of a run.
func lambdaOneTest(s uint64, test int, version string) ([]Item, error) {
	xs := LambdaOne(s)
	items := make([]Item, len(xs))
	for i, x := range xs {
		name := fmt.Sprintf("lambda-one:%d/%d", s, x.Number)
		src := x.Source(s, version)
		e, f, err := loadSource(name, src)
		if err != nil {
			return nil, err
		}
		items[i] = Item{
			Test: test, Number: x.Number, Name: name, Env: e, Source: src, Steps: x.Steps,
			Seed: env.EpisodeSeed(s, x.Number), Complexity: float64(x.KApprox),
			Bits: complexity.Total(complexity.Environment(f, e)), KApprox: x.KApprox, Cells: x.Cells,
		}
	}
	return items, nil
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
