//go:build linux

package proctest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadPids waits for file to hold at least n process ids, separated by
// white space, as a test's agent writes them, and returns them.
func ReadPids(t testing.TB, file string, n int) []int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			pid, err := strconv.Atoi(f)
			if err != nil {
				t.Fatal(err)
			}
			pids = append(pids, pid)
		}
		if len(pids) >= n {
			return pids
		}
	}
	t.Fatalf("%s never held %d process ids", file, n)
	return nil
}

// WaitFile waits for file to exist: a mark an agent leaves when it has
// come as far as a test needs.
func WaitFile(t testing.TB, file string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(file); err == nil {
			return
		}
	}
	t.Fatalf("%s was never written", file)
}

// Alive reports whether a process runs (a zombie does not).
func Alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	_, state, _ := strings.Cut(string(b), ") ")
	return !strings.HasPrefix(state, "Z")
}

// CheckGone fails unless every process of pids has ended within a few
// seconds; one that has not is killed, so that the test leaves nothing
// behind.
func CheckGone(t testing.TB, what string, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if Alive(pid) {
			t.Errorf("%s: process %d still runs", what, pid)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
