package deploy

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// holdClusterIn names the variable that makes this test binary, run by
// TestSlurmClusterEndsWithItsTest, start a cluster in the folder it names
// as the Slurm test does, say "held", and hold it until killed.
const holdClusterIn = "ANYNT_DEPLOY_HOLD_CLUSTER"

// holdCluster is this binary's work when holdClusterIn is set (TestMain):
// it starts the cluster, then blocks reading its standard input, which the
// killing test never closes.
func holdCluster(dir string) int {
	if _, err := startWatched(dir); err != nil {
		fmt.Println(err)
		return 1
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// daemonPIDs reads the PIDs scripts/slurm-local recorded in dir.
func daemonPIDs(t *testing.T, dir string) map[string]int {
	t.Helper()
	pids := map[string]int{}
	for _, d := range []string{"munged", "slurmctld", "slurmd"} {
		b, err := os.ReadFile(filepath.Join(dir, d+".pid"))
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s.pid: %v", d, err)
		}
		pids[d] = pid
	}
	return pids
}

// running says whether pid is a process that has not exited (an exited
// one may stay a zombie, which is gone for this purpose).
func running(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return rest != "" && rest[0] != 'Z' && rest[0] != 'X'
}

// TestSlurmClusterEndsWithItsTest kills, with SIGKILL, a test process that
// holds a cluster started as the Slurm test starts its own, once the
// daemons are up, and checks that its munged, slurmctld and slurmd all
// end: a test killed from outside (go test's timeout, a CI job cancelled)
// runs no cleanup, and the daemons, in sessions of their own, would
// otherwise live on under PID 1.
func TestSlurmClusterEndsWithItsTest(t *testing.T) {
	switch skip, err := needSlurm(os.Getenv(askSlurm), os.Getuid(), exec.LookPath); {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	dir := filepath.Join(t.TempDir(), "cluster")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), holdClusterIn+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the holding test said %q\n%s", line, clusterLogs(dir))
	}
	pids := daemonPIDs(t, dir)
	for d, pid := range pids {
		if !running(pid) {
			t.Fatalf("%s (%d) is not running while the cluster is held", d, pid)
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	// Until the daemons have ended and the watchdog's stop has removed the
	// cluster's socket folder, its last step, so that the test's folder
	// is removed after it.
	waitFor(t, "the daemons to end with the killed test", 2*time.Minute, func() bool {
		for _, pid := range pids {
			if running(pid) {
				return false
			}
		}
		_, err := os.Stat(filepath.Join(dir, "socket-folder"))
		return os.IsNotExist(err)
	})
}
