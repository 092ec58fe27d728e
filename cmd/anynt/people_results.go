package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/agent"
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
	test                       testFlags
	db                         string
	interactions, participants bool
}

func newResultsCmd(io *stdio) *cobra.Command {
	fl := resultsFlags{test: testFlags{settings: agent.DefaultSettings}}
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
			return runResults(io, fl, cmd.Flags().Changed)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.db, "db", "", "the study's SQLite database, written by anynt serve (required)")
	fl.test.registerExam(f, []string{"qlearning"})
	f.BoolVar(&fl.interactions, "interactions", false, "write every recorded interaction (CSV, or JSON lines with --json)")
	f.BoolVar(&fl.participants, "participants", false, "write the sessions (CSV, or JSON lines with --json)")
	return cmd
}

// exportRefuses are the flags an export has no use for: it runs no agent
// and writes no report.
var exportRefuses = []string{"agent", "episodes", "pace", "tau", "lambda", "score", "alpha", "gamma", "q0", "html", "quiet"}

func runResults(io *stdio, fl resultsFlags, changed func(string) bool) error {
	if fl.db == "" {
		return usage(errors.New("--db FILE is required: the database anynt serve wrote"))
	}
	if fl.test.json && fl.test.csv {
		return usage(errors.New("--json and --csv both print the results; choose one"))
	}
	export := fl.interactions || fl.participants
	if fl.interactions && fl.participants {
		return usage(errors.New("--interactions and --participants are two exports; choose one"))
	}
	if export {
		for _, name := range exportRefuses {
			if changed(name) {
				return usage(fmt.Errorf("--%s means nothing to an export; it is a setting of the report", name))
			}
		}
	} else if err := checkAgentSettings(fl.test, changed); err != nil {
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
		err = exportInteractions(io, s, fl.test.json)
	case fl.participants:
		err = exportParticipants(io, s, fl.test.json)
	default:
		return peopleReport(io, s, fl.test)
	}
	if err != nil {
		return ioFailure(err)
	}
	return nil
}

// peopleReport gives the finished participants' items to the agents and
// writes the report of both.
func peopleReport(io *stdio, s *study.Study, fl testFlags) error {
	fl.tests = 1 // testSettings bounds it; the study decided the tests
	set, examinees, agents, err := testSettings(fl)
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

// interactionRow is one recorded interaction as the export writes it,
// with the study it belongs to.
type interactionRow struct {
	Version      string  `json:"version"`
	Protocol     string  `json:"protocol"`
	Seed         uint64  `json:"seed"`
	Settings     string  `json:"settings"`
	Participant  int     `json:"participant"`
	Code         string  `json:"code"`
	Test         int     `json:"test"`
	Exercise     int     `json:"exercise"`
	Step         int     `json:"step"`
	Seq          int     `json:"seq"`
	Observation  string  `json:"observation"`
	Cell         int     `json:"cell"`
	Action       int     `json:"action"`
	Reward       float64 `json:"reward"`
	ClientMillis float64 `json:"client_ms"`
	ServerMillis float64 `json:"server_ms"`
	TookMillis   float64 `json:"took_ms"`
	At           string  `json:"at"`
}

var interactionHeader = []string{"version", "protocol", "seed", "settings", "participant", "code", "test", "exercise",
	"step", "seq", "observation", "cell", "action", "reward", "client_ms", "server_ms", "took_ms", "at"}

func (r interactionRow) csv() []string {
	return []string{r.Version, r.Protocol, strconv.FormatUint(r.Seed, 10), r.Settings, strconv.Itoa(r.Participant),
		spreadsheetText(r.Code), strconv.Itoa(r.Test), strconv.Itoa(r.Exercise), strconv.Itoa(r.Step), strconv.Itoa(r.Seq),
		r.Observation, strconv.Itoa(r.Cell), strconv.Itoa(r.Action), formatFloat(r.Reward),
		formatFloat(r.ClientMillis), formatFloat(r.ServerMillis), formatFloat(r.TookMillis), r.At}
}

// exportInteractions writes every recorded interaction.
func exportInteractions(io *stdio, s *study.Study, asJSON bool) error {
	d := s.Design()
	w := csv.NewWriter(io.out)
	if !asJSON {
		if err := w.Write(interactionHeader); err != nil {
			return err
		}
	}
	err := s.Records(func(r study.Record) error {
		row := interactionRow{d.Version, d.Protocol, d.Seed, d.Settings, r.Participant, r.Code, r.Test, r.Exercise,
			r.Step, r.Seq, r.Observation, r.Cell, r.Action, r.Reward, r.ClientMillis, r.ServerMillis, r.TookMillis,
			r.At.UTC().Format(time.RFC3339Nano)}
		if asJSON {
			return writeJSON(io.out, row)
		}
		return w.Write(row.csv())
	})
	if err != nil {
		return err
	}
	w.Flush()
	return w.Error()
}

// participantRow is one session as the export writes it.
type participantRow struct {
	Participant int      `json:"participant"`
	Code        string   `json:"code"`
	Test        int      `json:"test"`
	Started     string   `json:"started"`
	Last        string   `json:"last"`
	Moves       int      `json:"moves"`
	Finished    bool     `json:"finished"`
	Replies     []string `json:"replies"`
}

var participantHeader = []string{"participant", "code", "test", "started", "last", "moves", "finished", "replies"}

// exportParticipants writes the sessions; in CSV the replies are one
// column holding a JSON array, since the number of questions is the
// study's. That column begins with "[", which no spreadsheet reads as a
// formula, so the replies in it are the raw text.
func exportParticipants(io *stdio, s *study.Study, asJSON bool) error {
	ps, err := s.Participants()
	if err != nil {
		return err
	}
	w := csv.NewWriter(io.out)
	if !asJSON {
		if err := w.Write(participantHeader); err != nil {
			return err
		}
	}
	for _, p := range ps {
		row := participantRow{p.Number, p.Code, p.Test, timeText(p.Started), timeText(p.Last), p.Moves, p.Finished, p.Replies}
		if row.Replies == nil {
			row.Replies = []string{}
		}
		if asJSON {
			if err := writeJSON(io.out, row); err != nil {
				return err
			}
			continue
		}
		replies, err := json.Marshal(row.Replies)
		if err != nil {
			return err
		}
		if err := w.Write([]string{strconv.Itoa(row.Participant), spreadsheetText(row.Code), strconv.Itoa(row.Test), row.Started, row.Last,
			strconv.Itoa(row.Moves), strconv.FormatBool(row.Finished), string(replies)}); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// spreadsheetText is text a participant typed (a code), as a CSV export
// writes it: a spreadsheet runs a cell that begins with = + - @, a tab or
// a carriage return as a formula (CSV injection), so such text gets a
// single quote in front, as OWASP advises; text that begins with a quote
// gets one too, so that removing one leading quote always gives the text
// typed. JSON exports keep the raw text.
func spreadsheetText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r'", rune(s[0])) {
		return "'" + s
	}
	return s
}

// timeText is t in UTC to the nanosecond, "" for the zero time (a session
// without a move has no last move).
func timeText(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

// formatFloat writes a float as its shortest exact text, as the reports'
// CSV does.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
