package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// readOnlyChild names, in the environment, the database the test process
// started by TestServeReadOnlyDatabase serves.
const readOnlyChild = "ANYNT_TEST_READONLY_DB"

// TestServeReadOnlyDatabase gives anynt serve a study's database it may
// read but not write (a file of another user, mode 0444, in a folder it
// may write, so that SQLite opens it): serve must refuse at start-up,
// exit 4 and say the database cannot be written, rather than listen and
// refuse every participant. The command runs in a child process, as the
// user nobody when the test runs as root (root writes any file), and
// with a time limit: a serve that does not refuse would listen forever.
func TestServeReadOnlyDatabase(t *testing.T) {
	if db := os.Getenv(readOnlyChild); db != "" {
		_, errw, code := anynt(t, "", "serve", "--db", db, "--addr", "127.0.0.1:0")
		os.Stderr.WriteString(errw)
		os.Exit(code)
	}
	db, _ := playedStudy(t, false)
	dir := filepath.Dir(db)
	for _, p := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(p, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	// The test binary, copied where the user nobody may run it (go test
	// builds it in a folder of root's only).
	bin, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	self := filepath.Join(dir, "anynt.test")
	if err := os.WriteFile(self, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "-test.run=^TestServeReadOnlyDatabase$")
	cmd.Env = append(os.Environ(), readOnlyChild+"="+db)
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var errw strings.Builder
	cmd.Stderr = &errw
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitIO || !strings.Contains(errw.String(), "cannot be written") {
		t.Fatalf("anynt serve on a read-only database: %v, stderr %q; want exit 4 saying it cannot be written", err, errw.String())
	}
}
