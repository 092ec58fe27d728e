package main

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/study"
)

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
	ClientCut    bool    `json:"client_cut"`
}

var interactionHeader = []string{"version", "protocol", "seed", "settings", "participant", "code", "test", "exercise",
	"step", "seq", "observation", "cell", "action", "reward", "client_ms", "server_ms", "took_ms", "at", "client_cut"}

func (r interactionRow) csv() []string {
	return []string{r.Version, r.Protocol, strconv.FormatUint(r.Seed, 10), r.Settings, strconv.Itoa(r.Participant),
		spreadsheetText(r.Code), strconv.Itoa(r.Test), strconv.Itoa(r.Exercise), strconv.Itoa(r.Step), strconv.Itoa(r.Seq),
		r.Observation, strconv.Itoa(r.Cell), strconv.Itoa(r.Action), formatFloat(r.Reward),
		formatFloat(r.ClientMillis), formatFloat(r.ServerMillis), formatFloat(r.TookMillis), r.At, strconv.FormatBool(r.ClientCut)}
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
			r.At.UTC().Format(time.RFC3339Nano), r.ClientCut}
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
