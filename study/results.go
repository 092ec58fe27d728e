package study

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/exam"
)

// Participants lists the sessions in order.
func (s *Study) Participants() ([]Participant, error) {
	rows, err := s.db.Query(`SELECT s.number, s.code, s.test, s.replies, s.started, coalesce(max(i.at), 0), count(i.seq)
		FROM sessions s LEFT JOIN interactions i ON i.session = s.number
		GROUP BY s.number ORDER BY s.number`)
	if err != nil {
		return nil, fmt.Errorf("reading the sessions: %w", err)
	}
	defer rows.Close()
	var ps []Participant
	for rows.Next() {
		var p Participant
		var replies string
		var started, last int64
		if err := rows.Scan(&p.Number, &p.Code, &p.Test, &replies, &started, &last, &p.Moves); err != nil {
			return nil, fmt.Errorf("reading the sessions: %w", err)
		}
		if err := json.Unmarshal([]byte(replies), &p.Replies); err != nil {
			return nil, fmt.Errorf("participant %d: the replies are not readable: %w", p.Number, err)
		}
		if p.Test < 1 || p.Test > len(s.tests) {
			return nil, fmt.Errorf("participant %d takes test %d, which the study does not have", p.Number, p.Test)
		}
		p.Started = time.Unix(0, started)
		if p.Moves > 0 {
			p.Last = time.Unix(0, last)
		}
		p.Finished = p.Moves == s.steps(p.Test)
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// steps is the number of moves of test k.
func (s *Study) steps(k int) int {
	n := 0
	for _, i := range s.tests[k-1] {
		n += s.design.Items[i].Steps
	}
	return n
}

// Records calls each for every recorded interaction, participant by
// participant, in order, and stops at its first error, which it returns.
// It reads a snapshot: moves recorded meanwhile are not given.
func (s *Study) Records(each func(Record) error) error {
	cut := "i.client_cut"
	if s.schema < 2 { // a read-only study of version 1, which cut no claim
		cut = "0"
	}
	rows, err := s.db.Query(`SELECT i.session, s.code, s.test, i.exercise, i.step, i.seq, i.observation, i.cell,
		i.action, i.reward, i.client_ms, i.server_ms, i.took_ms, i.at, ` + cut + `
		FROM interactions i JOIN sessions s ON s.number = i.session ORDER BY i.session, i.seq`)
	if err != nil {
		return fmt.Errorf("reading the interactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Record
		var at int64
		if err := rows.Scan(&r.Participant, &r.Code, &r.Test, &r.Exercise, &r.Step, &r.Seq, &r.Observation, &r.Cell,
			&r.Action, &r.Reward, &r.ClientMillis, &r.ServerMillis, &r.TookMillis, &at, &r.ClientCut); err != nil {
			return fmt.Errorf("reading the interactions: %w", err)
		}
		r.At = time.Unix(0, at)
		if err := each(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Outcomes gives the participants who finished their test as exam.Take
// would give one examinee named name: the items of each one's test, in
// order (Item.Test renumbered by participant, in order), and one outcome
// per item, from the interactions at their recorded times (exam.Played):
// an exercise's run has its moves at the running sum of their TookMillis
// from the exercise's start, and is read at its last move. Participants who
// have not finished are left out, as a test that stopped half-way has no
// score.
func (s *Study) Outcomes(name string, set exam.Settings) (items []exam.Item, outs []exam.Outcome, who []Participant, err error) {
	if err := set.Validate(); err != nil {
		return nil, nil, nil, err
	}
	ps, err := s.Participants()
	if err != nil {
		return nil, nil, nil, err
	}
	runs := map[int][]aggregate.Run{} // by participant, by exercise
	var elapsed float64               // in the exercise, in milliseconds
	for _, p := range ps {
		if p.Finished {
			runs[p.Number] = make([]aggregate.Run, len(s.tests[p.Test-1]))
		}
	}
	err = s.Records(func(r Record) error {
		rs := runs[r.Participant]
		if rs == nil {
			return nil
		}
		if r.Exercise < 1 || r.Exercise > len(rs) {
			return fmt.Errorf("participant %d: a move is recorded in exercise %d of %d", r.Participant, r.Exercise, len(rs))
		}
		if r.Step == 1 {
			elapsed = 0
		}
		elapsed += r.TookMillis
		rs[r.Exercise-1] = append(rs[r.Exercise-1], aggregate.Interaction{T: elapsed / 1000, Reward: r.Reward})
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range ps {
		if !p.Finished {
			continue
		}
		who = append(who, p)
		for k, i := range s.tests[p.Test-1] {
			it := s.design.Items[i]
			it.Test = len(who)
			items = append(items, it)
			outs = append(outs, exam.Played(len(items)-1, name, []aggregate.Run{runs[p.Number][k]}, set))
		}
	}
	return items, outs, who, nil
}
