package main

import (
	"fmt"

	"github.com/anynt/anynt/compiler"
	"github.com/spf13/cobra"
)

func newDisasmCmd(io *stdio) *cobra.Command {
	var classic bool
	var object string
	cmd := &cobra.Command{
		Use:   "disasm FILE",
		Short: "Print the bytecode of a rule file",
		Long: `disasm compiles FILE and prints its bytecode readably: the symbol table, and
for each rule its position, flags, matcher code (or the literal a plain rule
searches for) and writer code.`,
		Example: `  anynt disasm corpus/thesis/omega1.anynt`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			b, err := pickBehaviour(args[0], object, classic, compiler.Options{})
			if err != nil {
				return err
			}
			prog, err := compiler.Compile(b.file, b.opts)
			if err != nil {
				return fileErrors(err)
			}
			fmt.Fprint(io.out, prog.Disasm())
			return nil
		},
	}
	cmd.Flags().BoolVar(&classic, "classic", false, "read the classic rule format")
	cmd.Flags().StringVar(&object, "object", "", objectUsage)
	return cmd
}
