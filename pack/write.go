package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/klauspost/compress/zstd"
)

// Record is one record for a frame: its index and its JSON object, one
// line without the newline.
type Record struct {
	Index int
	JSON  []byte
}

// Writer appends frames to a pack.
type Writer struct {
	f    *os.File
	path string
	enc  *zstd.Encoder
	next int
}

// Resume opens the pack at path for the stream h describes, creating it
// when there is none. An existing pack must have h's header exactly (the
// same format, version, kind, settings and part of the stream), else it is
// refused; its frames are checked against their entries, and a torn end is
// cut off (torn says so). last is the last whole entry, nil when there is
// none: the writer goes on at its Next, with its Tally.
func Resume(path string, h Header) (w *Writer, last *Entry, torn error, err error) {
	h.Format = Format
	want, err := json.Marshal(h)
	if err != nil {
		return nil, nil, nil, err
	}
	end := int64(0)
	switch r, err := Open(path); {
	case errors.Is(err, os.ErrNotExist) || err != nil && headerTorn(path):
		// A new pack, or one whose creation was interrupted: its header
		// is written whole or not at all (a temporary file renamed), so
		// that a kill at any moment leaves a pack a run can resume.
		header := skippable(headerMagic, want)
		if err := atomicfile.Write(path, header); err != nil {
			return nil, nil, nil, err
		}
		end = int64(len(header))
	case err != nil:
		return nil, nil, nil, err
	default:
		defer r.Close()
		got, _ := json.Marshal(r.Header)
		if !bytes.Equal(got, want) {
			return nil, nil, nil, fmt.Errorf("%s holds another run (its header is %s; this run's is %s); use another file", path, got, want)
		}
		if err := r.Verify(); errors.Is(err, ErrTorn) {
			r.Entries = r.Entries[:len(r.Entries)-1]
			r.end = r.headerEnd
			if n := len(r.Entries); n > 0 {
				r.end = r.Entries[n-1].offset + r.Entries[n-1].Length
			}
			torn = err
		} else if err != nil {
			return nil, nil, nil, err
		}
		if r.Torn != nil {
			torn = r.Torn
		}
		end = r.end
		if n := len(r.Entries); n > 0 {
			e := r.Entries[n-1]
			last = &e
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, nil, err
	}
	w = &Writer{f: f, path: path, next: h.From}
	if last != nil {
		w.next = last.Next
	}
	if err := w.start(end); err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	if w.enc, err = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault)); err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	return w, last, torn, nil
}

// start cuts the file to end (the torn part, if any, goes) and positions
// the writer there.
func (w *Writer) start(end int64) error {
	if err := w.f.Truncate(end); err != nil {
		return err
	}
	if _, err := w.f.Seek(end, 0); err != nil {
		return err
	}
	return w.f.Sync()
}

// Write appends the frame of positions [from, next): its records, in
// order, and the tally up to next; from must be where the last frame
// ended. The entry and its frame go in one write, then the file is synced:
// when Write returns, the frame is on the disk.
func (w *Writer) Write(from, next int, records []Record, tally json.RawMessage) error {
	if from != w.next || next < from {
		return fmt.Errorf("pack: a frame of [%d, %d) after one that ended at %d", from, next, w.next)
	}
	e := Entry{From: from, Next: next, Records: len(records), First: -1, Last: -1, Tally: tally}
	var frame []byte
	if len(records) > 0 {
		var raw []byte
		for _, r := range records {
			raw = append(append(raw, r.JSON...), '\n')
		}
		frame = w.enc.EncodeAll(raw, nil)
		sum := sha256.Sum256(frame)
		e.First, e.Last, e.Length, e.SHA256 = records[0].Index, records[len(records)-1].Index, int64(len(frame)), hex.EncodeToString(sum[:])
	}
	entry, err := json.Marshal(e)
	if err != nil {
		return err
	}
	if _, err := w.f.Write(append(skippable(entryMagic, entry), frame...)); err != nil {
		return err
	}
	if err := w.f.Sync(); err != nil {
		return err
	}
	w.next = next
	return nil
}

// Close closes the pack's file.
func (w *Writer) Close() error {
	w.enc.Close()
	return w.f.Close()
}

// headerTorn reports whether the file at path is empty, or holds the
// start of a pack's header frame cut short: what a writer killed while
// creating a pack without this package's atomic creation would leave, and
// nothing a run could lose by starting it again.
func headerTorn(path string) bool {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > maxSkippable+8 {
		return false
	}
	var magic [4]byte
	binary.LittleEndian.PutUint32(magic[:], headerMagic)
	switch {
	case len(b) < 4:
		return bytes.HasPrefix(magic[:], b)
	case !bytes.Equal(b[:4], magic[:]):
		return false
	case len(b) < 8:
		return true
	}
	return int64(len(b)) < 8+int64(binary.LittleEndian.Uint32(b[4:8]))
}
