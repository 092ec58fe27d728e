package agentproto

import (
	"os"
	"syscall"
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
