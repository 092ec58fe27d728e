//go:build linux

package proctest

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// Terminal opens a pseudo-terminal: a program given tty as its standard
// error takes it for a terminal and draws its progress line there, which
// the test reads from pty. Seeing the line count up is the event that the
// program is under way, and how far: a test that signals it then does not
// guess with a pause. Both ends are closed when the test ends; the test
// closes its own copy of tty once the program has it, so that reading pty
// ends (an error) when the program exits.
func Terminal(t testing.TB) (pty, tty *os.File) {
	t.Helper()
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { pty.Close() })
	var n uint32
	var unlock int32
	if err := ioctl(pty, syscall.TIOCGPTN, unsafe.Pointer(&n)); err != nil {
		t.Fatalf("a pseudo-terminal's number: %v", err)
	}
	if err := ioctl(pty, syscall.TIOCSPTLCK, unsafe.Pointer(&unlock)); err != nil {
		t.Fatalf("unlocking a pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("a pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return pty, tty
}

func ioctl(f *os.File, request uintptr, arg unsafe.Pointer) error {
	c, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	if err := c.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, request, uintptr(arg))
	}); err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
