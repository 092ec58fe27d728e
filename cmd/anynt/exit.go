package main

import (
	"errors"
	"fmt"
	"io"
	"syscall"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
)

// Exit statuses that scripts can rely on (docs/output.md, "Exit statuses").
const (
	exitOK    = 0
	exitFile  = 1 // the input file has errors
	exitUsage = 2 // the command line is wrong
	exitLimit = 3 // a run stopped at a limit (steps, length, work, tries)
	exitIO    = 4 // a file could not be read or written
	exitAgent = 5 // an agent outside anynt failed (--agent-cmd), or optimal could not plan
)

// The kinds of failure a command reports where no package below has a
// type of its own for it. A command wraps its error in the kind that
// says what went wrong; exitCode alone turns a kind into a status. Each
// prints as the error it wraps and unwraps to it, so that errors.Is and
// errors.As still find the cause.
type (
	// usageError is a command line that asks for something anynt does
	// not do: a flag out of its range, a flag that means nothing there.
	usageError struct{ err error }
	// inputError is an input file, or what it describes, that is wrong:
	// most often positioned errors, but also a space that breaks a rule,
	// the filters rejecting a file, a study with nothing to report.
	inputError struct{ err error }
	// limitError is a run stopped at one of its limits.
	limitError struct{ err error }
	// ioError is a file, a stream, a database or a port that could not
	// be used.
	ioError struct{ err error }
	// agentError is an agent that failed: one outside anynt, or optimal
	// that could not plan.
	agentError struct{ err error }
	// signalError is a test, or a run with an agent outside anynt, that a
	// signal stopped; err is what the command would have returned.
	signalError struct {
		sig syscall.Signal
		err error
	}
)

func (e *usageError) Error() string  { return e.err.Error() }
func (e *inputError) Error() string  { return e.err.Error() }
func (e *limitError) Error() string  { return e.err.Error() }
func (e *ioError) Error() string     { return e.err.Error() }
func (e *agentError) Error() string  { return e.err.Error() }
func (e *signalError) Error() string { return e.err.Error() }

func (e *usageError) Unwrap() error  { return e.err }
func (e *inputError) Unwrap() error  { return e.err }
func (e *limitError) Unwrap() error  { return e.err }
func (e *ioError) Unwrap() error     { return e.err }
func (e *agentError) Unwrap() error  { return e.err }
func (e *signalError) Unwrap() error { return e.err }

func usage(err error) error        { return &usageError{err} }
func fileErrors(err error) error   { return &inputError{err} }
func limitReached(err error) error { return &limitError{err} }
func ioFailure(err error) error    { return &ioError{err} }
func agentFault(err error) error   { return &agentError{err} }

// errSilent ends a command with status 1 and no message: its output has
// said why (fmt --check lists the files that are not formatted).
var errSilent = errors.New("anynt: the output says why the command failed")

// exitCode is the exit status of a command's error; nil is success.
func exitCode(err error) int {
	status, _ := classify(err)
	return status
}

// classify maps a command's error to its exit status, and reports whether
// the error was a command's own (known) rather than cobra's. A signal
// decides over everything: the command stopped because of it. Then the
// kinds a command wrapped its error in, which are its own decision about
// a cause that may look like another kind (a generator's settings refused
// as a usage error); then the errors of the packages below that say their
// own status. An error of none of these comes from cobra's parsing of the
// command line: a usage error.
func classify(err error) (status int, known bool) {
	var sig *signalError
	switch {
	case err == nil:
		return exitOK, true
	case errors.As(err, &sig):
		return 128 + int(sig.sig), true
	case errors.Is(err, errSilent):
		return exitFile, true
	case as[*usageError](err):
		return exitUsage, true
	case as[*ioError](err):
		return exitIO, true
	case as[*limitError](err):
		return exitLimit, true
	case as[*agentError](err):
		return exitAgent, true
	case as[*inputError](err):
		return exitFile, true
	case as[*kindError](err):
		return exitUsage, true
	case errors.Is(err, generate.ErrNoSeed), errors.Is(err, generate.ErrTooManySpaces):
		return exitLimit, true
	case as[*exam.AgentError](err), errors.Is(err, agentproto.ErrVersion):
		return exitAgent, true
	case as[lang.ErrorList](err), as[*lang.Error](err):
		return exitFile, true
	}
	return exitUsage, false
}

// as reports whether err's chain holds an error of type T.
func as[T error](err error) bool {
	var target T
	return errors.As(err, &target)
}

// exitStatus prints a command's error and returns its exit status. A
// failure to write standard output is exitIO whatever the command said:
// its output, or part of it, is lost (a string printed before a limit, a
// report before an agent's fault), and a script must not take the run for
// done. The failure is named once: by the command, when it returned it as
// an I/O error of its own (serve-env's "writing answers"), else last,
// after the command's own error.
func exitStatus(errw io.Writer, err, outErr error) int {
	if outErr == nil || exitCode(err) == exitIO && errors.Is(err, outErr) {
		return commandStatus(errw, err)
	}
	if err != nil && !errors.Is(err, outErr) {
		commandStatus(errw, err)
	}
	fmt.Fprintf(errw, "anynt: writing the standard output: %v\n", outErr)
	return exitIO
}

// commandStatus prints a command's error and returns its exit status:
// cobra's errors with a pointer to the help, a command's own as
// printError prints them, errSilent not at all.
func commandStatus(errw io.Writer, err error) int {
	status, known := classify(err)
	switch {
	case err == nil, errors.Is(err, errSilent):
	case !known:
		fmt.Fprintf(errw, "anynt: %v\n", err)
		fmt.Fprintln(errw, "Run 'anynt --help' for usage.")
	default:
		printError(errw, err)
	}
	return status
}
