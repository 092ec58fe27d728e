package agentproto

import (
	"os/exec"
	"syscall"
	"unsafe"
)

// sysProcAttr puts the agent in a process group of its own, so that its
// children can be ended with it (endGroup), and has the kernel kill it
// if anynt dies without ending it (SIGKILL cannot be caught): the
// parent-death signal, sent when the thread that forked it ends
// (Process.run keeps that thread for the child's life).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// endGroup kills every process of a group; one already gone is no error.
func endGroup(group int) { syscall.Kill(-group, syscall.SIGKILL) }

// queued counts the bytes waiting in the pipe fd: ioctl FIONREAD, whose
// name on Linux is TIOCINQ. It works on either end of a pipe.
func queued(fd uintptr) int {
	var n int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return 0
	}
	return int(n)
}

// awaitExit blocks until the child has exited, without reaping it
// (waitid with WNOWAIT): while it is a zombie its pid, which is its
// group's id, cannot be given to another process, so that endGroup after
// it ends the agent's group and no other. It reports false: the caller
// reaps the child after ending its group.
func awaitExit(c *exec.Cmd) (reaped bool) {
	var info [128]byte // a siginfo_t, unread
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(c.Process.Pid), uintptr(unsafe.Pointer(&info[0])),
			syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if errno != syscall.EINTR {
			return false
		}
	}
}

// pPID is waitid's idtype P_PID: wait for the one process named.
const pPID = 1
