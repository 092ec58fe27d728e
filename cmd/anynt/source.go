package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/lang"
)

// collectFileErrors adds the positioned errors of a file to all and
// reports whether err was only that; a command that goes through several
// files reports every file's errors before it fails.
func collectFileErrors(err error, all *lang.ErrorList) bool {
	var list lang.ErrorList
	if exitCode(err) == exitFile && errors.As(err, &list) {
		*all = append(*all, list...)
		return true
	}
	return false
}

// readSource reads a file named on the command line, or an environment of
// an enumeration's pack named PACK#INDEX (generate.ReadSource): a file or
// record that cannot be read exits with exitIO, a file larger than
// lang.MaxSourceSize is a file error.
func readSource(name string) ([]byte, error) {
	src, err := generate.ReadSource(name)
	var list lang.ErrorList
	if errors.As(err, &list) {
		return nil, fileErrors(list)
	}
	if err != nil {
		return nil, ioFailure(err)
	}
	return src, nil
}

// writeSource writes a file named on the command line whole, or leaves it
// as it was (atomicfile: a full disk must not cut a rule file in the
// middle); a file that cannot be written exits with exitIO.
func writeSource(name string, data []byte) error {
	if err := atomicfile.Write(name, data); err != nil {
		return ioFailure(fmt.Errorf("writing %s: %w", name, err))
	}
	return nil
}

// loadFile parses a rule file for a command that goes on to compile it.
// When the file has syntax errors, the statements that parsed are still
// checked, so that one run reports every error of the file.
func loadFile(name string, classic bool, opts compiler.Options) (*lang.File, error) {
	f, err := parseFile(name, classic)
	return withMeaningErrors(f, err, opts)
}

// withMeaningErrors is loadFile on a file already parsed: f and err are
// parseFile's.
func withMeaningErrors(f *lang.File, err error, opts compiler.Options) (*lang.File, error) {
	if exitCode(err) != exitFile {
		return f, err
	}
	return nil, fileErrors(compiler.CheckPartial(f, err, opts))
}

// parseFile reads and parses a rule file in the notation or, when classic,
// in the classic one-rule-per-line format.
func parseFile(name string, classic bool) (*lang.File, error) {
	src, err := readSource(name)
	if err != nil {
		return nil, err
	}
	parse := lang.Parse
	if classic {
		parse = lang.ParseClassic
	}
	f, err := parse(name, src)
	if err != nil {
		return f, fileErrors(err)
	}
	return f, nil
}

// loadEnv reads an environment file; every error is positioned. A rule
// file (one without environment statements) is refused with a message
// that says what it is and how to run it.
func loadEnv(name string) (*env.Env, error) {
	f, err := parseFile(name, false)
	if err != nil {
		return nil, err
	}
	if !env.IsEnvironment(f) {
		return nil, &kindError{file: name}
	}
	e, err := env.Load(f)
	if err != nil {
		return nil, fileErrors(err)
	}
	return e, nil
}

// kindError says that a command that needs an environment was given a
// rule file.
type kindError struct{ file string }

func (e *kindError) Error() string {
	return fmt.Sprintf("%s is a rule file (no environment statements such as actions): run it with anynt markov %s INPUT", e.file, e.file)
}

// readText reads a UTF-8 text file of at most limit bytes named on the
// command line.
func readText(name string, limit int64) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", ioFailure(err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", ioFailure(fmt.Errorf("reading %s: %w", name, err))
	}
	text := string(data)
	switch {
	case int64(len(text)) > limit:
		return "", usage(fmt.Errorf("%s is larger than %d bytes", name, limit))
	case !utf8.ValidString(text):
		return "", usage(fmt.Errorf("%s is not UTF-8 text", name))
	}
	return strings.TrimPrefix(text, "\uFEFF"), nil
}
