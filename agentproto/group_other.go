//go:build !unix

package agentproto

import (
	"os"
	"os/exec"
	"syscall"
)

// sysProcAttr is nil: without process groups, only the agent itself is
// ended, not the processes it starts.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// endGroup kills the agent.
func endGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}

// queued is 0: the pipes are not counted here (pipeQueue).
func queued(uintptr) int { return 0 }

// awaitExit waits for the child and reaps it: without process groups,
// endGroup after it only kills a process already gone (see Process.run).
func awaitExit(c *exec.Cmd) (reaped bool) {
	c.Wait()
	return true
}
