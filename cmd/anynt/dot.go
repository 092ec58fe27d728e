package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

func newDotCmd(io *stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "dot FILE",
		Short: "Write an environment's space in Graphviz DOT",
		Long: `dot writes the space of environment FILE as a Graphviz digraph: a node a
cell, an edge an arrow labelled with its actions (stay loops left out).`,
		Example: `  anynt dot corpus/thesis/omega1-blocker.anynt | dot -Tpng > space.png`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			e, err := loadEnv(args[0])
			if err != nil {
				return err
			}
			fmt.Fprint(io.out, e.Space.DOT(args[0], e.Actions))
			return nil
		},
	}
}
