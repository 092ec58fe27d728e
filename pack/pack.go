package pack

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Format names this layout in every header.
const Format = "anynt-pack/1"

// FrameSpan is the number of stream positions the enumeration puts in a
// frame: a frame ends at every multiple of it, whoever writes it.
const FrameSpan = 1024

// The magic numbers of the skippable frames: the header's and an entry's.
const (
	headerMagic = 0x184D2A50
	entryMagic  = 0x184D2A51
)

// maxSkippable bounds a header or entry read from a file, so that a
// corrupt length cannot ask for gigabytes.
const maxSkippable = 1 << 20

// Header says what a pack holds: the tool and version that wrote it, what
// kind of stream (e.g. "enumerate"), the settings that decide its records
// (compared whole when resuming and merging), and the part of the stream
// it is: positions [From, To) of Total, shard Shard of Shards, or, for a
// pack merged from consecutive shards, shards Shard to LastShard of Shards.
type Header struct {
	Format   string          `json:"format"`
	Version  string          `json:"version"`
	Kind     string          `json:"kind"`
	Settings json.RawMessage `json:"settings"`
	Total    int             `json:"total"`
	From     int             `json:"from"`
	To       int             `json:"to"`
	Shard    int             `json:"shard"`
	Shards   int             `json:"shards"`
	// LastShard is the last of the consecutive shards a merged pack holds,
	// from Shard; 0 when it holds shard Shard alone, as every pack an
	// enumeration writes does (so that their headers are unchanged).
	LastShard int `json:"last_shard,omitempty"`
}

// Last is the last shard the pack holds: LastShard, or Shard when it holds
// one.
func (h Header) Last() int {
	if h.LastShard == 0 {
		return h.Shard
	}
	return h.LastShard
}

// Part names the shards a pack holds, for messages: "shard 3/8" or
// "shards 3–5 of 8".
func (h Header) Part() string {
	if h.Last() == h.Shard {
		return fmt.Sprintf("shard %d/%d", h.Shard, h.Shards)
	}
	return fmt.Sprintf("shards %d–%d of %d", h.Shard, h.Last(), h.Shards)
}

// Entry is one frame's index entry.
type Entry struct {
	From    int    `json:"from"` // the first stream position it covers
	Next    int    `json:"next"` // the position after the last
	Records int    `json:"records"`
	First   int    `json:"first"` // the first record's index (-1: none)
	Last    int    `json:"last"`  // the last record's index (-1: none)
	Length  int64  `json:"length"`
	SHA256  string `json:"sha256"`
	// Tally is the writer's count of the whole stream up to Next, as the
	// writer keeps it (for the enumeration: generate.Tally).
	Tally json.RawMessage `json:"tally"`
	// offset is where its frame starts in the file (not written).
	offset int64
}

// ErrTorn is the cause of a pack's error when its end was cut short or
// does not match its index: the writer was interrupted there.
var ErrTorn = errors.New("the pack's end is torn")

// skippable is a skippable frame holding payload.
func skippable(magic uint32, payload []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(payload)))
	return append(b, payload...)
}

func checkHeader(h Header) error {
	if h.Format != Format {
		return fmt.Errorf("the format is %q; this anynt reads %q", h.Format, Format)
	}
	return nil
}
