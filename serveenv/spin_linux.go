package serveenv

import (
	"syscall"
	"unsafe"
)

// queued counts the bytes waiting in the pipe (or socket) fd: ioctl
// FIONREAD, named TIOCINQ on Linux; -1 when fd cannot tell.
func queued(fd uintptr) int {
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return -1
	}
	return int(n)
}
