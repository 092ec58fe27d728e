package agentproto

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// pipeQueue counts the bytes waiting in a pipe, unread, without reading
// them: the agent's lines that anynt has not read, or anynt's that the
// agent has not. Counting is one system call (queued); where the system
// cannot count, the count is 0, and only lines already in anynt's buffer
// are seen.
type pipeQueue struct {
	conn  syscall.RawConn
	n     int
	count func(fd uintptr) // made once: a closure made per call would allocate
}

func newPipeQueue(f *os.File) *pipeQueue {
	q := &pipeQueue{}
	q.conn, _ = f.SyscallConn()
	q.count = func(fd uintptr) { q.n = queued(fd) }
	return q
}

// bytes is the number of bytes in the pipe.
func (q *pipeQueue) bytes() int {
	q.n = 0
	if q.conn != nil {
		q.conn.Control(q.count)
	}
	return q.n
}

// output is the agent's standard output as anynt reads it: the pipe while
// the agent runs; once it has exited, the bytes it wrote before (those in
// the pipe), then the end. A process the agent started in a session or
// group of its own (setsid) may hold the pipe open after the agent exited,
// and what it writes is not the agent's: the exit is reported at once, not
// when that process closes the pipe or the deadline passes. Process.run
// wakes a read that waits when the agent exits (docs/protocol.md, Process
// groups). Where the pipe cannot be counted (pipeQueue), the output ends
// at the exit.
type output struct {
	f      *os.File
	queue  *pipeQueue
	exited <-chan struct{}
}

func (o *output) Read(b []byte) (int, error) {
	for {
		select {
		case <-o.exited:
			n := o.queue.bytes()
			if n == 0 {
				return 0, io.EOF
			}
			o.f.SetReadDeadline(time.Time{}) // the bytes are there: the read does not wait
			b = b[:min(len(b), n)]
		default:
		}
		n, err := o.f.Read(b)
		select {
		case <-o.exited:
			if errors.Is(err, os.ErrDeadlineExceeded) {
				continue // run's wake: read what the agent left
			}
		default:
		}
		return n, err
	}
}
