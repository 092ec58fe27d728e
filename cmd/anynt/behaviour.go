package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// objectUsage documents --object, which markov, expand and disasm share.
const objectUsage = "in an environment FILE, work on one behaviour: an object's name (ω1), goodevil, or generator (the space generator)"

// behaviour is the rule list markov, expand and disasm work on, as a file
// of its own: a rule file's main algorithm, or one behaviour of an
// environment with the file's shared blocks, compiled as the environment
// compiles it (its symbols first) and bounded as the environment bounds it.
type behaviour struct {
	file                      *lang.File
	opts                      compiler.Options
	maxSteps, maxLen, maxWork int
}

// pickBehaviour loads FILE for markov, expand and disasm. A rule file is
// loaded as it is (object must be ""); in an environment, object picks the
// behaviour, and without it the error names the behaviours there are.
func pickBehaviour(file, object string, classic bool, opts compiler.Options) (*behaviour, error) {
	if classic {
		if object != "" {
			return nil, usage(fmt.Errorf("--object picks a behaviour of an environment; a classic file has none"))
		}
		f, err := loadFile(file, classic, opts)
		return &behaviour{file: f, opts: opts, maxSteps: vm.DefaultMaxSteps, maxLen: vm.DefaultMaxLen, maxWork: vm.DefaultMaxWork}, err
	}
	f, err := parseFile(file, false)
	if f == nil {
		return nil, err
	}
	if !env.IsEnvironment(f) {
		if object != "" {
			return nil, usage(fmt.Errorf("--object %s: %s is a rule file, not an environment", object, file))
		}
		if err != nil {
			_, err = loadFile(file, false, opts) // with the meaning errors of what parsed
			return nil, err
		}
		return &behaviour{file: f, opts: opts, maxSteps: vm.DefaultMaxSteps, maxLen: vm.DefaultMaxLen, maxWork: vm.DefaultMaxWork}, nil
	}
	if err != nil {
		return nil, err
	}
	names := behaviourNames(f)
	if len(names) == 0 {
		return nil, usage(fmt.Errorf("%s is an environment with no rules to run: its space is a table or a code and Good/Evil a pattern", file))
	}
	if object == "" {
		return nil, usage(fmt.Errorf("%s is an environment: pick one of its behaviours with --object (%s)", file, strings.Join(names, ", ")))
	}
	block := findBehaviour(f, object)
	if block == nil {
		return nil, usage(fmt.Errorf("--object %s: %s has no such behaviour (%s)", object, file, strings.Join(names, ", ")))
	}
	u, err := env.LoadUnit(f, block)
	if err != nil {
		return nil, fileErrors(err)
	}
	opts.Prefix = u.Prefix
	return &behaviour{file: u.File, opts: opts, maxSteps: u.MaxSteps, maxLen: u.MaxLen, maxWork: u.MaxWork}, nil
}

// findBehaviour finds the block --object names, or nil.
func findBehaviour(f *lang.File, object string) *lang.Block {
	for _, d := range f.Decls {
		if d, ok := d.(*lang.Block); ok {
			switch {
			case d.Kind == lang.ObjectBlock && d.Name == object,
				d.Kind == lang.GoodEvilBlock && object == "goodevil",
				d.Kind == lang.GeneratorBlock && object == "generator":
				return d
			}
		}
	}
	return nil
}

// behaviourNames lists the behaviours of an environment --object can pick.
func behaviourNames(f *lang.File) []string {
	var names []string
	for _, d := range f.Decls {
		if d, ok := d.(*lang.Block); ok {
			switch d.Kind {
			case lang.ObjectBlock:
				names = append(names, d.Name)
			case lang.GoodEvilBlock:
				names = append(names, "goodevil")
			case lang.GeneratorBlock:
				names = append(names, "generator")
			}
		}
	}
	return names
}

// markovProgram compiles what markov runs and, for a behaviour, lowers
// --max-steps, --max-len and --max-work to the environment's bounds of it.
func markovProgram(file string, fl *markovFlags, input []string) (*vm.Program, error) {
	opts := compiler.Options{}
	if fl.object == "" {
		opts.Extra = input
	}
	b, err := pickBehaviour(file, fl.object, fl.classic, opts)
	if err != nil {
		return nil, err
	}
	if fl.object != "" {
		fl.maxSteps, fl.maxLen, fl.maxWork = min(fl.maxSteps, b.maxSteps), min(fl.maxLen, b.maxLen), min(fl.maxWork, b.maxWork)
	}
	prog, err := compiler.Compile(b.file, b.opts)
	if err != nil {
		return nil, fileErrors(err)
	}
	return prog, nil
}
