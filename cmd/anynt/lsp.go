package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/anynt/anynt/lsp"
	"github.com/spf13/cobra"
)

func newLspCmd(io *stdio) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server for editors, on standard input and output",
		Long: `lsp runs anynt's language server: an editor starts it and speaks the Language
Server Protocol with it over standard input and output. For files in the
notation it gives check's errors and warnings as one types, fmt's canonical
form as formatting (format on save), over a sugared rule its ordered
expansion as expand prints it, go-to-definition from use NAME to the block,
and completion of the ASCII spellings (\pi becomes π). docs/editors.md says
how to set it up in VS Code and Neovim.

lsp exits 0 when the editor closes the connection or asks it to exit after
shutdown, and 1 when it asks it to exit without shutdown, as the protocol says.`,
		Example: `  anynt lsp    # started by the editor, not by hand`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := lsp.Serve(context.Background(), stdioStream{io.in, io.out}, versionString())
			if errors.Is(err, lsp.ErrExitWithoutShutdown) {
				fmt.Fprintln(io.err, "anynt lsp: the editor asked to exit without shutdown")
				return errSilent
			}
			return err
		},
	}
}

// stdioStream is the connection to the editor: its requests on standard
// input, the answers on standard output. Closing it closes neither: the
// process ends next.
type stdioStream struct {
	io.Reader
	io.Writer
}

func (stdioStream) Close() error { return nil }
