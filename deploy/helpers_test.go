package deploy

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// anyntBinary builds cmd/anynt once for the tests that run it, in a folder
// removed when the last of them ends (TestMain would build it for the
// manifest's test too, which needs none).
var anyntBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "anynt-deploy-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "anynt")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/anynt").CombinedOutput()
	if err != nil {
		return "", &buildError{out: string(out), err: err}
	}
	return bin, nil
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return "building anynt: " + e.err.Error() + "\n" + e.out }

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdClusterIn); dir != "" {
		os.Exit(holdCluster(dir))
	}
	code := m.Run()
	if bin, err := anyntBinary(); err == nil && bin != "" {
		os.RemoveAll(filepath.Dir(bin))
	}
	os.Exit(code)
}

// anynt returns the built binary, failing the test if it could not be built.
func anynt(t *testing.T) string {
	t.Helper()
	bin, err := anyntBinary()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// run runs name with args and env added to this process's environment,
// and returns its standard output; a failure fails the test with both
// outputs.
func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	out, errOut, err := runErr(env, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// runErr is run that returns the error instead.
func runErr(env []string, name string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// waitFor polls cond every 50 ms until it holds, failing the test after
// limit: limits are generous, for a loaded machine, and only bound a hang.
func waitFor(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// checkMerged checks that anynt merge joins the packs of an enumeration's
// shards into the unsharded run with flags: the same --json lines, byte for
// byte, and the same pack, bit for bit.
func checkMerged(t *testing.T, packs []string, flags ...string) {
	t.Helper()
	bin := anynt(t)
	dir := t.TempDir()
	want := run(t, nil, bin, append([]string{"enumerate", "--json"}, flags...)...)
	if got := run(t, nil, bin, append([]string{"merge", "--json"}, packs...)...); got != want {
		t.Errorf("anynt merge --json of the shards differs from the unsharded run's --json lines (%d and %d bytes)", len(got), len(want))
	}
	ref, all := filepath.Join(dir, "ref.pack"), filepath.Join(dir, "all.pack")
	run(t, nil, bin, append([]string{"enumerate", "--pack", ref}, flags...)...)
	run(t, nil, bin, append([]string{"merge", "--pack", all}, packs...)...)
	if !sameFile(t, ref, all) {
		t.Errorf("the shards merged are not the unsharded run's pack, bit for bit")
	}
}

// sameFile says whether two files hold the same bytes.
func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	x, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x, y)
}

// shardFiles are OUT/shard-1SUFFIX … OUT/shard-NSUFFIX.
func shardFiles(out string, n int, suffix string) []string {
	files := make([]string, n)
	for k := range n {
		files[k] = filepath.Join(out, "shard-"+strconv.Itoa(k+1)+suffix)
	}
	return files
}
