package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"github.com/anynt/anynt/study"
	"github.com/spf13/cobra"
)

// peopleName is the examinee the participants make together in a report: one
// score an item, as one examinee took each test (the design of Insa-Cabrera
// et al. 2011).
const peopleName = report.People

// resultsFlags are anynt results' flags: how the agents take the
// participants' items and how the report is written (as anynt test's),
// and the exports.
type resultsFlags struct {
	exam                       examFlags
	db                         string
	interactions, participants bool
}

func newResultsCmd(io *stdio) *cobra.Command {
	var fl resultsFlags
	cmd := &cobra.Command{
		Use:   "results --db FILE [--agent A,B] [--json | --csv] [--html FILE] [--interactions | --participants]",
		Short: "Report the people of a study beside agents on the same items, or export what was recorded",
		Long: `results reads the database of anynt serve and prints the report of anynt test
for the participants who finished their test, as one examinee named people
(each finished participant is one test of the report, its items those of the
test it took), beside --agent agents (Q-learning by default) given the same
items with the same episode seeds: the table of items, the summaries, the
figures per stratum (per number of cells for Λ_one, as Table 2 of
Insa-Cabrera et al. 2011, "Comparing humans and AI agents"), the payoffs,
and the paired differences. --html FILE draws people's scores beside the
agents' (score against complexity, per number of cells, histograms), as the
paper's figures 3 and 4.

A participant's item is scored from the recorded interactions at the times
the participant took (docs/people.md, "Timing"): its test time τ is the sum
of those times, and --score, --lambda read the payoffs at τ. The agents take
the items as anynt test gives them (--episodes, --pace, --tau, --score,
--lambda, Q-learning's --alpha, --gamma, --q0).

--interactions writes every recorded interaction instead, a CSV row each
(--json: a JSON object a line), each with the study's version, protocol,
seed and settings; --participants writes the sessions (number, code, test,
times, moves, finished, the answers to the questions). These export what is
recorded, finished or not. With no finished participant the report is refused
(exit 1) and the exports still work.`,
		Example: `  anynt results --db study.db
  anynt results --db study.db --agent random,qlearning --html results.html
  anynt results --db study.db --csv > items.csv
  anynt results --db study.db --interactions > interactions.csv
  anynt results --db study.db --participants --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usage(fmt.Errorf("results reads --db; it takes no files (%s)", args[0]))
			}
			return runResults(io, fl)
		},
	}
	f := cmd.Flags()
	defs := defsOf(f)
	f.StringVar(&fl.db, "db", "", "the study's SQLite database, written by anynt serve (required)")
	fl.exam.register(defs, []string{"qlearning"})
	f.BoolVar(&fl.interactions, "interactions", false, "write every recorded interaction (CSV, or JSON lines with --json)")
	f.BoolVar(&fl.participants, "participants", false, "write the sessions (CSV, or JSON lines with --json)")
	return cmd
}

func runResults(io *stdio, fl resultsFlags) error {
	if fl.db == "" {
		return usage(errors.New("--db FILE is required: the database anynt serve wrote"))
	}
	if fl.exam.json && fl.exam.csv {
		return usage(errors.New("--json and --csv both print the results; choose one"))
	}
	export := fl.interactions || fl.participants
	if fl.interactions && fl.participants {
		return usage(errors.New("--interactions and --participants are two exports; choose one"))
	}
	if export {
		if name := fl.exam.report.given(); name != "" {
			return usage(fmt.Errorf("--%s means nothing to an export; it is a setting of the report", name))
		}
	} else if err := fl.exam.checkQLearning(); err != nil {
		return err
	}
	// study.Open would make a database where there is none: a mistyped
	// name would give an empty study, not an error.
	if _, err := os.Stat(fl.db); err != nil {
		return ioFailure(fmt.Errorf("--db: %w", err))
	}
	s, err := study.Open(fl.db, nil)
	if err != nil {
		return ioFailure(fmt.Errorf("--db %w", err))
	}
	defer s.Close()
	switch {
	case fl.interactions:
		err = exportInteractions(io, s, fl.exam.json)
	case fl.participants:
		err = exportParticipants(io, s, fl.exam.json)
	default:
		return peopleReport(io, s, fl.exam)
	}
	if err != nil {
		return ioFailure(err)
	}
	return nil
}

// peopleReport gives the finished participants' items to the agents and
// writes the report of both.
func peopleReport(io *stdio, s *study.Study, fl examFlags) error {
	// The study decided the tests; settings bounds --tests, which results
	// has not, so it is given one.
	set, examinees, agents, err := fl.settings(1, &outsideFlags{})
	if err != nil {
		return err
	}
	items, people, who, err := s.Outcomes(peopleName, set)
	if err != nil {
		return ioFailure(err)
	}
	if len(who) == 0 {
		ps, err := s.Participants()
		if err != nil {
			return ioFailure(err)
		}
		return fileErrors(fmt.Errorf("no participant has finished the test yet (%d sessions); "+
			"--participants and --interactions export what is recorded", len(ps)))
	}
	if err := checkTestSize(items, len(examinees), set); err != nil {
		return err
	}
	var bar *progress
	if !fl.quiet {
		bar = newProgress(io.err, "items", len(items)*len(examinees))
	}
	outcomes, err := exam.Take(items, examinees, set, func(done, _ int) { bar.update(done) })
	bar.clear()
	if err != nil {
		return usage(err)
	}
	d := s.Design()
	rep, err := report.New(report.Input{
		Version:  versionString(),
		Protocol: report.Protocol{Name: d.Protocol, Complexity: d.Complexity, Strata: report.Strata(d.Strata), Settings: d.Settings},
		Seed:     d.Seed,
		Tests:    len(who),
		Settings: set,
		Agents:   append([]report.Agent{{Name: peopleName}}, agents...),
		Items:    items,
		Outcomes: append(people, outcomes...),
	})
	if err != nil {
		return err
	}
	return writeTestReport(io, rep, fl)
}
