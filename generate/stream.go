package generate

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/internal/version"
)

// StreamSettings steer an enumeration run.
type StreamSettings struct {
	MaxBits float64        `json:"max_bits"`
	Limit   int            `json:"limit"`  // environments to emit; 0: no limit
	Shard   int            `json:"shard"`  // this run takes the candidates whose index is Shard-1 mod Shards
	Shards  int            `json:"shards"` //
	Filters FilterSettings `json:"filters"`
	Out     string         `json:"out,omitempty"` // a folder for the files and the resume state, or ""
	// Pack is a pack file (package pack) for the accepted environments,
	// or "": the other way to keep them, one file a shard.
	Pack string `json:"pack,omitempty"`
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

// Progress is what a run has done: Total over every run into the folder
// or pack, Run in this one (what a rate is measured on), and Part the
// candidates of the run's part of the stream (its shard's; 0 for an
// unsharded run without a pack, whose candidates are not counted first).
type Progress struct {
	Total, Run Tally
	Part       int
}

// state is what a folder keeps to resume an interrupted run: the settings
// (a run resumes only with the same ones), the next candidate index and
// the count of environments written, whose files the journal lists.
type state struct {
	Version string         `json:"version"` // the build that wrote it, for the reader
	MaxBits float64        `json:"max_bits"`
	Shard   int            `json:"shard"`
	Shards  int            `json:"shards"`
	Filters FilterSettings `json:"filters"`
	Next    int            `json:"next"`
	Emitted int            `json:"emitted"`
	Tally   Tally          `json:"tally"`
}

// The files of an enumeration folder besides the environments: the state,
// rewritten atomically, and the journal, one line "INDEX SHA256 FILE" an
// environment written, appended and synced before the state counts it.
const (
	stateFile   = ".enumerate.json"
	journalFile = ".enumerate.sums"
)

// saveEvery bounds how long rejected candidates go unsaved: an accepted one
// is saved at once; after a kill, at most this much filtering is redone.
const saveEvery = time.Second

// Stream enumerates, filters and emits environments: each candidate of
// this shard is checked (Check); accepted ones are passed to emit and, with
// Out, written as files. progress, if not nil, is called after each
// candidate; notice, if not nil, with each repair a resumed run makes.
//
// With Out, Stream holds the folder's lock; every file is written
// atomically, its checksum journaled and the state saved before emit sees
// it, so that a run killed at any moment and started again with the same
// settings goes on where it stopped, emitting nothing twice. On resuming,
// every file the journal lists is checked against its checksum, and one
// missing or torn is written again.
func Stream(s StreamSettings, emit func(Emitted), progress func(Progress), notice func(string)) (Tally, error) {
	if s.Shards < 1 || s.Shard < 1 || s.Shard > s.Shards {
		return Tally{}, fmt.Errorf("shard %d/%d: K runs from 1 to N", s.Shard, s.Shards)
	}
	if s.Out != "" && s.Pack != "" {
		return Tally{}, fmt.Errorf("an enumeration keeps its environments in a folder or in a pack, not both")
	}
	checker, err := newCandidateChecker(s.Filters)
	if err != nil {
		return Tally{}, err
	}
	st := state{Version: version.String(), MaxBits: s.MaxBits, Shard: s.Shard, Shards: s.Shards, Filters: s.Filters,
		Tally: Tally{Rejected: map[string]int{}}}
	var j *journal
	redo := map[int]string{} // index → why its file is written again
	if s.Out != "" {
		release, err := openFolder(s.Out)
		if err != nil {
			return Tally{}, err
		}
		defer release()
		if err := resume(s.Out, &st); err != nil {
			return Tally{}, err
		}
		if j, err = openJournal(s.Out, st.Emitted, redo); err != nil {
			return Tally{}, err
		}
		defer j.close()
	}
	l, err := listBlocks(s.MaxBits)
	if err != nil {
		return Tally{}, err
	}
	from, to := 0, -1
	var sink *packSink
	if s.Shards > 1 || s.Pack != "" {
		total, _ := l.count()
		from, to = ShardRange(total, s.Shard, s.Shards)
		if s.Pack != "" {
			var torn error
			if sink, torn, err = openPackSink(s, total, from, to, &st); err != nil {
				return Tally{}, err
			}
			defer sink.close()
			if torn != nil && notice != nil {
				notice(fmt.Sprintf("%v; cut off and done again", torn))
			}
		}
	}
	var failure error
	// Files the journal lists that must be written again: each candidate
	// is found by seeking to it.
	for _, index := range slices.Sorted(maps.Keys(redo)) {
		l.walk(index, index+1, func(c Candidate) bool {
			name := filepath.Join(s.Out, fileName(c))
			if failure = atomicfile.Write(name, []byte(c.Source())); failure == nil {
				if notice != nil {
					notice(fmt.Sprintf("%s: %s; written again", name, redo[index]))
				}
				delete(redo, index)
			}
			return false
		})
		if failure != nil {
			return st.Tally, failure
		}
	}
	run := Tally{Rejected: map[string]int{}}
	lastSave := time.Now()
	l.walk(max(from, st.Next), to, func(c Candidate) bool {
		if s.Limit > 0 && st.Emitted >= s.Limit {
			return false
		}
		v := checker.check(c)
		count := func(t *Tally) {
			t.Examined++
			if v.Accepted {
				t.Accepted++
			} else {
				t.Rejected[v.Reason]++
			}
		}
		count(&st.Tally)
		count(&run)
		st.Next = c.Index + 1
		if !v.Accepted {
			if s.Out != "" && time.Since(lastSave) >= saveEvery {
				failure, lastSave = save(s.Out, st), time.Now()
			}
		} else {
			src := c.Source()
			e := Emitted{Index: c.Index, Bits: c.Bits, Verdict: v, Source: src}
			st.Emitted++
			if sink != nil {
				failure = sink.add(e)
			} else if s.Out != "" {
				e.File, e.Source = filepath.Join(s.Out, fileName(c)), ""
				if failure = atomicfile.Write(e.File, []byte(src)); failure == nil {
					if failure = j.add(c.Index, fileName(c), []byte(src)); failure == nil {
						failure, lastSave = save(s.Out, st), time.Now()
					}
				}
			}
			if failure == nil && sink == nil {
				emit(e)
			}
		}
		if failure == nil && sink != nil {
			failure = sink.examined(st.Next, st.Tally, emit, false)
		}
		if failure != nil {
			return false
		}
		if progress != nil {
			progress(Progress{Total: st.Tally, Run: run, Part: max(to-from, 0)})
		}
		return true
	})
	if failure == nil && len(redo) > 0 {
		failure = fmt.Errorf("%s: %d environments the journal lists are beyond the enumeration; use another folder", s.Out, len(redo))
	}
	if s.Out != "" && failure == nil {
		failure = save(s.Out, st)
	}
	if sink != nil && failure == nil {
		failure = sink.examined(st.Next, st.Tally, emit, true)
	}
	return st.Tally, failure
}

// ShardRange is the part of a stream of total candidates that shard k of
// n takes: the candidates whose index is in [from, to), n runs of nearly
// equal length, in order, so that the shards' outputs one after another
// are the stream's.
func ShardRange(total, k, n int) (from, to int) {
	return mulDiv(total, k-1, n), mulDiv(total, k, n)
}

// mulDiv is ⌊a·b/c⌋ for 0 ≤ b ≤ c, in 128 bits: a·b overflows 64 bits
// for the totals of large bounds (10¹⁷ candidates and 1,000 shards).
func mulDiv(a, b, c int) int {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	q, _ := bits.Div64(hi, lo, uint64(c))
	return int(q)
}

// fileName is the name of a candidate's file: its bits, then its index.
func fileName(c Candidate) string { return fmt.Sprintf("%08.4f-%07d.anynt", c.Bits, c.Index) }

// resume reads a folder's state; a state of other settings is an error.
func resume(dir string, st *state) error {
	var old state
	if found, err := readState(filepath.Join(dir, stateFile), "*.anynt", &old); !found || err != nil {
		return err
	}
	if old.MaxBits != st.MaxBits || old.Shard != st.Shard || old.Shards != st.Shards || !old.Filters.equal(st.Filters) {
		return fmt.Errorf("%s holds a run with other settings; use another folder", dir)
	}
	old.Version = st.Version
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
	return atomicfile.Write(filepath.Join(dir, stateFile), b)
}

// journal is the open journal of a folder.
type journal struct{ f *os.File }

// openJournal reads the journal's first n lines, the environments the
// state counts, and cuts off the rest (an environment written before a
// kill, whose candidate the state does not count: it is examined again).
// Each listed file is checked: one missing, or whose content is not what
// the journal's checksum says, goes into redo with the reason.
func openJournal(dir string, n int, redo map[int]string) (*journal, error) {
	path := filepath.Join(dir, journalFile)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(f)
	size := int64(0)
	for line := 1; line <= n; line++ {
		if !sc.Scan() {
			f.Close()
			return nil, fmt.Errorf("%s lists %d environments; the state counts %d; use another folder", path, line-1, n)
		}
		index, sum, name, err := parseJournalLine(sc.Text())
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s:%d: %w; use another folder", path, line, err)
		}
		size += int64(len(sc.Bytes())) + 1
		got, err := os.ReadFile(filepath.Join(dir, name))
		switch {
		case errors.Is(err, os.ErrNotExist):
			redo[index] = "missing"
		case err != nil:
			f.Close()
			return nil, err
		case sha256.Sum256(got) != sum:
			redo[index] = "its content is not what was written (torn or edited)"
		}
	}
	if err := sc.Err(); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Truncate(size); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(size, 0); err != nil {
		f.Close()
		return nil, err
	}
	return &journal{f}, nil
}

func parseJournalLine(line string) (index int, sum [sha256.Size]byte, name string, err error) {
	fields := strings.Fields(line)
	if len(fields) != 3 {
		return 0, sum, "", fmt.Errorf("a journal line is INDEX SHA256 FILE, not %q", line)
	}
	if index, err = strconv.Atoi(fields[0]); err != nil || index < 0 {
		return 0, sum, "", fmt.Errorf("%q is not an index", fields[0])
	}
	b, err := hex.DecodeString(fields[1])
	if err != nil || len(b) != sha256.Size {
		return 0, sum, "", fmt.Errorf("%q is not a SHA-256 sum", fields[1])
	}
	copy(sum[:], b)
	if name = fields[2]; filepath.Base(name) != name {
		return 0, sum, "", fmt.Errorf("%q is not a file of the folder", name)
	}
	return index, sum, name, nil
}

// add journals a written file and syncs the journal.
func (j *journal) add(index int, name string, content []byte) error {
	sum := sha256.Sum256(content)
	line := fmt.Appendf(nil, "%d %s %s\n", index, hex.EncodeToString(sum[:]), name)
	if _, err := j.f.Write(line); err != nil {
		return err
	}
	return j.f.Sync()
}

func (j *journal) close() { j.f.Close() }
