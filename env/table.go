package env

// table is an open-addressing hash table from packed keys to runs, held
// in its slots: a lookup is a multiplication and mostly one probe and one
// cache line, a few times cheaper than a Go map on the path every run of a
// behaviour takes.
type table struct {
	slots []slot // a power of two, at most half full
	shift uint   // 64 − log2(len(slots))
	n     int
}

type slot struct {
	key  uint64
	run  memoRun
	full bool
}

func newTable() table { return table{slots: make([]slot, 64), shift: 64 - 6} }

// home is where a key's probe starts: Fibonacci hashing, whose high bits
// mix every digit of the key.
func (t *table) home(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> t.shift }

// get returns the run of key k, or nil.
func (t *table) get(k uint64) *memoRun {
	mask := uint64(len(t.slots) - 1)
	for h := t.home(k); ; h = (h + 1) & mask {
		s := &t.slots[h]
		if !s.full {
			return nil
		}
		if s.key == k {
			return &s.run
		}
	}
}

// clear empties the table, keeping its slots.
func (t *table) clear() {
	clear(t.slots)
	t.n = 0
}

// put adds a key that is not in the table.
func (t *table) put(k uint64, run memoRun) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots, t.shift = make([]slot, 2*len(old)), t.shift-1
		for _, s := range old {
			if s.full {
				t.insert(s)
			}
		}
	}
	t.insert(slot{k, run, true})
	t.n++
}

func (t *table) insert(s slot) {
	mask := uint64(len(t.slots) - 1)
	h := t.home(s.key)
	for t.slots[h].full {
		h = (h + 1) & mask
	}
	t.slots[h] = s
}
