package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/report"
	"github.com/spf13/cobra"
)

// mergeFlags are merge's: the forms of the output.
type mergeFlags struct {
	json, csv bool
	html      string
	pack      string
	partial   bool
}

func newMergeCmd(io *stdio) *cobra.Command {
	var fl mergeFlags
	cmd := &cobra.Command{
		Use:   "merge [--json | --csv] [--html FILE] [--pack FILE [--partial]] PACK...|DIR...",
		Short: "Join the shards of an enumeration or of a test into the whole run",
		Long: `merge joins what the N shards of one run kept into the result of the
unsharded run, bit for bit. The shards may be given in any order.

An enumeration's shards are packs (anynt enumerate --shard K/N --pack FILE):
merge prints the accepted environments in order as anynt enumerate prints
them (their sources, or --json lines with the unsharded run's settings), and
with --pack FILE writes the unsharded run's pack instead, printing a summary
(--json prints the environments as well, each named FILE#INDEX).

Shards merge in a tree: --partial --pack FILE merges consecutive shards K to
L of N, not all of them, into a pack that stands for those shards in a later
merge (of packs of shards or of other merged packs), whose result is the
one-level merge's, bit for bit. Merge a large run's shards in groups, in
parallel, then the groups (docs/cluster.md).

A test's shards are parts kept in folders (anynt test ... --shard K/N --out
DIR), given as the folders or as the part files: merge prints the whole
test's report as anynt test prints it, as text, --json or --csv, and --html
FILE writes its page.

It refuses, naming them, shards that are not those of one run: a shard
missing or given twice, one of another anynt version or of other settings,
and one not finished, torn, or stopped by an agent's fault (give that shard
again: it resumes); with --partial, a gap between the shards. Then the exit status is 1; a file that cannot be read,
or an output that cannot be written, exits with 4.`,
		Example: `  anynt enumerate --max-bits 60 --shard 1/2 --pack s1.pack
  anynt enumerate --max-bits 60 --shard 2/2 --pack s2.pack
  anynt merge --pack all.pack s1.pack s2.pack
  anynt merge --partial --pack 1-32.pack shard-{1..32}.pack
  anynt test --protocol battery corpus/gallery --shard 1/2 --out parts
  anynt test --protocol battery corpus/gallery --shard 2/2 --out parts
  anynt merge --html report.html parts`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			parts, packs, err := mergeInputs(args)
			switch {
			case err != nil:
				return err
			case len(parts) > 0 && len(packs) > 0:
				return usage(errors.New("give the packs of an enumeration or the parts of a test, not both"))
			case fl.json && fl.csv:
				return usage(errors.New("--json and --csv are two forms of the output; choose one"))
			case fl.partial && (fl.pack == "" || fl.json):
				return usage(errors.New("--partial writes a pack of some shards for a later merge: give --pack FILE, and no --json"))
			case len(parts) > 0 && fl.pack != "":
				return usage(errors.New("--pack writes an enumeration's pack; a test's parts give a report"))
			case len(packs) > 0 && (fl.csv || fl.html != ""):
				return usage(errors.New("--csv and --html are forms of a test's report; an enumeration's packs give environments"))
			case len(parts) > 0:
				return runMergeTest(io, parts, fl)
			}
			return runMerge(io, packs, fl)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&fl.json, "json", false, "print JSON lines: the environments, or the test's report")
	f.BoolVar(&fl.csv, "csv", false, "print the test's report as CSV")
	f.StringVar(&fl.html, "html", "", "write the test's report as an HTML page to this file")
	f.StringVar(&fl.pack, "pack", "", "write the whole enumeration's pack to this new file")
	f.BoolVar(&fl.partial, "partial", false, "with --pack: merge consecutive shards, not all, into a pack a later merge takes as those shards")
	return cmd
}

// mergeInputs sorts merge's arguments: a folder gives the test parts in
// it, a file is a test part or else a pack.
func mergeInputs(args []string) (parts, packs []string, err error) {
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, nil, ioFailure(err)
		}
		if info.IsDir() {
			found, err := filepath.Glob(filepath.Join(a, "*.anynt-part"))
			if err != nil || len(found) == 0 {
				return nil, nil, fileErrors(fmt.Errorf("%s: no part of a test in this folder (anynt test --shard K/N --out DIR keeps them)", a))
			}
			parts = append(parts, found...)
			continue
		}
		if _, err := report.ReadPartHeader(a); err == nil {
			parts = append(parts, a)
		} else {
			packs = append(packs, a)
		}
	}
	return parts, packs, nil
}

// runMergeTest joins a test's parts and prints its report.
func runMergeTest(io *stdio, parts []string, fl mergeFlags) error {
	in, _, err := report.MergeParts(parts, versionString())
	if err != nil {
		return mergeFailure(err)
	}
	rep, err := report.New(in)
	if err != nil {
		return err
	}
	if err := writeTestReport(io, rep, examFlags{json: fl.json, csv: fl.csv, html: fl.html}); err != nil {
		return err
	}
	for _, o := range in.Outcomes {
		if o.Fault != nil {
			return agentFault(errors.New("an agent faulted in the test (the report names the items)"))
		}
	}
	return nil
}

// runMerge joins an enumeration's packs: it prints the environments,
// or writes the pack and prints them only with --json.
func runMerge(io *stdio, paths []string, fl mergeFlags) error {
	merge := generate.Merge
	if fl.partial {
		merge = generate.MergePart
	}
	m, err := merge(paths, version.String())
	if err != nil {
		return mergeFailure(err)
	}
	defer m.Close()
	out := fl.pack
	if out != "" {
		if err := m.WritePack(out); err != nil {
			return ioFailure(fmt.Errorf("writing %s: %w", out, err))
		}
	}
	if out == "" || fl.json {
		settings := m.Settings
		settings.Pack = out // as enumerate --pack --json names it
		print := emittedPrinter(io, settings, fl.json)
		err = m.Each(func(e generate.Emitted) error {
			if out != "" {
				e.File, e.Source = fmt.Sprintf("%s#%d", out, e.Index), ""
			}
			return print(e)
		})
		if err != nil {
			return ioFailure(err)
		}
	}
	t, err := m.Tally()
	if err != nil {
		return fileErrors(err)
	}
	into := ""
	if out != "" {
		into = " into " + out + " (" + m.Part() + ")"
	}
	fmt.Fprintf(io.err, "merged %d packs%s: examined %d, accepted %d, rejected %s\n", len(paths), into, t.Examined, t.Accepted, reasons(t.Rejected))
	return nil
}

// mergeFailure is the kind of a merge's refusal: a shard that cannot be
// read is an I/O failure, shards that are not one run's are input errors.
func mergeFailure(err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		return ioFailure(err)
	}
	return fileErrors(err)
}
