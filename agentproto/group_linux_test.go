package agentproto

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// awaitExit returns once the child has exited but leaves it unreaped, a
// zombie holding its pid, and so its group's id, until Wait: the group
// that Process.run ends then cannot be another's.
func TestAwaitExitLeavesTheChildUnreaped(t *testing.T) {
	c := exec.Command("sh", "-c", "exit 3")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if reaped := awaitExit(c); reaped {
		t.Fatal("awaitExit reaped the child; on Linux it must leave it to Wait")
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(c.Process.Pid) + "/stat")
	if err != nil {
		t.Fatalf("the child is gone before Wait: %v", err)
	}
	// The state is the field after the command's name, in parentheses.
	if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); f[0] != "Z" {
		t.Errorf("the child's state is %s; want Z, exited and unreaped", f[0])
	}
	if err := c.Wait(); c.ProcessState == nil || c.ProcessState.ExitCode() != 3 {
		t.Errorf("Wait after awaitExit: %v; want exit status 3", err)
	}
}
