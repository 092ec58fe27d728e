package main

import (
	"bytes"
	"fmt"

	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

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
