package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/internal/heapgoal"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

// stdio is where a command reads and writes.
type stdio struct {
	in       io.Reader
	out, err io.Writer
}

// run executes the command line and returns its exit status.
func run(args []string, in io.Reader, out, errw io.Writer) int {
	heapgoal.Start() // a run's small heap is not collected every few megabytes
	stdout := &checkedWriter{w: out}
	io := &stdio{in: in, out: stdout, err: errw}
	root := newRootCmd(io, args)
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(stdout)
	root.SetErr(errw)
	return exitStatus(errw, root.Execute(), stdout.err)
}

// newRootCmd makes the root command with the subcommand args name, or with
// all of them when args name none (help, a flag, a typo): making every
// subcommand with its flags was 0.1 ms of each run, serial in a test.
func newRootCmd(io *stdio, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "anynt",
		Short: "A toolchain for the environments of the ANYNT intelligence tests",
		Long: `anynt reads Markov algorithms written in the extended notation of the ANYNT
papers (optional groups, alternatives, the wildcard χ, bound subscripts and
Δ/∇ memory), compiles them to bytecode and runs them.

Exit status: 0 success; 1 errors in an input file (results: no
participant has finished); 2 usage errors;
3 a run stopped at a limit (steps, length, matcher work; an input longer
than the length limit is not run); 4 a file could not be read
or written, standard output included (this status wins over 1, 3, 5
and 128+n, whose message is printed too: the output is lost); 5 an agent outside
anynt (--agent-cmd) failed: it crashed, hung, wrote a malformed line or
an illegal action, gave up, or speaks another protocol version
(docs/protocol.md); 128+n anynt was interrupted by signal n while an
agent outside anynt ran (its report is written).`,
		Version:       versionString(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	for _, c := range subcommands {
		if len(args) > 0 && args[0] == c.name {
			root.AddCommand(c.make(io))
			return root
		}
	}
	for _, c := range subcommands {
		root.AddCommand(c.make(io))
	}
	return root
}

// subcommands are anynt's commands by name (TestSubcommandsAlone holds
// each name to its command's).
var subcommands = []struct {
	name string
	make func(*stdio) *cobra.Command
}{
	{"markov", newMarkovCmd}, {"expand", newExpandCmd}, {"fmt", newFmtCmd}, {"disasm", newDisasmCmd},
	{"check", newCheckCmd}, {"space", newSpaceCmd}, {"run", newRunCmd}, {"dot", newDotCmd},
	{"complexity", newComplexityCmd}, {"enumerate", newEnumerateCmd}, {"evolve", newEvolveCmd},
	{"test", newTestCmd}, {"serve-env", newServeEnvCmd}, {"serve", newServeCmd}, {"results", newResultsCmd},
}

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

// printError prints errors one a line; a positioned error gets the line of
// its file and a caret under the column. At most maxFileErrors errors of a
// file are printed, then a line that counts the rest: one mistake can give
// an error a character (a line of stray braces), and each error quotes its
// line.
func printError(w io.Writer, err error) {
	var list lang.ErrorList
	if errors.As(err, &list) {
		var src sources
		shown := 0
		for i, e := range list {
			if i > 0 && e.Pos.File != list[i-1].Pos.File {
				shown = 0
			}
			if shown++; shown <= maxFileErrors {
				src.printPositioned(w, e)
				continue
			}
			if i+1 == len(list) || list[i+1].Pos.File != e.Pos.File {
				printMore(w, e.Pos.File, shown-maxFileErrors)
			}
		}
		return
	}
	var one *lang.Error
	if errors.As(err, &one) {
		new(sources).printPositioned(w, one)
		return
	}
	fmt.Fprintf(w, "anynt: %v\n", err)
}

// maxFileErrors is how many errors of one file are printed.
const maxFileErrors = 20

// printMore says how many errors of file were not printed.
func printMore(w io.Writer, file string, n int) {
	noun := "errors"
	if n == 1 {
		noun = "error"
	}
	if file == "" {
		fmt.Fprintf(w, "and %d more %s\n", n, noun)
		return
	}
	fmt.Fprintf(w, "%s: and %d more %s\n", file, n, noun)
}

// sources holds the text of the file the last error pointed into, so
// that a file of n errors, which come together in a sorted list, is read
// once, not n times: for a large file of many errors (a file may be 64
// MiB) that would be quadratic. Holding one file, not every file met,
// keeps the memory of one. A file that cannot be read has no lines, and
// its errors print alone. The line last found is a cursor into the text:
// errors come in order of lines, so finding each one's line walks the
// file once, without splitting it into lines.
type sources struct {
	file     string
	text     string
	read     bool
	readable bool
	// lineNo is the line that starts at byte off of text.
	lineNo, off int
}

func (src *sources) printPositioned(w io.Writer, e *lang.Error) {
	fmt.Fprintln(w, e.Error())
	line, ok := src.line(e.Pos)
	if !ok {
		return
	}
	line, col := quoted(line, e.Pos.Col)
	fmt.Fprintf(w, "\t%s\n\t%s^\n", line, caretPad(line, col))
}

// line is line p.Line of file p.File, reading the file the first time.
func (src *sources) line(p lang.Pos) (string, bool) {
	if p.File == "" || p.Line < 1 {
		return "", false
	}
	if !src.read || src.file != p.File {
		src.file, src.text, src.read, src.readable = p.File, "", true, false
		if text, err := lang.ReadSource(p.File); err == nil {
			src.text, src.readable = strings.TrimPrefix(string(text), "\uFEFF"), true
		}
		src.lineNo, src.off = 1, 0
	}
	if !src.readable {
		return "", false
	}
	if p.Line < src.lineNo {
		src.lineNo, src.off = 1, 0
	}
	for src.lineNo < p.Line {
		i := strings.IndexByte(src.text[src.off:], '\n')
		if i < 0 {
			return "", false
		}
		src.lineNo, src.off = src.lineNo+1, src.off+i+1
	}
	line, _, _ := strings.Cut(src.text[src.off:], "\n")
	return strings.TrimRight(line, "\r"), true
}

// maxLineShown is the most characters of a line printed under an error: a
// window of the line around the column, marked with … where it is cut.
const maxLineShown = 120

// quoted cuts line to at most maxLineShown characters around column col,
// and gives the column in what it returns.
func quoted(line string, col int) (string, int) {
	n := utf8.RuneCountInString(line)
	if n <= maxLineShown {
		return line, col
	}
	from := min(max(col-1-maxLineShown/2, 0), n-maxLineShown)
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	i := 0
	for _, r := range line {
		if i >= from+maxLineShown {
			b.WriteString("…")
			break
		}
		if i >= from {
			b.WriteRune(r)
		}
		i++
	}
	if from > 0 {
		col += 1 - from // the … takes one column
	}
	return b.String(), col
}

// caretPad is the white space that puts a caret under column col, keeping
// the line's tabs so that it lines up.
func caretPad(line string, col int) string {
	var b strings.Builder
	i := 0
	for _, r := range line {
		if i >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteRune('\t')
		} else {
			b.WriteRune(' ')
		}
		i++
	}
	return b.String()
}

// readSource reads a file named on the command line: a file that cannot
// be read exits with exitIO, one larger than lang.MaxSourceSize is a file
// error.
func readSource(name string) ([]byte, error) {
	src, err := lang.ReadSource(name)
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
	var all lang.ErrorList
	errors.As(err, &all)
	var meaning lang.ErrorList
	if f != nil && errors.As(compiler.Check(f, opts), &meaning) {
		all = append(all, meaning...)
	}
	return nil, fileErrors(all.Err())
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
