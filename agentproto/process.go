package agentproto

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrStart is the kind of fault of a command that could not be started.
var ErrStart = errors.New("the agent could not be started")

// DefaultTimeout is the default wait for each answer.
const DefaultTimeout = 10 * time.Second

// Options say how a Process is run.
type Options struct {
	// Timeout bounds the wait for each answer (and for each line anynt
	// writes to be taken); past it the agent is killed. 0 waits forever.
	Timeout time.Duration
	// TestTimeout bounds the whole test, from the first episode's start
	// (several agents may wait their turn); 0 for no bound.
	TestTimeout time.Duration
	// Stderr receives the agent's standard error as it comes (nil:
	// nowhere); its last lines are kept for the errors either way.
	Stderr io.Writer
	// Tool names anynt and its version in the hello message.
	Tool string
}

// Process is an agent program that anynt runs as a child: it writes to
// its standard input and reads its standard output, a line a message.
// It is not safe for concurrent use: a test gives it its exercises one
// after another.
type Process struct {
	Command string // as the user wrote it
	Name    string // the name the agent gave in its hello
	argv    []string
	opts    Options
	end     time.Time // of the test's time, zero for none or not yet begun

	cmd    *exec.Cmd
	in     *os.File // the child's standard input
	out    *os.File // its standard output
	r      *bufio.Reader
	long   []byte // a line longer than r's buffer, gathered
	buf    []byte // the line being written
	stderr *tail
	exited chan struct{} // closed when the child has been waited for
	at     location
	failed *Fault // the fault that ended this process
}

// location is where in the test the process is, for a Fault.
type location struct {
	exercise      string
	episode, step int
}

// Start splits the command (Split), starts it and shakes hands: it sends
// hello and expects the agent's hello with a compatible protocol version.
// A command that cannot be split is an error wrapping ErrCommand; one that
// cannot start, or fails the handshake, a *Fault.
func Start(command string, opts Options) (*Process, error) {
	argv, err := Split(command)
	if err != nil {
		return nil, err
	}
	p := &Process{Command: command, argv: argv, opts: opts}
	if f := p.launch(); f != nil {
		return nil, f
	}
	return p, nil
}

// Restart replaces a process, faulted or not, by a new one of the same
// command, with a new handshake; the test's time goes on.
func (p *Process) Restart() error {
	p.kill()
	p.failed, p.at = nil, location{}
	if f := p.launch(); f != nil {
		return f
	}
	return nil
}

// Close says bye, closes the agent's input and gives it a second to exit
// before it is killed. A faulted process is already gone.
func (p *Process) Close() {
	if p.failed != nil || p.cmd == nil {
		return
	}
	p.send(map[string]string{"type": "bye"})
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
	p.kill()
}

// launch starts the command and shakes hands.
func (p *Process) launch() *Fault {
	inR, inW, err := os.Pipe()
	if err != nil {
		return p.fault(ErrStart, err.Error(), "")
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return p.fault(ErrStart, err.Error(), "")
	}
	p.stderr = &tail{to: p.opts.Stderr}
	p.cmd = exec.Command(p.argv[0], p.argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, p.stderr
	p.cmd.WaitDelay = time.Second // a grandchild holding stderr cannot hang Wait
	err = p.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		p.cmd = nil
		return p.fault(ErrStart, err.Error(), "")
	}
	p.in, p.out = inW, outR
	p.r = bufio.NewReaderSize(outR, 64<<10)
	p.exited = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) {
		c.Wait()
		close(done)
	}(p.cmd, p.exited)
	return p.handshake()
}

func (p *Process) handshake() *Fault {
	if f := p.send(hello{Type: "hello", Protocol: Version, Tool: p.opts.Tool}); f != nil {
		return f
	}
	line, f := p.read()
	if f != nil {
		return f
	}
	r, pr := parseReply(line, "hello")
	if pr != nil {
		return p.fault(pr.kind, pr.detail, string(line))
	}
	if !compatible(r.Protocol) {
		return p.fault(ErrVersion, fmt.Sprintf("the agent speaks %q, anynt speaks %q", r.Protocol, Version), string(line))
	}
	p.Name = r.Name
	return nil
}

// send writes one message as a line of JSON.
func (p *Process) send(msg any) *Fault {
	line, err := json.Marshal(msg)
	if err != nil { // our own messages always marshal
		return p.fault(ErrMalformed, err.Error(), "")
	}
	return p.write(append(line, '\n'))
}

// write writes a whole line, within the deadline.
func (p *Process) write(line []byte) *Fault {
	if p.failed != nil {
		return p.failed
	}
	deadline, kind := p.deadline()
	p.in.SetWriteDeadline(deadline)
	if _, err := p.in.Write(line); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return p.fault(kind, p.late(kind)+" (it did not read its input)", "")
		}
		return p.crashed("")
	}
	return nil
}

// read reads one line, within the deadline, without its newline; the
// slice is valid until the next read.
func (p *Process) read() ([]byte, *Fault) {
	if p.failed != nil {
		return nil, p.failed
	}
	deadline, kind := p.deadline()
	p.out.SetReadDeadline(deadline)
	line, err := p.readLine()
	switch {
	case err == nil:
		return line, nil
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, p.fault(kind, p.late(kind), string(line))
	case errors.Is(err, errLong):
		return nil, p.fault(ErrMalformed, fmt.Sprintf("a line longer than %d bytes", MaxLine), string(line))
	}
	return nil, p.crashed(string(line)) // a last line without its newline
}

var errLong = errors.New("line too long")

func (p *Process) readLine() ([]byte, error) {
	line, err := p.r.ReadSlice('\n')
	if err == nil {
		return line[:len(line)-1], nil
	}
	if err != bufio.ErrBufferFull {
		return line, err
	}
	p.long = append(p.long[:0], line...)
	for {
		line, err = p.r.ReadSlice('\n')
		p.long = append(p.long, line...)
		switch {
		case len(p.long) > MaxLine+1:
			return p.long[:maxQuoted], errLong
		case err == nil:
			return p.long[:len(p.long)-1], nil
		case err != bufio.ErrBufferFull:
			return p.long, err
		}
	}
}

// deadline is when the next message must have gone through: the message's
// own time limit or the test's end, whichever comes first, and the kind of
// fault its passing is.
func (p *Process) deadline() (time.Time, error) {
	var d time.Time
	if p.opts.Timeout > 0 {
		d = time.Now().Add(p.opts.Timeout)
	}
	if !p.end.IsZero() && (d.IsZero() || p.end.Before(d)) {
		return p.end, ErrTestTimeout
	}
	return d, ErrTimeout
}

func (p *Process) late(kind error) string {
	if kind == ErrTestTimeout {
		return fmt.Sprintf("%v in all; the agent was killed", p.opts.TestTimeout)
	}
	if p.at.exercise == "" { // the usual cause: an answer left in a buffer
		return fmt.Sprintf("%v a message; the agent was killed (does it flush its standard output after each line?)", p.opts.Timeout)
	}
	return fmt.Sprintf("%v a message; the agent was killed", p.opts.Timeout)
}

// crashed is the fault of an agent whose output ended: it gets a second to
// exit, so that its exit status can be told.
func (p *Process) crashed(line string) *Fault {
	select {
	case <-p.exited:
		return p.fault(ErrCrash, p.cmd.ProcessState.String(), line)
	case <-time.After(time.Second):
		return p.fault(ErrCrash, "it closed its standard output and went on running; it was killed", line)
	}
}

// fault ends the process and records what went wrong, with the last lines
// of its standard error.
func (p *Process) fault(kind error, detail, line string) *Fault {
	p.kill()
	p.failed = &Fault{Command: p.Command, Exercise: p.at.exercise, Episode: p.at.episode, Step: p.at.step,
		Kind: kind, Detail: detail, Line: line}
	if p.stderr != nil {
		p.failed.Stderr = p.stderr.lines(stderrLines)
	}
	return p.failed
}

// kill kills the child and waits for it, its standard error read to the
// end.
func (p *Process) kill() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Kill()
	<-p.exited
	p.in.Close()
	p.out.Close()
	p.cmd = nil
}

// stderrLines is how many of the agent's last standard-error lines a
// fault quotes; tailBytes how much of its standard error is kept.
const (
	stderrLines = 5
	tailBytes   = 4096
)

// tail passes the agent's standard error on and keeps its end.
type tail struct {
	to  io.Writer
	mu  sync.Mutex
	end []byte
}

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.to != nil {
		t.to.Write(b) // a failing terminal must not stop the agent
	}
	t.end = append(t.end, b...)
	if len(t.end) > 2*tailBytes {
		t.end = append(t.end[:0], t.end[len(t.end)-tailBytes:]...)
	}
	return len(b), nil
}

// lines returns the last n lines that are not blank.
func (t *tail) lines(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range strings.Split(string(t.end), "\n") {
		if l = strings.TrimRight(l, "\r"); strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out[max(0, len(out)-n):]
}
