package agentproto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrStart is the kind of fault of a command that could not be started.
var ErrStart = errors.New("the agent could not be started")

// DefaultTimeout is the default wait for each answer, DefaultStartTimeout
// for the agent's start-up and hello.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultStartTimeout = time.Minute
)

// Options say how a Process is run.
type Options struct {
	// Timeout bounds the wait for each answer (and for each line anynt
	// writes to be taken); past it the agent is killed. 0 waits forever.
	Timeout time.Duration
	// StartTimeout bounds the handshake instead: the agent's start-up (an
	// interpreter, a model loaded) and its hello, which may take far
	// longer than an answer. 0 waits forever.
	StartTimeout time.Duration
	// TestTimeout bounds the whole test, from the first episode's start
	// (several agents may wait their turn); 0 for no bound.
	TestTimeout time.Duration
	// Stderr receives the agent's standard error as it comes (nil:
	// nowhere); its last lines are kept for the errors either way.
	Stderr io.Writer
	// Tool names anynt and its version in the hello message.
	Tool string
	// Batch, above 1, offers the agent batches of up to Batch items at
	// once (docs/protocol.md, Batches): the hello offers the batch, and
	// the agent must accept with a batch of its own, 1 to Batch, or fail
	// the handshake. The process is then played through SlotEpisode and
	// Round. 0 or 1: one item at a time, the messages as they were, byte
	// for byte.
	Batch int
}

// MaxBatch bounds Options.Batch: a batch's observe of that many Λ_one
// observations is well within MaxLine.
const MaxBatch = 1024

// Process is an agent program that anynt runs as a child: it writes to
// its standard input and reads its standard output, a line a message.
// It is not safe for concurrent use (a test gives it its exercises one
// after another), but for Interrupt, which a signal's goroutine calls.
type Process struct {
	Command string // as the user wrote it
	Name    string // the name the agent gave in its hello
	argv    []string
	opts    Options
	end     time.Time // of the test's time, zero for none or not yet begun

	cmd      *exec.Cmd
	in       *os.File // the child's standard input
	out      *os.File // its standard output
	errPipe  *os.File // its standard error, read by a goroutine into stderr
	inQueue  *pipeQueue
	outQueue *pipeQueue
	r        *bufio.Reader
	long     []byte // a line longer than r's buffer, gathered
	buf      []byte // the line being written
	stderr   *tail
	exited   chan struct{} // closed when the child has been waited for and its group ended
	copied   chan struct{} // closed when its standard error has been read to the end
	at       location
	last     exchange // the last message that went through, for a line that answers none
	failed   *Fault   // the fault that ended this process
	batch    batch    // the slots' round, in batches

	mu     sync.Mutex // guards group and signal, which Interrupt touches
	group  int        // the process group of the running child, 0 when none runs
	signal os.Signal  // the signal that interrupted anynt, nil while none has
}

// location is where in the test the process is, for a Fault.
type location struct {
	exercise      string
	episode, step int
}

// exchange is the last message that went through: after it, no line of
// the agent's is expected until anynt writes an observe.
type exchange int

const (
	none     exchange = iota // before the handshake
	greeted                  // the agent's hello was read
	started                  // start was written
	answered                 // an act was read
	ended                    // end was written
)

// Start is New and then the Process's Start.
func Start(command string, opts Options) (*Process, error) {
	p, err := New(command, opts)
	if err != nil {
		return nil, err
	}
	if err := p.Start(); err != nil {
		return nil, err
	}
	return p, nil
}

// New splits the command (Split) into a Process that is not started yet:
// it can be guarded (Interrupt) before it starts, so that a signal during
// the handshake ends it at once. A command that cannot be split is an
// error wrapping ErrCommand.
func New(command string, opts Options) (*Process, error) {
	argv, err := Split(command)
	if err != nil {
		return nil, err
	}
	return &Process{Command: command, argv: argv, opts: opts}, nil
}

// Start starts the command and shakes hands: it sends hello and expects
// the agent's hello with a compatible protocol version. A command that
// cannot start, or fails the handshake, is a *Fault.
func (p *Process) Start() error {
	if f := p.launch(); f != nil {
		return f
	}
	return nil
}

// Restart replaces a process, faulted or not, by a new one of the same
// command, with a new handshake; the test's time goes on.
func (p *Process) Restart() error {
	p.kill()
	p.failed, p.at, p.last = nil, location{}, none
	if f := p.launch(); f != nil {
		return f
	}
	return nil
}

// Close says bye, closes the agent's input and gives it a second to exit
// before its process group is ended; when it exits, its group is ended at
// once. A faulted process is already gone. A line the agent wrote after
// the test's last end is not looked for: nothing is measured after it.
func (p *Process) Close() {
	if p.failed != nil || p.cmd == nil {
		return
	}
	if line, err := json.Marshal(map[string]string{"type": "bye"}); err == nil {
		p.put(append(p.batch.pending, append(line, '\n')...)) // the last ends, in batches
	}
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(time.Second):
	}
	p.kill()
}

// Interrupt ends the agent's process group at once, and refuses to start
// it again, because anynt received sig. It may be called from any
// goroutine (a signal's); the goroutine that drives the agent then finds
// its output closed and records a fault of kind ErrInterrupted where the
// test was.
func (p *Process) Interrupt(sig os.Signal) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.signal == nil {
		p.signal = sig
	}
	if p.group != 0 {
		endGroup(p.group)
	}
}

// interrupted is the signal that interrupted anynt, nil for none.
func (p *Process) interrupted() os.Signal {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.signal
}

// launch starts the command and shakes hands.
func (p *Process) launch() *Fault {
	if sig := p.interrupted(); sig != nil {
		return p.fault(ErrInterrupted, interruptDetail(sig, "not started"), "")
	}
	var ends [6]*os.File // in, out, err: read and write ends
	for i := 0; i < len(ends); i += 2 {
		r, w, err := os.Pipe()
		if err != nil {
			closeAll(ends[:i])
			return p.fault(ErrStart, err.Error(), "")
		}
		ends[i], ends[i+1] = r, w
	}
	inR, inW, outR, outW, errR, errW := ends[0], ends[1], ends[2], ends[3], ends[4], ends[5]
	p.stderr = &tail{to: p.opts.Stderr}
	p.cmd = exec.Command(p.argv[0], p.argv[1:]...)
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, errW // files: Wait waits for the child alone
	p.cmd.SysProcAttr = sysProcAttr()
	started, exited := make(chan error), make(chan struct{})
	go p.run(p.cmd, outR, inW, started, exited)
	err := <-started
	closeAll([]*os.File{inR, outW, errW})
	if err != nil {
		closeAll([]*os.File{inW, outR, errR})
		p.cmd = nil
		return p.fault(ErrStart, err.Error(), "")
	}
	p.in, p.out, p.errPipe, p.exited = inW, outR, errR, exited
	p.inQueue, p.outQueue = newPipeQueue(inW), newPipeQueue(outR)
	p.r = bufio.NewReaderSize(&output{f: outR, queue: p.outQueue, exited: exited}, 64<<10)
	p.copied = make(chan struct{})
	go func(from *os.File, to *tail, done chan struct{}) {
		io.Copy(to, from)
		close(done)
	}(errR, p.stderr, p.copied)
	return p.handshake()
}

// run starts the child and waits for it on one locked OS thread. Linux
// sends the child its parent-death signal (sysProcAttr) when the thread
// that forked it ends, not the process, and the Go runtime ends a thread
// when a goroutine locked to it returns: forking from the caller's
// goroutine, which may be locked and return, could kill the agent
// mid-test. This goroutine keeps its thread until the child has exited.
// When the child exits, its process group is ended: the children it left
// would otherwise outlive it, holding its output open. The group is ended
// before the child is reaped (awaitExit, on Linux): the group's id is the
// child's pid, which the kernel may give to a new process once the child
// is reaped, and a kill of the group after that could hit a stranger's
// processes. Elsewhere the child is reaped first; the window is the few
// instructions between Wait and the kill, and a pid is reused only after
// the kernel has cycled through the others. Once the child is reaped, a
// read of its output (out) or a write to its input (in) that waits is
// woken: a process it started out of its group may hold the pipes, and
// its exit is reported at once (output).
func (p *Process) run(c *exec.Cmd, out, in *os.File, started chan<- error, exited chan<- struct{}) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := c.Start()
	if err == nil {
		p.mu.Lock()
		p.group = c.Process.Pid // the leader of its own group (sysProcAttr)
		if p.signal != nil {    // interrupted while it started
			endGroup(p.group)
		}
		p.mu.Unlock()
	}
	started <- err
	if err != nil {
		return
	}
	reaped := awaitExit(c)
	p.mu.Lock()
	endGroup(p.group)
	p.group = 0 // no kill from now on: the group is gone, its id free once reaped
	p.mu.Unlock()
	if !reaped {
		c.Wait()
	}
	close(exited)
	out.SetReadDeadline(wake) // after the close, which the woken read looks for
	in.SetWriteDeadline(wake)
}

// wake is a deadline long past: it ends a wait in a pipe at once.
var wake = time.Unix(1, 0)

func closeAll(files []*os.File) {
	for _, f := range files {
		if f != nil {
			f.Close()
		}
	}
}

func (p *Process) handshake() *Fault {
	h := hello{Type: "hello", Protocol: Version, Tool: p.opts.Tool}
	if p.Batched() {
		h.Batch = p.opts.Batch
	}
	if f := p.send(h); f != nil {
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
	if !Compatible(r.Protocol) {
		return p.fault(ErrVersion, fmt.Sprintf("the agent speaks %q, anynt speaks %q", r.Protocol, Version), string(line))
	}
	if p.Batched() {
		size, pr := r.batchSize(p.opts.Batch)
		if pr != nil {
			return p.fault(pr.kind, pr.detail, string(line))
		}
		p.batch.reset(size)
	}
	p.Name = r.Name
	p.last = greeted
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

// write writes a whole line, within the deadline, after checking that the
// agent wrote nothing since the last message (quiet).
func (p *Process) write(line []byte) *Fault {
	if p.failed != nil {
		return p.failed
	}
	if f := p.quiet(); f != nil {
		return f
	}
	return p.put(line)
}

// put writes a whole line, within the deadline.
func (p *Process) put(line []byte) *Fault {
	deadline, kind := p.deadline()
	p.in.SetWriteDeadline(deadline)
	if p.hasExited() { // before the write, whose deadline run may have woken already
		return p.exitFault("")
	}
	if _, err := p.in.Write(line); err != nil {
		if p.hasExited() {
			return p.exitFault("")
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return p.fault(kind, p.late(kind)+" (it did not read its input)", "")
		}
		return p.crashed("")
	}
	return nil
}

// hasExited reports whether the child has exited and been reaped.
func (p *Process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// quiet faults a line the agent wrote when none was expected: since the
// last message that went through, its output must be empty, in anynt's
// buffer and in the pipe. It is looked for before each message anynt
// writes, so the fault is where the line was written, with the line
// quoted. A line still unwritten then is found by the next check, or by
// Episode.Act when it is read as an answer to an observe the agent had not
// read (docs/protocol.md, Lines when no answer is expected).
func (p *Process) quiet() *Fault {
	if p.last == none || p.r.Buffered() == 0 && p.outQueue.bytes() == 0 {
		return nil
	}
	if p.r.Buffered() == 0 {
		deadline, _ := p.deadline()
		p.out.SetReadDeadline(deadline)
		p.r.Peek(1) // the bytes in the pipe, there already: this does not wait
	}
	pending, _ := p.r.Peek(p.r.Buffered())
	line, _, _ := bytes.Cut(pending, []byte("\n"))
	return p.unexpected(line, p.at)
}

// unexpected is the fault of a line written when no answer was expected,
// at: an error message is the agent giving up, anything else is
// ErrUnexpected.
func (p *Process) unexpected(line []byte, at location) *Fault {
	var after string
	switch p.last {
	case greeted:
		after = "its hello"
	case started:
		after = "start"
	case answered:
		after = fmt.Sprintf("its act of step %d", at.step)
		if p.Batched() {
			after = "its act"
		}
	case ended:
		after = "end"
	}
	p.at = at
	if r, pr := parseReply(line, "error"); pr == nil {
		return p.fault(ErrGaveUp, strconv.Quote(r.Message), string(line))
	}
	return p.fault(ErrUnexpected, "written after "+after+", before the agent read anynt's next message", string(line))
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
		select {
		case <-p.exited: // it exited, and a process out of its group holds its output
			return nil, p.exitFault(string(line))
		default:
		}
		if sig := p.interrupted(); sig != nil {
			return nil, p.fault(ErrInterrupted, interruptDetail(sig, "ended"), string(line))
		}
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
	if limit := p.limit(); limit > 0 {
		d = time.Now().Add(limit)
	}
	if !p.end.IsZero() && (d.IsZero() || p.end.Before(d)) {
		return p.end, ErrTestTimeout
	}
	return d, ErrTimeout
}

// limit is the time the next message has: StartTimeout until the
// agent's hello is read, Timeout after.
func (p *Process) limit() time.Duration {
	if p.last == none {
		return p.opts.StartTimeout
	}
	return p.opts.Timeout
}

func (p *Process) late(kind error) string {
	switch {
	case kind == ErrTestTimeout:
		return fmt.Sprintf("%v in all; the agent was killed", p.opts.TestTimeout)
	case p.last == none: // the usual cause: an answer left in a buffer
		return fmt.Sprintf("%v to start and answer hello; the agent was killed (does it flush its standard output after each line?)", p.opts.StartTimeout)
	case p.at.exercise == "":
		return fmt.Sprintf("%v a message; the agent was killed (does it flush its standard output after each line?)", p.opts.Timeout)
	}
	return fmt.Sprintf("%v a message; the agent was killed", p.opts.Timeout)
}

// crashed is the fault of an agent whose output ended: it gets a second to
// exit, so that its exit status can be told.
func (p *Process) crashed(line string) *Fault {
	select {
	case <-p.exited:
		return p.exitFault(line)
	case <-time.After(time.Second):
		return p.fault(ErrCrash, "it closed its standard output and went on running; it was killed", line)
	}
}

// exitFault is the fault of an agent that has exited: interrupted by
// anynt's signal, or its exit status.
func (p *Process) exitFault(line string) *Fault {
	if sig := p.interrupted(); sig != nil {
		return p.fault(ErrInterrupted, interruptDetail(sig, "ended"), line)
	}
	return p.fault(ErrCrash, p.cmd.ProcessState.String(), line)
}

func interruptDetail(sig os.Signal, what string) string {
	return fmt.Sprintf("anynt received the signal %q; the agent was %s", sig, what)
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

// kill ends the child's process group and waits for the child, its
// standard error read to the end: at once, since the group's processes
// hold it, or after a second when a process out of the group does.
func (p *Process) kill() {
	if p.cmd == nil {
		return
	}
	p.mu.Lock()
	if p.group != 0 {
		endGroup(p.group)
	}
	p.mu.Unlock()
	<-p.exited
	p.in.Close()
	p.out.Close()
	select {
	case <-p.copied:
	case <-time.After(time.Second):
	}
	p.errPipe.Close()
	<-p.copied
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
