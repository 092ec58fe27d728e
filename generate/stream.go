package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// StreamSettings steer an enumeration run.
type StreamSettings struct {
	MaxBits       float64
	Limit         int // environments to emit; 0: no limit
	Shard, Shards int // this run takes the candidates whose index is Shard-1 mod Shards
	Filters       FilterSettings
	Out           string // a folder for the files and the resume state, or ""
}

// Emitted is one accepted environment: the --json line of anynt enumerate.
type Emitted struct {
	Index   int     `json:"index"`
	Bits    float64 `json:"bits"`
	File    string  `json:"file,omitempty"`
	Source  string  `json:"source,omitempty"`
	Verdict Verdict `json:"filters"`
}

// Tally counts candidates by outcome.
type Tally struct {
	Examined int            `json:"examined"`
	Accepted int            `json:"accepted"`
	Rejected map[string]int `json:"rejected"`
}

// state is what a folder keeps to resume an interrupted run: the settings
// (a run resumes only with the same ones) and the next candidate index.
type state struct {
	MaxBits float64        `json:"max_bits"`
	Shard   int            `json:"shard"`
	Shards  int            `json:"shards"`
	Filters FilterSettings `json:"filters"`
	Next    int            `json:"next"`
	Emitted int            `json:"emitted"`
	Tally   Tally          `json:"tally"`
}

const stateFile = ".enumerate.json"

// Stream enumerates, filters and emits environments: each candidate of
// this shard is checked (Check); accepted ones are passed to emit and, with
// Out, written as files. With Out, the state is saved after every
// candidate, so that a run interrupted and started again with the same
// settings goes on where it stopped, neither losing nor repeating output.
func Stream(s StreamSettings, emit func(Emitted), progress func(Tally)) (Tally, error) {
	if s.Shards < 1 || s.Shard < 1 || s.Shard > s.Shards {
		return Tally{}, fmt.Errorf("shard %d/%d: K runs from 1 to N", s.Shard, s.Shards)
	}
	st := state{MaxBits: s.MaxBits, Shard: s.Shard, Shards: s.Shards, Filters: s.Filters, Tally: Tally{Rejected: map[string]int{}}}
	if s.Out != "" {
		if err := os.MkdirAll(s.Out, 0o755); err != nil {
			return Tally{}, err
		}
		if err := resume(s.Out, &st); err != nil {
			return Tally{}, err
		}
	}
	var failure error
	err := Enumerate(s.MaxBits, func(c Candidate) bool {
		if s.Limit > 0 && st.Emitted >= s.Limit {
			return false
		}
		if c.Index < st.Next || c.Index%s.Shards != s.Shard-1 {
			return true
		}
		src := c.Source()
		v := Check(fmt.Sprintf("candidate-%d.anynt", c.Index), src, s.Filters)
		st.Tally.Examined++
		if v.Accepted {
			st.Tally.Accepted++
			e := Emitted{Index: c.Index, Bits: c.Bits, Verdict: v, Source: src}
			if s.Out != "" {
				e.File = filepath.Join(s.Out, fmt.Sprintf("%08.4f-%07d.anynt", c.Bits, c.Index))
				if failure = os.WriteFile(e.File, []byte(src), 0o644); failure != nil {
					return false
				}
				e.Source = ""
			}
			emit(e)
			st.Emitted++
		} else {
			st.Tally.Rejected[v.Reason]++
		}
		st.Next = c.Index + 1
		if s.Out != "" {
			if failure = save(s.Out, st); failure != nil {
				return false
			}
		}
		if progress != nil {
			progress(st.Tally)
		}
		return true
	})
	if failure != nil {
		return st.Tally, failure
	}
	return st.Tally, err
}

// resume reads a folder's state; a state of other settings is an error.
func resume(dir string, st *state) error {
	b, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var old state
	if err := json.Unmarshal(b, &old); err != nil {
		return fmt.Errorf("%s: %v", filepath.Join(dir, stateFile), err)
	}
	if old.MaxBits != st.MaxBits || old.Shard != st.Shard || old.Shards != st.Shards || old.Filters != st.Filters {
		return fmt.Errorf("%s holds a run with other settings; use another folder", dir)
	}
	*st = old
	if st.Tally.Rejected == nil {
		st.Tally.Rejected = map[string]int{}
	}
	return nil
}

// save writes the state atomically: a crash leaves the old one or the new.
func save(dir string, st state) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, stateFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, stateFile))
}
