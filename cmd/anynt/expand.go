package main

import (
	"bufio"
	"fmt"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

func newExpandCmd(io *stdio) *cobra.Command {
	var alphabet, object string
	var classic bool
	cmd := &cobra.Command{
		Use:   "expand [--alphabet SYMBOLS] FILE",
		Short: "Print the ordered expansion of a rule file as plain rules",
		Long: `expand prints the meaning of the notation's sugar: every rule of FILE's main
algorithm replaced, in place, by the plain rules it stands for, in their order,
one a line, LHS -> RHS or LHS ->. RHS. The output is itself a rule file.

--alphabet gives the alphabet and its order, the order in which χ takes its
values; without it, FILE's alphabet declaration, or else its symbols in order
of first appearance.`,
		Example: `  anynt expand --alphabet "A1 A2 π ⊙" corpus/thesis/expansion.anynt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts compiler.Options
			if cmd.Flags().Changed("alphabet") {
				var err error
				if opts.Alphabet, err = lang.Symbols(alphabet); err != nil {
					return usage(fmt.Errorf("--alphabet: %w", err))
				}
			}
			b, err := pickBehaviour(args[0], object, classic, opts)
			if err != nil {
				return err
			}
			// Print as the rules come: an expansion may hold a million.
			w := bufio.NewWriter(io.out)
			var writeErr error
			err = compiler.ExpandEach(b.file, b.opts, func(r lang.PlainRule) error {
				_, writeErr = fmt.Fprintln(w, compiler.PlainString(r))
				return writeErr
			})
			if writeErr == nil {
				writeErr = w.Flush()
			}
			switch {
			case writeErr != nil:
				return ioFailure(writeErr)
			case err != nil:
				return fileErrors(err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&alphabet, "alphabet", "", "the alphabet, in order (symbols as in rule files)")
	cmd.Flags().BoolVar(&classic, "classic", false, "read the classic rule format")
	cmd.Flags().StringVar(&object, "object", "", objectUsage)
	return cmd
}
