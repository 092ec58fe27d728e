//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// TestFmtWriteOnAFullDiskLeavesTheFile runs fmt -w in a child process
// whose file size limit (RLIMIT_FSIZE) is a quarter of the formatted file,
// so that the write fails midway with EFBIG, as on a full file system. The
// source file is whole afterwards, with its mode, and the exit status is
// exitIO with a message that names the file.
func TestFmtWriteOnAFullDiskLeavesTheFile(t *testing.T) {
	if name := os.Getenv("ANYNT_TEST_FMT_FILE"); name != "" {
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: 1000, Max: 1000}); err != nil {
			t.Fatal(err)
		}
		os.Exit(run([]string{"fmt", "-w", name}, os.Stdin, os.Stdout, os.Stderr))
	}
	var src strings.Builder
	for i := range 300 {
		fmt.Fprintf(&src, "a%d  ->  b%d   # rule %d\n", i, i, i)
	}
	file := writeFile(t, "messy.anynt", src.String())
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFmtWriteOnAFullDiskLeavesTheFile$")
	cmd.Env = append(os.Environ(), "ANYNT_TEST_FMT_FILE="+file)
	out, _ := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitIO || !strings.Contains(string(out), "writing "+file) {
		t.Errorf("fmt -w past the disk's room: status %d, output %q; want %d naming the file", code, out, exitIO)
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != src.String() {
		t.Errorf("after the failed write the file has %d bytes, want its %d bytes as they were", len(got), src.Len())
	}
	if info, err := os.Stat(file); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the file's mode is %v (%v), want 0600", info.Mode().Perm(), err)
	}
}

// TestFmtWriteKeepsTheMode: fmt -w replaces the file but not its
// permissions.
func TestFmtWriteKeepsTheMode(t *testing.T) {
	file := writeFile(t, "messy.anynt", "a  ->  b\n")
	if err := os.Chmod(file, 0o640); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := anynt(t, "", "fmt", "-w", file); code != exitOK {
		t.Fatalf("status %d: %s", code, stderr)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v) after fmt -w, want 0640", info.Mode().Perm(), err)
	}
}
