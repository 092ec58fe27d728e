// Package pack is anynt's packed output: one file a shard that holds the
// shard's records (one JSON object a line, each with an "index") in
// compressed frames, with an index of the frames in the same file, so
// that one record is read back without reading the others, an interrupted
// writer resumes with nothing lost or repeated, and a torn end is found
// and cut, never read as data. docs/pack.md is the format's reference.
//
// The file is a sequence of Zstandard frames (RFC 8878), so that any
// zstd tool reads it: `zstd -dc shard.pack` prints every record, since
// decoders skip the skippable frames that carry the index.
//
//	skippable frame 0x184D2A50: the header, JSON (Header)
//	then for each frame of records:
//	  skippable frame 0x184D2A51: the frame's entry, JSON (Entry)
//	  a Zstandard frame of Entry.Length bytes: its records (absent when
//	  the entry has none)
//
// Each entry covers a run of the stream's positions, [From, Next): the
// records of the candidates of those positions that were kept, and the
// tally of the whole stream so far, so that a resumed writer starts at the
// last entry's Next with its tally. An entry is written with its frame in
// one write and synced before the writer goes on; a crash can leave only
// the last entry torn (short, or its frame short or not matching the
// entry's SHA-256), which Open and Resume detect: Resume cuts the file
// back to the end of the last whole entry, and a Reader stops there with
// Torn set.
//
// Frames are cut at positions the caller chooses (the enumeration cuts at
// every multiple of FrameSpan), and the frame encoder is single-threaded,
// so the same records cut at the same positions give the same bytes: two
// shards joined by a merge give the unsharded run's file, bit for bit.
// The library is klauspost/compress's zstd, the well-kept pure-Go
// Zstandard, chosen over brotli because concatenated Zstandard frames are
// one valid stream for every zstd tool, and its skippable frames let the
// index travel in the file.
package pack
