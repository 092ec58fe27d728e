package main

import (
	"fmt"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/spf13/cobra"
)

func newSpaceCmd(io *stdio) *cobra.Command {
	var dialect, actions string
	cmd := &cobra.Command{
		Use:   "space [--dialect thesis|paper] [--actions NAMES] CODE",
		Short: "Decode a space code and print its arrow table",
		Long: `space decodes a space code, prints its arrow table (a cell a line, the
destination of each action) and checks it. An invalid space exits 1 with the
broken rule and the cell it breaks it in.

--actions names the actions, the stay action first (default: s l r); in a
code an action is written by its name or by its index as one digit.`,
		Example: `  anynt space "lr+:l-r+:l-r+:l-r+:l-r+:l-r"
  anynt space --dialect paper --actions "l r" "+r+r+r+r+r+r"`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			names, err := lang.Symbols(actions)
			if err != nil {
				return usage(fmt.Errorf("--actions: %w", err))
			}
			code, err := lang.Symbols(args[0])
			if err != nil {
				return usage(fmt.Errorf("code: %w", err))
			}
			s, err := env.DecodeCode(dialect, code, names, true)
			if err != nil {
				return fileErrors(err)
			}
			fmt.Fprint(io.out, s.Table(names))
			if errs := s.Check(); len(errs) > 0 {
				msgs := make([]string, len(errs))
				for i, e := range errs {
					msgs[i] = "invalid space: " + e.Error()
				}
				return fileErrors(fmt.Errorf("%s", strings.Join(msgs, "\n")))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dialect, "dialect", "thesis", "the code's dialect: thesis (lr+:l-r) or paper (+r-l)")
	cmd.Flags().StringVar(&actions, "actions", "s l r", "the action names, the stay action first")
	return cmd
}
