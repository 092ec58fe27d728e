//go:build unix && !linux

package agentproto

import (
	"os/exec"
	"syscall"
)

// sysProcAttr puts the agent in a process group of its own, so that its
// children can be ended with it (endGroup). Only Linux has a parent-death
// signal: here an agent outlives an anynt killed by SIGKILL.
func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// endGroup kills every process of a group; one already gone is no error.
func endGroup(group int) { syscall.Kill(-group, syscall.SIGKILL) }

// queued is 0: the pipes are not counted here (pipeQueue).
func queued(uintptr) int { return 0 }

// awaitExit waits for the child and reaps it: without waitid's WNOWAIT
// here, the child is reaped before its group is ended, so that its pid
// could in principle be reused, with its group's id, in between (see
// Process.run). Returning before the child has exited would end its group,
// and the agent, as soon as it started.
func awaitExit(c *exec.Cmd) (reaped bool) {
	c.Wait()
	return true
}
