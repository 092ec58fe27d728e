package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
)

// batteryFlags are the flags of a battery: where its environments come
// from, how they are drawn, and how long each is given.
type batteryFlags struct {
	weighting    string
	sample       int
	steps        int
	stratumWidth float64
	// generate is the generator's bound in bits; 0 reads the files named
	// on the command line instead.
	generate float64
	pool     int  // the generator's environments
	filters  bool // keep only generated environments that pass the filters
	// all are the battery's flags; sampling those that draw the items
	// from the pool, which the adaptive test (a ladder of the whole
	// pool) refuses; generated those that only --generate reads.
	all, sampling, generated flagGroup
}

// batteryHelp is the part of the test command's help that describes the
// battery flags.
const batteryHelp = `A battery takes its environments from the FILEs and folders named (a folder
gives every *.anynt file under it, in sorted order) or, with --generate BITS,
from the generator: the first --pool environments of the enumeration up to
BITS bits, in order of description length, keeping those that pass the
filters (balance, discrimination; --filters=false keeps them all). Every file
is loaded before the test starts; if any fails, every error of every file is
printed and the command exits 1. --weighting draws --sample environments (0:
the whole pool) from the pool, none twice: universal (probability ∝ 2^−K, K
the description length in bits, among those not yet drawn), stratum (a
stratum of --stratum-width bits uniformly, then an environment uniformly in
it, as AIQ does) or list (the pool's order). Each environment gets --steps
interactions, and every agent meets the same environments with the same
seeds (docs/tests.md, "Batteries").`

// register adds the battery flags to f.
func (fl *batteryFlags) register(f flagDefs) {
	f.in(&fl.all, func(f flagDefs) {
		f.in(&fl.sampling, func(f flagDefs) {
			f.StringVar(&fl.weighting, "weighting", string(exam.List), "how environments are drawn from the pool: universal, stratum or list")
			f.IntVar(&fl.sample, "sample", 0, "environments drawn from the pool, none twice (0: the whole pool)")
			f.IntVar(&fl.steps, "steps", 100, fmt.Sprintf("interactions of each environment of a battery (1 to %d)", exam.MaxSteps))
			f.Float64Var(&fl.stratumWidth, "stratum-width", 1, "the width in bits of a complexity stratum, for --weighting stratum")
		})
		f.Float64Var(&fl.generate, "generate", 0, "draw the battery from the generator's environments up to this many bits, not from files")
		f.in(&fl.generated, func(f flagDefs) {
			f.IntVar(&fl.pool, "pool", 1000, fmt.Sprintf("the generator's environments, the first of the enumeration (1 to %d)", exam.MaxPool))
			f.BoolVar(&fl.filters, "filters", true, "keep only generated environments that pass the generator's filters")
		})
	})
}

// checkNotGenerated refuses the flags only --generate reads, which a
// pool of files or Λ_one's ladder has no use for; why says why.
func (fl *batteryFlags) checkNotGenerated(why string) error {
	if name := fl.generated.given(); name != "" {
		return usage(fmt.Errorf("--%s is for --generate%s", name, why))
	}
	return nil
}

// describe names the settings that drew a battery, for its report: the
// files and folders or the generator's, the weighting, the sample and the
// steps.
func (fl batteryFlags) describe(files []string) string {
	from := "files " + strings.Join(files, " ")
	if fl.changed("generate") {
		from = fmt.Sprintf("generate %g bits, pool %d, filters %t", fl.generate, fl.pool, fl.filters)
	}
	sample := "all"
	if fl.sample > 0 {
		sample = fmt.Sprint(fl.sample)
	}
	text := fmt.Sprintf("%s; weighting %s; sample %s; steps %d", from, fl.weighting, sample, fl.steps)
	if exam.Weighting(fl.weighting) == exam.Stratum {
		text += fmt.Sprintf("; stratum width %g bits", fl.stratumWidth)
	}
	return text
}

// changed reports whether a flag was given on the command line.
func (fl batteryFlags) changed(name string) bool { return fl.all.changed(name) }

// batteryItems makes the items of a battery from the files and folders in
// args or from the generator. The errors are the command's: usage (exit
// 2), a file that cannot be read (4), the positioned errors of every file
// (1).
func batteryItems(args []string, fl batteryFlags, seed uint64) ([]exam.Item, error) {
	s := exam.Sampling{Weighting: exam.Weighting(fl.weighting), Sample: fl.sample, Steps: fl.steps,
		StratumWidth: fl.stratumWidth, Seed: seed}
	if err := s.Validate(); err != nil {
		return nil, usage(fmt.Errorf("battery: %w", err))
	}
	if fl.changed("stratum-width") && s.Weighting != exam.Stratum {
		return nil, usage(fmt.Errorf("--stratum-width is for --weighting stratum, not %s", s.Weighting))
	}
	pool, err := poolOf(args, fl)
	if err != nil {
		return nil, err
	}
	items, err := exam.Battery(pool, s)
	if err != nil {
		return nil, usage(fmt.Errorf("battery: %w", err))
	}
	return items, nil
}

// poolOf reads the environments a battery or the adaptive test draws from:
// the files and folders in args, or the generator's with --generate.
func poolOf(args []string, fl batteryFlags) ([]exam.PoolEnv, error) {
	var pool []exam.PoolEnv
	var err error
	if fl.changed("generate") {
		if len(args) > 0 {
			return nil, usage(fmt.Errorf("a pool comes from files or from --generate, not both (files: %s)", strings.Join(args, " ")))
		}
		var filters *generate.FilterSettings
		if fl.filters {
			filters = &generate.DefaultFilters
		}
		if pool, err = exam.GeneratePool(fl.generate, fl.pool, filters); err != nil {
			return nil, usage(fmt.Errorf("--generate: %w", err))
		}
	} else {
		if err := fl.checkNotGenerated("; a battery of files takes the files as they are"); err != nil {
			return nil, err
		}
		if len(args) == 0 {
			return nil, usage(errors.New("a battery needs environment files or folders, or --generate BITS"))
		}
		if pool, err = exam.ReadPool(args); err != nil {
			return nil, poolError(err)
		}
	}
	return pool, nil
}

// poolError gives ReadPool's error its exit status: the files' own errors
// exit 1, a file that cannot be read 4, the rest (a rule file named where
// an environment is needed, as run and dot say; a folder without
// environments, too many files) 2. Every file's errors are printed either
// way.
func poolError(err error) error {
	var list lang.ErrorList
	if errors.As(err, &list) {
		if errors.Is(err, exam.ErrRuleFile) {
			return usage(list)
		}
		return fileErrors(list)
	}
	var path *fs.PathError
	if errors.As(err, &path) {
		return ioFailure(err)
	}
	return usage(err)
}
