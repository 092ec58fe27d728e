//go:build !unix

package agentproto

import (
	"os"
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

// awaitExit returns at once: without process groups there is no group to
// end after the child (see Process.run).
func awaitExit(int) {}
