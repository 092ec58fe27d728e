package env

import (
	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
)

// Check checks a parsed file as its kind, as anynt check does, for every
// tool that reports on a file (the command line, the language server): f and
// parseErr are lang.Parse's. A rule file is compiled; with syntax errors,
// the statements that parsed are checked too, so that every error comes at
// once. An environment is loaded and, when it loads, linted; one with syntax
// errors gets those alone, since its behaviours cannot be compiled without
// the declarations that failed. It reports the kind, the lint's warnings
// and the file's errors (a lang.ErrorList, or Load's *InvalidSpaceError that
// holds one).
func Check(f *lang.File, parseErr error) (isEnv bool, warns lang.ErrorList, err error) {
	switch {
	case f == nil:
		return false, nil, parseErr
	case parseErr != nil && IsEnvironment(f):
		return true, nil, parseErr
	case parseErr != nil:
		return false, nil, compiler.CheckPartial(f, parseErr, compiler.Options{})
	case !IsEnvironment(f):
		// Check runs every check of Compile; the code is not needed.
		return false, nil, compiler.Check(f, compiler.Options{})
	}
	e, err := Load(f)
	if err != nil {
		return true, nil, err
	}
	return true, Lint(f, e), nil
}
