package generate

import (
	"encoding/json"
	"fmt"

	"github.com/anynt/anynt/internal/filelock"
	"github.com/anynt/anynt/internal/version"
	"github.com/anynt/anynt/pack"
)

// packSink keeps an enumeration's accepted environments in a pack
// (StreamSettings.Pack): a record each, in frames that end at every
// multiple of pack.FrameSpan of the stream's positions and at the end of
// the shard, so that the frames of a shard are those of the unsharded
// run, and `anynt merge` joins shards into its file bit for bit. An
// environment is emitted only once its frame is on the disk, so that a
// resumed run, which starts after the last whole frame, emits nothing
// twice.
type packSink struct {
	w       *pack.Writer
	release func()
	path    string
	from    int // the position the frame under way starts at
	end     int // the position after the shard's last
	records []pack.Record
	held    []Emitted // emitted once the frame is written
}

// packHeader is the header of a pack of settings s over positions
// [from, to) of total.
func packHeader(s StreamSettings, total, from, to int) (pack.Header, error) {
	settings, err := json.Marshal(struct {
		MaxBits float64        `json:"max_bits"`
		Limit   int            `json:"limit"`
		Filters FilterSettings `json:"filters"`
	}{s.MaxBits, s.Limit, s.Filters})
	return pack.Header{Version: version.String(), Kind: "enumerate", Settings: settings,
		Total: total, From: from, To: to, Shard: s.Shard, Shards: s.Shards}, err
}

// openPackSink locks and opens s.Pack for positions [from, to) of total,
// resuming it: st takes the last whole frame's position and tally. torn
// says what was cut off, if anything.
func openPackSink(s StreamSettings, total, from, to int, st *state) (p *packSink, torn error, err error) {
	release, err := filelock.Lock(s.Pack + ".lock")
	if err != nil {
		return nil, nil, err
	}
	h, err := packHeader(s, total, from, to)
	if err != nil {
		release()
		return nil, nil, err
	}
	w, last, torn, err := pack.Resume(s.Pack, h)
	if err != nil {
		release()
		return nil, nil, err
	}
	p = &packSink{w: w, release: release, path: s.Pack, from: from, end: to}
	if last != nil {
		var t Tally
		if err := json.Unmarshal(last.Tally, &t); err != nil {
			p.close()
			return nil, nil, fmt.Errorf("%s: a frame's tally: %v", s.Pack, err)
		}
		if t.Rejected == nil {
			t.Rejected = map[string]int{}
		}
		st.Tally, st.Emitted, st.Next, p.from = t, t.Accepted, last.Next, last.Next
	}
	return p, torn, nil
}

// add keeps an accepted environment for the frame under way; e is emitted
// once the frame is written.
func (p *packSink) add(e Emitted) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	p.records = append(p.records, pack.Record{Index: e.Index, JSON: b})
	e.File, e.Source = fmt.Sprintf("%s#%d", p.path, e.Index), ""
	p.held = append(p.held, e)
	return nil
}

// examined is called after the candidate before position next: at a
// frame's end (or when stopping, with force) the frame is written and its
// environments emitted.
func (p *packSink) examined(next int, t Tally, emit func(Emitted), force bool) error {
	if next <= p.from || next%pack.FrameSpan != 0 && next != p.end && !force {
		return nil
	}
	tally, err := json.Marshal(t)
	if err != nil {
		return err
	}
	if err := p.w.Write(p.from, next, p.records, tally); err != nil {
		return err
	}
	for _, e := range p.held {
		emit(e)
	}
	p.from, p.records, p.held = next, p.records[:0], p.held[:0]
	return nil
}

func (p *packSink) close() {
	p.w.Close()
	p.release()
}
