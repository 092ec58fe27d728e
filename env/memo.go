package env

import (
	"encoding/binary"
	"math"

	"github.com/anynt/anynt/vm"
)

// memoSize and memoBytes bound a memo, in runs and memories and in the
// bytes of its keys, runs and memories: past either, memories are no
// longer interned, and the runs are forgotten (forgetRuns) to make room
// for new ones. Without the second, long memories (max-len) would fill
// memory.
const (
	memoSize    = 1 << 16
	memoBytes   = 64 << 20
	memoRunSize = 32 // bytes of a memoRun, about
	noMemory    = math.MaxUint32
)

// memoRuns is the most runs a memo holds before it forgets them:
// memoSize, lowered by tests that make memos forget often.
var memoRuns = memoSize

// memo remembers the runs of one program, keyed by the id of the memory a
// run starts from and the state its observation is a function of; the
// objects that share the program (Good and Evil) share it. Memories are
// interned: each distinct memory is kept once, with an id.
type memo struct {
	// packs is set when a key fits in a uint64 (small): the memory id and
	// the positions as digits in base radix, the number of cells. Larger
	// spaces key by the bytes of their uvarints (large).
	packs    bool
	radix    uint64
	small    table
	large    map[string]*memoRun
	keyBuf   []byte
	runs     int
	ids      map[string]uint32 // memory -> id
	memories [][]byte          // id -> memory
	bytes    int               // held by keys, runs and memories
	runBytes int               // held by keys and runs
}

// forgetRuns empties a full memo of its runs, keeping its memories, so
// that it goes on remembering the runs met lately. In a large space a
// long episode meets far more states than a memo holds, but an agent
// moves a cell at a time, so the states it meets next are mostly near
// those it met last: a memo that stopped remembering when full would miss
// them all.
func (m *memo) forgetRuns() {
	if m.packs {
		m.small.clear()
	} else {
		clear(m.large)
	}
	m.bytes -= m.runBytes
	m.runs, m.runBytes = 0, 0
}

// memoRun is a remembered run: what it decided (decision's fields; a
// cell, an action and a level fit in 32 bits), the memory it left, and
// its step count (at most MaxBehaviourSteps) and halt, which Episode
// counts as if it had run. It is small, so that a table slot holds it
// with its key in one cache line.
type memoRun struct {
	result, level int32
	next          uint32
	steps         int32
	halt          vm.HaltReason
}

// newMemo makes a memo for e's behaviours; the empty memory is id 0.
func newMemo(e *Env) *memo {
	m := &memo{ids: map[string]uint32{"": 0}, memories: [][]byte{nil}}
	// A key's digits: the memory id (below memoSize), then π, Good and
	// Evil (the lower cell first), the objects, and the cell looked from.
	n, digits := uint64(e.Space.Cells()), 4+len(e.Objects)
	room := uint64(math.MaxUint64) / memoSize
	m.packs, m.radix = true, n
	for range digits {
		if room < n {
			m.packs = false
			break
		}
		room /= n
	}
	if m.packs {
		m.small = newTable()
	} else {
		m.large = map[string]*memoRun{}
	}
	return m
}

// key is the memo key of a run from cell from with memory mem when the
// positions are pos: packed, or in m.keyBuf. Good and Evil both show as ⊙
// to every observer but π, so the key holds their cells as a set.
func (m *memo) key(pos []int, mem uint32, from int) uint64 {
	good, evil := pos[Good], pos[Evil]
	if evil < good {
		good, evil = evil, good
	}
	if m.packs {
		k := uint64(mem)
		k = k*m.radix + uint64(pos[Pi])
		k = k*m.radix + uint64(good)
		k = k*m.radix + uint64(evil)
		for _, c := range pos[3:] {
			k = k*m.radix + uint64(c)
		}
		return k*m.radix + uint64(from)
	}
	b := binary.AppendUvarint(m.keyBuf[:0], uint64(mem))
	b = binary.AppendUvarint(b, uint64(pos[Pi]))
	b = binary.AppendUvarint(b, uint64(good))
	b = binary.AppendUvarint(b, uint64(evil))
	for _, c := range pos[3:] {
		b = binary.AppendUvarint(b, uint64(c))
	}
	m.keyBuf = binary.AppendUvarint(b, uint64(from))
	return 0
}

// intern returns the id of a memory, giving it one if the memo has room,
// or noMemory.
func (m *memo) intern(mem []byte) uint32 {
	if id, ok := m.ids[string(mem)]; ok {
		return id
	}
	if len(m.memories) >= memoSize || m.bytes+len(mem) > memoBytes {
		return noMemory
	}
	id := uint32(len(m.memories))
	s := string(mem)
	m.ids[s] = id
	m.memories = append(m.memories, []byte(s))
	m.bytes += 2 * len(mem)
	return id
}
