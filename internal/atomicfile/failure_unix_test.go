//go:build unix

package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// TestAFailedWriteLeavesTheFile fills the disk for real: a child process
// whose file size limit (RLIMIT_FSIZE) is below the new contents gets
// EFBIG midway through the write, as on a full file system. The old file
// is whole afterwards, and no temporary file is left.
func TestAFailedWriteLeavesTheFile(t *testing.T) {
	if path := os.Getenv("ATOMICFILE_TEST_PATH"); path != "" {
		limitFileSize(t, 1000)
		if err := Write(path, make([]byte, 5000)); err == nil {
			os.Exit(0)
		}
		os.Exit(7)
	}
	path := filepath.Join(t.TempDir(), "f.anynt")
	const old = "a -> b\n"
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestAFailedWriteLeavesTheFile$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_PATH="+path)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 7 {
		t.Fatalf("the child exited with %d (%v), want 7, Write failing: %s", code, err, out)
	}
	if got := readFile(t, path); got != old {
		t.Errorf("after a failed write the file holds %d bytes, want its old %q", len(got), old)
	}
	assertNoTemporaryFiles(t, filepath.Dir(path))
}

// limitFileSize limits the files this process writes to n bytes; a write
// beyond fails with EFBIG (Go ignores the SIGXFSZ that comes with it).
func limitFileSize(t *testing.T, n uint64) {
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
		t.Fatal(err)
	}
}
