package heapgoal

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gogc reads the collector's percentage without changing it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// While the live heap is small the next goal is Floor; from half of Floor
// on it is the default, twice the live heap.
func TestPercent(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, 1500}, // read as the runtime's 4 MB
		{4 << 20, 1500},
		{8 << 20, 700},
		{16 << 20, 300},
		{31 << 20, 106},
		{32 << 20, 100},
		{1 << 30, 100},
	} {
		if got := Percent(c.live); got != c.want {
			t.Errorf("Percent(%d MiB) = %d, want %d", c.live>>20, got, c.want)
		}
	}
	for live := uint64(minLive); 2*live < Floor; live += 1 << 20 {
		goal := live + live*uint64(Percent(live))/100
		if goal > Floor || Floor-goal > live/100 {
			t.Errorf("live %d MiB: goal %d, want about %d", live>>20, goal, Floor)
		}
	}
}

// After every collection the percentage is set again from the live heap:
// a sentinel's cleanup does it and arms the next.
//
// The cleanup adjusts first and arms after, on the cleanup goroutine, so
// on a loaded machine the test can see the adjustment and start its next
// collection before the next sentinel exists; that sentinel then lives
// through the collection (an object allocated during one is kept by it).
// A round therefore collects again until it sees the adjustment: what must
// hold is that the chain of sentinels never breaks.
func TestEveryCollectionAdjusts(t *testing.T) {
	defer debug.SetGCPercent(100)
	arm()
	for round := range 3 {
		debug.SetGCPercent(7) // a value adjust never gives
		deadline := time.Now().Add(10 * time.Second)
		for gogc() == 7 {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: no adjustment within 10 s of collections", round)
			}
			runtime.GC()
			for wait := time.Now().Add(100 * time.Millisecond); gogc() == 7 && time.Now().Before(wait); {
				time.Sleep(time.Millisecond)
			}
		}
		if got, want := gogc(), Percent(liveHeap()); got != want {
			t.Errorf("round %d: percentage %d, want %d", round, got, want)
		}
	}
}

func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// A GOGC in the environment is the user's choice: Start leaves it.
func TestStartLeavesGOGC(t *testing.T) {
	if os.Getenv("HEAPGOAL_CHILD") == "1" {
		Start()
		runtime.GC()
		time.Sleep(50 * time.Millisecond) // time for a cleanup, were one armed
		if got := gogc(); got != 100 {
			t.Fatalf("percentage %d under GOGC=100", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStartLeavesGOGC$")
	cmd.Env = append(os.Environ(), "HEAPGOAL_CHILD=1", "GOGC=100")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// Without GOGC, Start raises the percentage at once.
func TestStartRaisesThePercentage(t *testing.T) {
	if os.Getenv("HEAPGOAL_CHILD") == "2" {
		Start()
		if got, want := gogc(), Percent(liveHeap()); got != want || got <= 100 {
			t.Fatalf("percentage %d, want %d (above 100: the test's heap is small)", got, want)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^TestStartRaisesThePercentage$")
	env := []string{"HEAPGOAL_CHILD=2"}
	for _, kv := range os.Environ() {
		if len(kv) < 5 || kv[:5] != "GOGC=" {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
