//go:build unix

package agentproto

import (
	"os/exec"
	"syscall"
	"testing"
)

// awaitExit returns only once the child has exited, on every platform:
// Process.run ends the agent's group when it returns, so returning early
// would kill every agent as soon as it started. Either it reaped the
// child (its exit status is known) or it left it for Wait.
func TestAwaitExitReturnsOnceTheChildHasExited(t *testing.T) {
	c := exec.Command("sh", "-c", "read line; exit 3")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdin, err := c.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write([]byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if awaitExit(c) {
		if c.ProcessState == nil || c.ProcessState.ExitCode() != 3 {
			t.Fatalf("awaitExit reported the child reaped, with state %v; want exit status 3", c.ProcessState)
		}
		return
	}
	if c.Wait(); c.ProcessState.ExitCode() != 3 {
		t.Errorf("Wait after awaitExit: exit status %d; want 3", c.ProcessState.ExitCode())
	}
}
