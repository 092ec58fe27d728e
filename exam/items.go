package exam

import (
	"fmt"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// LambdaOneItems draws tests Λ_one tests, test k from the seed seed+k−1, so
// that any one of them can be taken again alone with its own seed. Each
// exercise is loaded from the file Source writes, so the test runs exactly
// what a user can check and run. Items are ordered by complexity K_approx,
// the papers' figure; version names the toolchain in the files' headers.
func LambdaOneItems(seed uint64, tests int, version string) ([]Item, error) {
	var items []Item
	for k := range tests {
		s := seed + uint64(k)
		for _, x := range LambdaOne(s) {
			name := fmt.Sprintf("lambda-one:%d/%d", s, x.Number)
			src := x.Source(s, version)
			e, f, err := loadSource(name, src)
			if err != nil {
				return nil, err
			}
			items = append(items, Item{
				Test: k + 1, Number: x.Number, Name: name, Env: e, Source: src, Steps: x.Steps,
				Seed: env.EpisodeSeed(s, x.Number), Complexity: float64(x.KApprox),
				Bits: complexity.Total(complexity.Environment(f, e)), KApprox: x.KApprox, Cells: x.Cells,
			})
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
