//go:build unix

package filelock_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/internal/filelock"
)

// A lock file that a killed process left behind blocks no one: the
// kernel dropped its flock with the process.
func TestALeftLockFileIsFree(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	release, err := filelock.Lock(path)
	if err != nil {
		t.Fatalf("Lock of a file left behind: %v", err)
	}
	release()
}
