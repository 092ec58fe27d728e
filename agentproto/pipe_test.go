package agentproto

import (
	"os"
	"runtime"
	"testing"
)

// pipe gives a pipe with data bytes waiting in it.
func pipe(t testing.TB, data int) (r, w *os.File) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	if _, err := w.Write(make([]byte, data)); err != nil {
		t.Fatal(err)
	}
	return r, w
}

// A pipeQueue counts the bytes waiting in a pipe from either end (where
// the system can count, Linux), without taking them, and allocates
// nothing: it runs twice an interaction.
func TestPipeQueueCounts(t *testing.T) {
	r, w := pipe(t, 42)
	want := 42
	if runtime.GOOS != "linux" {
		want = 0
	}
	for _, f := range []*os.File{r, w} {
		q := newPipeQueue(f)
		if n := q.bytes(); n != want {
			t.Errorf("%d bytes counted; want %d", n, want)
		}
		if allocs := testing.AllocsPerRun(100, func() { q.bytes() }); allocs != 0 {
			t.Errorf("%v allocations a count; want 0", allocs)
		}
	}
	if n, _ := r.Read(make([]byte, 100)); n != 42 {
		t.Errorf("the count took bytes: %d left", n)
	}
}

// BenchmarkPipeQueue is the cost a check adds to an interaction.
func BenchmarkPipeQueue(b *testing.B) {
	r, _ := pipe(b, 10)
	q := newPipeQueue(r)
	b.ReportAllocs()
	for b.Loop() {
		q.bytes()
	}
}
