package generate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/anynt/anynt/pack"
)

// Merged is the packs of an enumeration's shards, checked to be the whole
// of one run: the same version, kind and settings, every shard of N once,
// each complete and whole. Its records, in order, are the unsharded run's.
type Merged struct {
	// Settings are the unsharded run's (shard 1 of 1, no output).
	Settings StreamSettings
	Version  string
	header   pack.Header
	shards   []*pack.Reader // by shard number
}

// Merge opens the packs at paths and checks that they are the shards of
// one enumeration made by version: it refuses, naming them, packs of
// another kind, version or settings, a shard given twice, shards missing,
// and a pack whose shard is not finished or whose end is torn (run that
// shard again: it resumes).
func Merge(paths []string, version string) (*Merged, error) {
	m := &Merged{}
	var readers []*pack.Reader
	fail := func(err error) (*Merged, error) {
		for _, r := range readers {
			r.Close()
		}
		return nil, err
	}
	if len(paths) == 0 {
		return fail(errors.New("no packs to merge"))
	}
	byShard := map[int]string{}
	for _, path := range paths {
		r, err := pack.Open(path)
		if err != nil {
			return fail(err)
		}
		readers = append(readers, r)
		h := r.Header
		switch first := readers[0].Header; {
		case h.Kind != "enumerate":
			return fail(fmt.Errorf("%s holds a stream of kind %q, not an enumeration", path, h.Kind))
		case h.Version != version:
			return fail(fmt.Errorf("%s was made by anynt %s; this is anynt %s: merge with the anynt that made the shards", path, h.Version, version))
		case !bytes.Equal(h.Settings, first.Settings) || h.Shards != first.Shards || h.Total != first.Total:
			return fail(fmt.Errorf("%s is a shard of another run than %s: settings %s of %d shards, not %s of %d", path, paths[0], h.Settings, h.Shards, first.Settings, first.Shards))
		case byShard[h.Shard] != "":
			return fail(fmt.Errorf("shard %d of %d is given twice: %s and %s", h.Shard, h.Shards, byShard[h.Shard], path))
		case r.Torn != nil:
			return fail(fmt.Errorf("%v: run shard %d/%d again to finish it", r.Torn, h.Shard, h.Shards))
		}
		if from, to := ShardRange(h.Total, h.Shard, h.Shards); h.From != from || h.To != to {
			return fail(fmt.Errorf("%s says it is shard %d/%d of [%d, %d); that shard is [%d, %d)", path, h.Shard, h.Shards, h.From, h.To, from, to))
		}
		if covered := coveredTo(r); covered != h.To {
			if limitOf(h) > 0 {
				return fail(fmt.Errorf("%s stops at candidate %d of its [%d, %d) at its --limit: a limited shard is not a part of the whole run", path, covered, h.From, h.To))
			}
			return fail(fmt.Errorf("%s stops at candidate %d of its [%d, %d): run shard %d/%d again to finish it", path, covered, h.From, h.To, h.Shard, h.Shards))
		}
		if err := r.Verify(); errors.Is(err, pack.ErrTorn) {
			return fail(fmt.Errorf("%v: run shard %d/%d again to finish it", err, h.Shard, h.Shards))
		} else if err != nil {
			return fail(err)
		}
		byShard[h.Shard] = path
	}
	n := readers[0].Header.Shards
	var missing []string
	for k := 1; k <= n; k++ {
		if byShard[k] == "" {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return fail(fmt.Errorf("shards %s of %d are missing", strings.Join(missing, ", "), n))
	}
	slices.SortFunc(readers, func(a, b *pack.Reader) int { return a.Header.Shard - b.Header.Shard })
	var settings struct {
		MaxBits float64        `json:"max_bits"`
		Limit   int            `json:"limit"`
		Filters FilterSettings `json:"filters"`
	}
	if err := json.Unmarshal(readers[0].Header.Settings, &settings); err != nil {
		return fail(fmt.Errorf("%s: its settings: %v", byShard[1], err))
	}
	m.Settings = StreamSettings{MaxBits: settings.MaxBits, Limit: settings.Limit, Shard: 1, Shards: 1, Filters: settings.Filters}
	m.Version, m.shards = version, readers
	h := readers[0].Header
	m.header = pack.Header{Version: version, Kind: h.Kind, Settings: h.Settings, Total: h.Total, To: h.Total, Shard: 1, Shards: 1}
	return m, nil
}

// limitOf is the --limit of the run that wrote a pack, 0 for none.
func limitOf(h pack.Header) int {
	var s struct {
		Limit int `json:"limit"`
	}
	json.Unmarshal(h.Settings, &s)
	return s.Limit
}

// coveredTo is the position after a pack's last frame.
func coveredTo(r *pack.Reader) int {
	if len(r.Entries) == 0 {
		return r.Header.From
	}
	return r.Entries[len(r.Entries)-1].Next
}

// Close closes the packs.
func (m *Merged) Close() {
	for _, r := range m.shards {
		r.Close()
	}
}

// Each calls fn with each accepted environment of the run, in order.
func (m *Merged) Each(fn func(Emitted) error) error {
	return m.frames(func(_ pack.Entry, lines [][]byte, _ Tally) error {
		for _, line := range lines {
			var e Emitted
			if err := json.Unmarshal(line, &e); err != nil {
				return err
			}
			if err := fn(e); err != nil {
				return err
			}
		}
		return nil
	})
}

// frames calls fn with each shard's frames in order, with their records
// and the run's tally up to the frame's end (the shards before its own
// added to its own).
func (m *Merged) frames(fn func(e pack.Entry, lines [][]byte, t Tally) error) error {
	before := Tally{Rejected: map[string]int{}}
	for _, r := range m.shards {
		last := Tally{Rejected: map[string]int{}}
		for i, e := range r.Entries {
			lines, err := r.Lines(i)
			if err != nil {
				return err
			}
			var t Tally
			if err := json.Unmarshal(e.Tally, &t); err != nil {
				return fmt.Errorf("shard %d: a frame's tally: %v", r.Header.Shard, err)
			}
			last = t
			if err := fn(e, lines, addTally(before, t)); err != nil {
				return err
			}
		}
		before = addTally(before, last)
	}
	return nil
}

func addTally(a, b Tally) Tally {
	t := Tally{Examined: a.Examined + b.Examined, Accepted: a.Accepted + b.Accepted, Rejected: maps.Clone(a.Rejected)}
	if t.Rejected == nil {
		t.Rejected = map[string]int{}
	}
	for k, n := range b.Rejected {
		t.Rejected[k] += n
	}
	return t
}

// WritePack writes the run's pack to path, a new file: frames at the
// multiples of pack.FrameSpan and at the end, as the unsharded run cuts
// them, so that it is that run's pack bit for bit. A shard ends within a
// frame of the whole, whose records it shares with the next shard. The
// pack is written under a temporary name and renamed when whole, so that
// a failure leaves no partial pack at path.
func (m *Merged) WritePack(path string) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s exists; merge writes a new pack", path)
	}
	tmp := path + ".merging"
	defer func() {
		if err != nil {
			os.Remove(tmp)
		} else {
			err = os.Rename(tmp, path)
		}
	}()
	os.Remove(tmp) // left by a merge that was killed
	w, _, _, err := pack.Resume(tmp, m.header)
	if err != nil {
		return err
	}
	from := 0
	var records []pack.Record
	err = m.frames(func(e pack.Entry, lines [][]byte, t Tally) error {
		for _, line := range lines {
			var rec struct {
				Index int `json:"index"`
			}
			if err := json.Unmarshal(line, &rec); err != nil {
				return err
			}
			records = append(records, pack.Record{Index: rec.Index, JSON: bytes.TrimSuffix(line, []byte("\n"))})
		}
		if e.Next%pack.FrameSpan != 0 && e.Next != m.header.Total {
			return nil // a shard's end inside a frame of the whole
		}
		tally, err := json.Marshal(t)
		if err != nil {
			return err
		}
		if err := w.Write(from, e.Next, records, tally); err != nil {
			return err
		}
		from, records = e.Next, records[:0]
		return nil
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// Tally is the run's count of candidates: the shards' counts added.
func (m *Merged) Tally() (Tally, error) {
	t := Tally{Rejected: map[string]int{}}
	for _, r := range m.shards {
		if n := len(r.Entries); n > 0 {
			var last Tally
			if err := json.Unmarshal(r.Entries[n-1].Tally, &last); err != nil {
				return t, fmt.Errorf("shard %d: a frame's tally: %v", r.Header.Shard, err)
			}
			t = addTally(t, last)
		}
	}
	return t, nil
}
