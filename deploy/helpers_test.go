package deploy

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// envFiles reads the environment files (*.anynt) of an enumeration folder:
// name → content.
func envFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.anynt"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = string(b)
	}
	return files
}

// journalNames lists the files of an enumeration folder's journal
// (.enumerate.sums, INDEX SHA256 FILE a line), in the order anynt wrote them.
func journalNames(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".enumerate.sums"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for line := range strings.Lines(string(b)) {
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("%s: journal line %q is not INDEX SHA256 FILE", dir, line)
		}
		names = append(names, f[2])
	}
	return names
}

// checkJoined runs join-enumeration on out's n shards and checks that it
// gives the unsharded run in ref: the same files, with the same contents,
// in the same order, and that the shards' folders hold no other file.
func checkJoined(t *testing.T, out string, n int, ref string) {
	t.Helper()
	joined := run(t, nil, "./slurm/join-enumeration", out, strconv.Itoa(n))
	want := journalNames(t, ref)
	wantFiles := envFiles(t, ref)
	var got []string
	for p := range strings.Lines(joined) {
		p = strings.TrimSuffix(p, "\n")
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(p)
		if string(b) != wantFiles[name] {
			t.Errorf("%s differs from the unsharded run's %s", p, name)
		}
		got = append(got, name)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("the joined shards list %d environments, the unsharded run %d; first difference at %d", len(got), len(want), firstDiff(got, want))
	}
	all := map[string]string{}
	for k := 1; k <= n; k++ {
		for name, content := range envFiles(t, filepath.Join(out, "shard-"+strconv.Itoa(k))) {
			if _, twice := all[name]; twice {
				t.Errorf("%s is in two shards", name)
			}
			all[name] = content
		}
	}
	if !maps.Equal(all, wantFiles) {
		t.Errorf("the shards' folders hold %d environment files, the unsharded run's %d", len(all), len(wantFiles))
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
