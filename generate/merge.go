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
// of one run, or a run of its consecutive shards: the same version, kind
// and settings, every shard of the part once, each complete and whole. Its
// records, in order, are the unsharded run's over that part.
type Merged struct {
	// Settings are the unsharded run's (shard 1 of 1, no output); for a
	// partial merge, Shard and Shards are its first shard's.
	Settings StreamSettings
	Version  string
	header   pack.Header
	shards   []*pack.Reader // by shard number
}

// Merge opens the packs at paths and checks that they are the shards of
// one enumeration made by version: it refuses, naming them, packs of
// another kind, version or settings, a shard given twice, shards missing,
// and a pack whose shard is not finished or whose end is torn (run that
// shard again: it resumes). A pack may itself be merged from consecutive
// shards (MergePart's); it stands for each of them.
func Merge(paths []string, version string) (*Merged, error) {
	return merge(paths, version, false)
}

// MergePart is Merge of consecutive shards K to L of N, not necessarily
// all of them: the pack it writes holds shards K to L and is itself a shard
// of the whole for a later Merge or MergePart, so that shards can be merged
// in a tree whose root is the unsharded run's pack, bit for bit. It
// refuses a gap between the shards as Merge refuses a missing one.
func MergePart(paths []string, version string) (*Merged, error) {
	return merge(paths, version, true)
}

func merge(paths []string, version string, partial bool) (*Merged, error) {
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
		if err := checkShard(r, readers[0], path, paths[0], version); err != nil {
			return fail(err)
		}
		h := r.Header
		for k := h.Shard; k <= h.Last(); k++ {
			if byShard[k] != "" {
				return fail(fmt.Errorf("shard %d of %d is given twice: %s and %s", k, h.Shards, byShard[k], path))
			}
			byShard[k] = path
		}
	}
	slices.SortFunc(readers, func(a, b *pack.Reader) int { return a.Header.Shard - b.Header.Shard })
	first, last := readers[0].Header, readers[len(readers)-1].Header
	if err := checkCovered(byShard, first, last, partial); err != nil {
		return fail(err)
	}
	var settings struct {
		MaxBits float64        `json:"max_bits"`
		Limit   int            `json:"limit"`
		Filters FilterSettings `json:"filters"`
	}
	if err := json.Unmarshal(first.Settings, &settings); err != nil {
		return fail(fmt.Errorf("%s: its settings: %v", byShard[first.Shard], err))
	}
	m := &Merged{Version: version, shards: readers}
	m.Settings = StreamSettings{MaxBits: settings.MaxBits, Limit: settings.Limit, Shard: 1, Shards: 1, Filters: settings.Filters}
	m.header = pack.Header{Version: version, Kind: first.Kind, Settings: first.Settings, Total: first.Total, To: first.Total, Shard: 1, Shards: 1}
	if first.Shard != 1 || last.Last() != first.Shards {
		// A part of the whole: its own place in the stream and shards.
		m.Settings.Shard, m.Settings.Shards = first.Shard, first.Shards
		m.header.From, m.header.To = first.From, last.To
		m.header.Shard, m.header.Shards = first.Shard, first.Shards
		if last.Last() != first.Shard {
			m.header.LastShard = last.Last()
		}
	}
	return m, nil
}

// checkShard checks that the pack r at path is a whole, finished part of
// the run whose first pack is first, made by version.
func checkShard(r, first *pack.Reader, path, firstPath, version string) error {
	h, f := r.Header, first.Header
	switch {
	case h.Kind != "enumerate":
		return fmt.Errorf("%s holds a stream of kind %q, not an enumeration", path, h.Kind)
	case h.Version != version:
		return fmt.Errorf("%s was made by anynt %s; this is anynt %s: merge with the anynt that made the shards", path, h.Version, version)
	case !bytes.Equal(h.Settings, f.Settings) || h.Shards != f.Shards || h.Total != f.Total:
		return fmt.Errorf("%s is a shard of another run than %s: settings %s of %d shards, not %s of %d", path, firstPath, h.Settings, h.Shards, f.Settings, f.Shards)
	case h.Shard < 1 || h.Last() < h.Shard || h.Last() > h.Shards || h.LastShard == h.Shard:
		return fmt.Errorf("%s says it holds shards %d to %d of %d", path, h.Shard, h.Last(), h.Shards)
	case r.Torn != nil:
		return fmt.Errorf("%v: %s", r.Torn, again(h))
	}
	from, _ := ShardRange(h.Total, h.Shard, h.Shards)
	if _, to := ShardRange(h.Total, h.Last(), h.Shards); h.From != from || h.To != to {
		return fmt.Errorf("%s says it is %s of [%d, %d); that part is [%d, %d)", path, h.Part(), h.From, h.To, from, to)
	}
	if covered := coveredTo(r); covered != h.To {
		if limitOf(h) > 0 {
			return fmt.Errorf("%s stops at candidate %d of its [%d, %d) at its --limit: a limited shard is not a part of the whole run", path, covered, h.From, h.To)
		}
		return fmt.Errorf("%s stops at candidate %d of its [%d, %d): %s", path, covered, h.From, h.To, again(h))
	}
	if err := r.Verify(); errors.Is(err, pack.ErrTorn) {
		return fmt.Errorf("%v: %s", err, again(h))
	} else if err != nil {
		return err
	}
	return nil
}

// again says how to make a pack of part h whole: run its shard again (it
// resumes), or merge its shards again.
func again(h pack.Header) string {
	if h.Last() == h.Shard {
		return fmt.Sprintf("run shard %d/%d again to finish it", h.Shard, h.Shards)
	}
	return fmt.Sprintf("merge %s again", h.Part())
}

// checkCovered refuses shards missing from a merge: any of the run's
// shards for a whole merge, one between the first and the last for a
// partial one.
func checkCovered(byShard map[int]string, first, last pack.Header, partial bool) error {
	from, to := 1, first.Shards
	if partial {
		from, to = first.Shard, last.Last()
	}
	var missing []string
	for k := from; k <= to; k++ {
		if byShard[k] == "" {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	switch {
	case len(missing) == 0:
		return nil
	case partial:
		return fmt.Errorf("shards %s of %d are missing between shards %d and %d: a partial merge joins consecutive shards", strings.Join(missing, ", "), first.Shards, from, to)
	}
	return fmt.Errorf("shards %s of %d are missing", strings.Join(missing, ", "), first.Shards)
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
// them, so that it is that run's pack bit for bit (for a partial merge, a
// pack that a later merge takes as the shards it holds, each frame's tally
// counted from the part's start as a shard's is). A shard ends within a
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
	from := m.header.From
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
		if e.Next%pack.FrameSpan != 0 && e.Next != m.header.To {
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

// Part names the shards the merge holds: "the whole run", or "shards 3–5
// of 8" for a partial merge.
func (m *Merged) Part() string {
	if m.header.Shards == 1 {
		return "the whole run"
	}
	return m.header.Part()
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
