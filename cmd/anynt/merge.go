package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/version"
	"github.com/spf13/cobra"
)

func newMergeCmd(io *stdio) *cobra.Command {
	var asJSON bool
	var out string
	cmd := &cobra.Command{
		Use:   "merge [--json] [--pack FILE] PACK...",
		Short: "Join the packs of an enumeration's shards into the whole run",
		Long: `merge joins the packs that the N shards of one enumeration wrote
(anynt enumerate --shard K/N --pack FILE) into the result of the unsharded
run: it prints the accepted environments in order as anynt enumerate prints
them (their sources, or --json lines with the unsharded run's settings), and
with --pack FILE writes the unsharded run's pack, bit for bit, naming each
environment FILE#INDEX. The packs may be given in any order.

It refuses, naming them, packs that are not the shards of one run: a shard
missing or given twice, a pack of another anynt version or of other
settings, and a shard not finished or whose end is torn (run that shard
again: it resumes). Then the exit status is 1; a pack that cannot be read,
or an output that cannot be written, exits with 4.`,
		Example: `  anynt enumerate --max-bits 60 --shard 1/2 --pack s1.pack
  anynt enumerate --max-bits 60 --shard 2/2 --pack s2.pack
  anynt merge --pack all.pack s1.pack s2.pack`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMerge(io, args, out, asJSON)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&asJSON, "json", false, "print one JSON object a line for each accepted environment")
	f.StringVar(&out, "pack", "", "write the whole run's pack to this new file")
	return cmd
}

func runMerge(io *stdio, paths []string, out string, asJSON bool) error {
	m, err := generate.Merge(paths, version.String())
	var pathErr *fs.PathError
	switch {
	case errors.As(err, &pathErr):
		return ioFailure(err)
	case err != nil:
		return fileErrors(err)
	}
	defer m.Close()
	if out != "" {
		if err := m.WritePack(out); err != nil {
			return ioFailure(fmt.Errorf("writing %s: %w", out, err))
		}
	}
	print := emittedPrinter(io, m.Settings, asJSON)
	err = m.Each(func(e generate.Emitted) error {
		if out != "" {
			e.File, e.Source = fmt.Sprintf("%s#%d", out, e.Index), ""
		}
		return print(e)
	})
	if err != nil {
		return ioFailure(err)
	}
	t, err := m.Tally()
	if err != nil {
		return fileErrors(err)
	}
	fmt.Fprintf(io.err, "merged %d packs: examined %d, accepted %d, rejected %s\n", len(paths), t.Examined, t.Accepted, reasons(t.Rejected))
	return nil
}
