package main

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"
)

// skeleton is the environment anynt new writes: small, commented, and
// valid (TestNewSkeletonChecksStrictAndIsBalanced holds it to check
// --strict and to a random agent's interval containing 0), so that a
// researcher starts from a file that works and changes one thing at a time.
//
//go:embed skeleton.anynt
var skeleton []byte

func newNewCmd(io *stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "new FILE",
		Short: "Write a small, valid, commented environment to start from",
		Long: `new writes a new environment to FILE: four cells in a ring, an object ω1 that
chases π, and Good and Evil that run from π, each part commented with what it
means. It passes check --strict and is balanced (a random agent scores 0
within its interval), so that every change can be checked from a file that
works (docs/tutorial.md). FILE - writes it on standard output.

new never overwrites: an existing FILE is left as it is.

Exit status: 0 written; 2 usage errors; 4 FILE exists already, or could not
be written.`,
		Example: `  anynt new chaser.anynt && anynt check --strict chaser.anynt
  anynt new - | less`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeNew(io, args[0])
		},
	}
}

// writeNew writes the skeleton to name, or to standard output for "-";
// the file is created exclusively, so that an existing one, even one that
// appears between a check and the write, is never overwritten.
func writeNew(io *stdio, name string) error {
	if name == "-" {
		_, err := io.out.Write(skeleton)
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return ioFailure(fmt.Errorf("%s exists already; new never overwrites a file (remove it, or pick another name)", name))
	}
	if err != nil {
		return ioFailure(fmt.Errorf("writing %s: %w", name, err))
	}
	if _, err := f.Write(skeleton); err != nil {
		f.Close()
		os.Remove(name) // a cut skeleton would not check
		return ioFailure(fmt.Errorf("writing %s: %w", name, err))
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return ioFailure(fmt.Errorf("writing %s: %w", name, err))
	}
	fmt.Fprintf(io.err, "anynt: wrote %s; next: anynt check --strict %s\n", name, name)
	return nil
}
