package heapgoal

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Floor is the heap goal kept while the live heap is small.
const Floor = 64 << 20

// minLive is the least live heap the percentage is computed from: the
// runtime's own first goal is 4 MB at GOGC=100, and before the first
// collection the live heap reads 0.
const minLive = 4 << 20

var once sync.Once

// Start raises the heap goal to Floor, and keeps it there after each
// collection until the live heap needs more. It does nothing when GOGC is
// set in the environment, and only once in a process.
func Start() {
	once.Do(func() {
		if _, set := os.LookupEnv("GOGC"); set {
			return
		}
		adjust()
		arm()
	})
}

// sentinel is an object that dies at every collection: its cleanup runs
// after each one. It holds a pointer and is larger than 16 bytes, so it is
// not cut from a tiny block shared with objects that may live on.
type sentinel struct {
	_ *sentinel
	_ [6]uint64
}

// arm makes a sentinel whose cleanup adjusts the percentage and arms the
// next one. Only one sentinel lives at a time, so adjust never runs twice
// at once.
func arm() {
	runtime.AddCleanup(new(sentinel), func(struct{}) {
		adjust()
		arm()
	}, struct{}{})
}

var live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}

// adjust sets the percentage from the live heap of the last collection.
func adjust() {
	metrics.Read(live)
	debug.SetGCPercent(Percent(live[0].Value.Uint64()))
}

// Percent is the GOGC that puts the next goal at Floor when live bytes
// survived the last collection, or the default 100 once that would put the
// goal at or below twice the live heap.
func Percent(live uint64) int {
	live = max(live, minLive)
	if 2*live >= Floor {
		return 100
	}
	return int(100 * (Floor - live) / live)
}
