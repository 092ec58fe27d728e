package main

import (
	"io"

	"github.com/anynt/anynt/internal/heapgoal"
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
(docs/protocol.md), or the agent optimal could not plan an episode;
128+n anynt was interrupted by signal n during a test, or a run of an
agent outside anynt (its report is written).`,
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
	{"complexity", newComplexityCmd}, {"enumerate", newEnumerateCmd}, {"merge", newMergeCmd}, {"evolve", newEvolveCmd},
	{"test", newTestCmd}, {"serve-env", newServeEnvCmd}, {"serve", newServeCmd}, {"results", newResultsCmd},
	{"new", newNewCmd}, {"try", newTryCmd}, {"lsp", newLspCmd},
}
