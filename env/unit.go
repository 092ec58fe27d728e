package env

import "github.com/anynt/anynt/lang"

// Unit is one behaviour of an environment file as a rule file of its own,
// as the environment compiles and bounds it, for the tools that work on one
// behaviour (expand, markov and disasm with --object, the language server's
// hover): the file's shared blocks, then the behaviour's rules as the main
// algorithm. Compiled with Prefix as compiler.Options.Prefix, its symbols
// get the codes they have in the environment, so that χ ranges over them in
// the same order.
type Unit struct {
	File                      *lang.File
	Prefix                    []string
	MaxSteps, MaxLen, MaxWork int
}

// LoadUnit makes the Unit of block, a behaviour block of f. A space
// generator runs before the space exists, so it needs only the actions and
// can be tried while the space it writes is invalid; any other behaviour
// needs the environment loaded, and Load's error is returned when it fails.
func LoadUnit(f *lang.File, block *lang.Block) (*Unit, error) {
	u := &Unit{File: &lang.File{Name: f.Name}}
	if block.Kind == lang.GeneratorBlock {
		u.MaxSteps, u.MaxLen, u.MaxWork = GeneratorSteps, GeneratorLen, GeneratorWork
		u.Prefix = actionNames(f)
	}
	if u.Prefix == nil {
		e, err := Load(f)
		if err != nil {
			return nil, err
		}
		u.Prefix, u.MaxSteps, u.MaxLen, u.MaxWork = e.BaseSymbols(), e.Settings.MaxSteps, e.Settings.MaxLen, e.Settings.MaxWork
	}
	for _, d := range f.Decls {
		if d, ok := d.(*lang.Block); ok && d.Kind == lang.SharedBlock {
			u.File.Decls = append(u.File.Decls, d)
		}
	}
	for _, r := range block.Rules {
		u.File.Decls = append(u.File.Decls, r)
	}
	return u, nil
}

// actionNames are the actions a space generator starts its symbols with.
func actionNames(f *lang.File) []string {
	for _, d := range f.Decls {
		if a, ok := d.(*lang.Actions); ok {
			names := make([]string, len(a.Names))
			for i, s := range a.Names {
				names[i] = s.Name
			}
			return names
		}
	}
	return nil
}
