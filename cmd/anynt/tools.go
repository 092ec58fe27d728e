package main

import (
	"bufio"
	"bytes"
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

func newFmtCmd(io *stdio) *cobra.Command {
	var write, check bool
	cmd := &cobra.Command{
		Use:   "fmt [-w | --check] FILE...",
		Short: "Print rule files in the canonical form",
		Long: `fmt prints each FILE in the canonical form: one statement a line, blocks
indented by a tab, ASCII arrows, Unicode symbols, comments kept. Parsing the
output gives the same tree. -w rewrites the files instead, each one whole or
not at all (a full disk leaves a file as it was; its mode is kept); --check
lists the files that are not in the canonical form and exits 1 if there are
any.`,
		Example: `  anynt fmt corpus/thesis/omega1.anynt
  anynt fmt -w corpus/**/*.anynt`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			unformatted := false
			for _, name := range args {
				src, err := readSource(name)
				if err != nil {
					return err
				}
				f, err := lang.Parse(name, src)
				if err != nil {
					return fileErrors(err)
				}
				out := lang.Format(f)
				switch {
				case check:
					if !bytes.Equal(src, out) {
						fmt.Fprintln(io.out, name)
						unformatted = true
					}
				case write:
					if !bytes.Equal(src, out) {
						if err := writeSource(name, out); err != nil {
							return err
						}
					}
				default:
					io.out.Write(out)
				}
			}
			if unformatted {
				return errSilent
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite the files in place")
	cmd.Flags().BoolVar(&check, "check", false, "list the files that are not formatted")
	return cmd
}

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
