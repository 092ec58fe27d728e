package web

import (
	"testing"
	"time"
)

// The start limit's bucket refills at its rate up to its burst: a start
// refused is told how long until the next one, and that start goes
// through once that time has passed; a long quiet spell gives back the
// burst, no more.
func TestTheStartBucketRefills(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	b := newBucket(StartLimit{PerSecond: 10, Burst: 2}, func() time.Time { return now })
	for i := range 2 {
		if wait := b.take(); wait != 0 {
			t.Fatalf("start %d within the burst waits %v", i+1, wait)
		}
	}
	wait := b.take()
	if wait != 100*time.Millisecond {
		t.Fatalf("a start past the burst at 10/s waits %v; want 100ms", wait)
	}
	now = now.Add(wait)
	if w := b.take(); w != 0 {
		t.Fatalf("a start after the wait it was told waits %v", w)
	}
	now = now.Add(time.Hour)
	for i := range 3 {
		if w := b.take(); (w == 0) != (i < 2) {
			t.Errorf("start %d after an hour's quiet: wait %v; the burst is 2", i+1, w)
		}
	}
}
