package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/klauspost/compress/zstd"
)

// Reader reads a pack: its header and its entries are read when it is
// opened, a frame's records when they are asked for.
type Reader struct {
	Header  Header
	Entries []Entry
	// Torn is the error that says where the pack's end is torn, or nil:
	// the entries before it are whole, and a resumed writer goes on after
	// the last of them.
	Torn      error
	path      string
	f         *os.File
	end       int64 // the end of the last whole entry's frame
	headerEnd int64 // the end of the header frame
	dec       *zstd.Decoder
	// The records of the frame read last, by index: a reader asking for
	// records one after another decodes each frame once.
	cachedEntry int
	cached      map[int][]byte
}

// Open reads the pack at path: its header and its entries, up to a torn
// end if there is one (Torn). A file that is not a pack, or whose entries
// contradict each other before the end, is an error.
func Open(path string) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r := &Reader{path: path, f: f, cachedEntry: -1}
	if err := r.scan(); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// Close closes the pack's file.
func (r *Reader) Close() error {
	if r.dec != nil {
		r.dec.Close()
	}
	return r.f.Close()
}

func (r *Reader) scan() error {
	size, err := r.f.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	magic, payload, err := r.skippableAt(0, size)
	if err != nil || magic != headerMagic {
		return fmt.Errorf("%s: not an anynt pack (no header frame at its start)", r.path)
	}
	if err := json.Unmarshal(payload, &r.Header); err != nil {
		return fmt.Errorf("%s: its header is not JSON: %v", r.path, err)
	}
	if err := checkHeader(r.Header); err != nil {
		return fmt.Errorf("%s: %w", r.path, err)
	}
	off := int64(8 + len(payload))
	r.end, r.headerEnd = off, off
	next := r.Header.From
	for off < size {
		magic, payload, err := r.skippableAt(off, size)
		var e Entry
		switch {
		case err != nil:
			r.Torn = fmt.Errorf("%s: %w at byte %d: %v", r.path, ErrTorn, off, err)
		case magic != entryMagic:
			r.Torn = fmt.Errorf("%s: %w at byte %d: no entry frame there", r.path, ErrTorn, off)
		case json.Unmarshal(payload, &e) != nil:
			r.Torn = fmt.Errorf("%s: %w at byte %d: the entry is not JSON", r.path, ErrTorn, off)
		case e.From != next || e.Next < e.From || e.Length < 0:
			return fmt.Errorf("%s: the entry at byte %d covers [%d, %d); the one before ended at %d", r.path, off, e.From, e.Next, next)
		case off+8+int64(len(payload))+e.Length > size:
			r.Torn = fmt.Errorf("%s: %w at byte %d: its frame is cut short", r.path, ErrTorn, off)
		}
		if r.Torn != nil {
			return nil
		}
		e.offset = off + 8 + int64(len(payload))
		r.Entries = append(r.Entries, e)
		off = e.offset + e.Length
		r.end, next = off, e.Next
	}
	return nil
}

// skippableAt reads the skippable frame at off: its magic and payload.
func (r *Reader) skippableAt(off, size int64) (uint32, []byte, error) {
	if size-off < 8 {
		return 0, nil, errors.New("a frame header cut short")
	}
	var h [8]byte
	if _, err := r.f.ReadAt(h[:], off); err != nil {
		return 0, nil, err
	}
	magic, n := binary.LittleEndian.Uint32(h[:4]), int64(binary.LittleEndian.Uint32(h[4:]))
	if n > maxSkippable || size-off-8 < n {
		return 0, nil, errors.New("a frame cut short")
	}
	payload := make([]byte, n)
	if _, err := r.f.ReadAt(payload, off+8); err != nil {
		return 0, nil, err
	}
	return magic, payload, nil
}

// compressed reads entry i's frame and checks it against its SHA-256.
func (r *Reader) compressed(i int) ([]byte, error) {
	e := r.Entries[i]
	b := make([]byte, e.Length)
	if _, err := r.f.ReadAt(b, e.offset); err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != e.SHA256 {
		if i == len(r.Entries)-1 {
			return nil, fmt.Errorf("%s: %w: the last frame, at byte %d, does not match its entry", r.path, ErrTorn, e.offset)
		}
		return nil, fmt.Errorf("%s: the frame at byte %d does not match its entry: the file was changed", r.path, e.offset)
	}
	return b, nil
}

// Lines returns entry i's records, one JSON object each, in order.
func (r *Reader) Lines(i int) ([][]byte, error) {
	if r.Entries[i].Length == 0 {
		return nil, nil
	}
	b, err := r.compressed(i)
	if err != nil {
		return nil, err
	}
	if r.dec == nil {
		if r.dec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30)); err != nil {
			return nil, err
		}
	}
	raw, err := r.dec.DecodeAll(b, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: the frame at byte %d: %v", r.path, r.Entries[i].offset, err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	if len(lines) != r.Entries[i].Records {
		return nil, fmt.Errorf("%s: the frame at byte %d holds %d records; its entry says %d", r.path, r.Entries[i].offset, len(lines), r.Entries[i].Records)
	}
	return lines, nil
}

// Verify checks every frame against its entry's SHA-256.
func (r *Reader) Verify() error {
	for i := range r.Entries {
		if r.Entries[i].Length > 0 {
			if _, err := r.compressed(i); err != nil {
				return err
			}
		}
	}
	return nil
}

// Record returns the record whose "index" is index, with its newline.
func (r *Reader) Record(index int) ([]byte, error) {
	i := sort.Search(len(r.Entries), func(i int) bool { return r.Entries[i].Next > index })
	if i == len(r.Entries) || index < r.Entries[i].From {
		return nil, fmt.Errorf("%s: no record %d: the pack covers [%d, %d)%s", r.path, index, r.Header.From, r.covered(), r.tornNote())
	}
	if r.cachedEntry != i {
		lines, err := r.Lines(i)
		if err != nil {
			return nil, err
		}
		r.cached = make(map[int][]byte, len(lines))
		for _, line := range lines {
			var rec struct {
				Index *int `json:"index"`
			}
			if err := json.Unmarshal(line, &rec); err != nil || rec.Index == nil {
				return nil, fmt.Errorf("%s: a record of the frame at byte %d has no index", r.path, r.Entries[i].offset)
			}
			r.cached[*rec.Index] = line
		}
		r.cachedEntry = i
	}
	if line, ok := r.cached[index]; ok {
		return line, nil
	}
	return nil, fmt.Errorf("%s: no record %d: the candidate was not kept", r.path, index)
}

// covered is the position after the last whole entry.
func (r *Reader) covered() int {
	if len(r.Entries) == 0 {
		return r.Header.From
	}
	return r.Entries[len(r.Entries)-1].Next
}

func (r *Reader) tornNote() string {
	if r.Torn != nil {
		return " and its end is torn"
	}
	return ""
}

// IsPack reports whether the file at path begins as a pack does (its
// header frame's magic number), without reading further.
func IsPack(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false
	}
	return binary.LittleEndian.Uint32(b[:]) == headerMagic
}
