package agentproto

import (
	"errors"
	"fmt"
	"strings"

	"github.com/anynt/anynt/exam"
)

// The kinds of fault, the causes a Fault unwraps to (errors.Is).
var (
	ErrTimeout = errors.New("no answer in time")
	// ErrTestTimeout is exam's: the test gives the agent no further item.
	ErrTestTimeout = exam.ErrTestTimeout
	ErrCrash       = errors.New("the agent exited or closed its output")
	ErrMalformed   = errors.New("a malformed line")
	ErrIllegal     = errors.New("an illegal action")
	ErrGaveUp      = errors.New("the agent sent an error")
	ErrVersion     = errors.New("a protocol version mismatch")
	ErrUnexpected  = errors.New("a line when no answer is expected")
	// ErrInterrupted is not the agent's fault but anynt's end: it received
	// a signal (SIGINT, SIGTERM, SIGHUP) and ended the agent where the test
	// was, which is recorded as a fault so that the report shows it. It is
	// exam's, which then gives the agent no further item.
	ErrInterrupted = exam.ErrInterrupted
)

// Fault is what an agent did wrong, and where: the command, the exercise,
// the episode and the step, the line it wrote, and the last lines of its
// standard error.
type Fault struct {
	Command  string
	Exercise string // empty at the handshake
	Episode  int
	Step     int    // 0 at the episode's start message
	Kind     error  // one of the Err… above
	Detail   string // what exactly
	Line     string // the offending line, empty when there is none
	Stderr   []string
	// Slot and Batch, in batches (docs/protocol.md, Batches): the slot of
	// the item, and the items of the round the fault ended, each given
	// it; Batch is 0 outside batches.
	Slot, Batch int
}

// maxQuoted bounds a line quoted in an error.
const maxQuoted = 200

func (f *Fault) Error() string {
	s := f.Short()
	if len(f.Stderr) > 0 {
		s += "; its standard error ended with:\n\t" + strings.Join(f.Stderr, "\n\t")
	}
	return s
}

// Short is the error on one line, without the agent's standard error.
func (f *Fault) Short() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %q", f.Command)
	if f.Exercise == "" {
		b.WriteString(" at the handshake")
	} else {
		fmt.Fprintf(&b, " in %s, episode %d, step %d", f.Exercise, f.Episode, f.Step)
		switch {
		case f.Batch == 1:
			fmt.Fprintf(&b, " (slot %d, the only item of its round)", f.Slot)
		case f.Batch > 1:
			fmt.Fprintf(&b, " (slot %d; the fault ended the %d items of its round)", f.Slot, f.Batch)
		}
	}
	fmt.Fprintf(&b, ": %v", f.Kind)
	if f.Detail != "" {
		b.WriteString(": " + f.Detail)
	}
	if f.Line != "" {
		line := f.Line
		if len(line) > maxQuoted {
			line = line[:maxQuoted] + "…"
		}
		fmt.Fprintf(&b, "; the line: %q", line)
	}
	return b.String()
}

// Unwrap gives the kind of fault.
func (f *Fault) Unwrap() error { return f.Kind }
