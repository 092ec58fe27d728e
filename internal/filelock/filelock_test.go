package filelock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/internal/filelock"
)

// A lock is one holder's: a second Lock of the path is refused with
// ErrHeld, naming the path, until the first is released; the release
// removes the file, and the path can be locked again.
func TestOneHolderAtATime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	release, err := filelock.Lock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := filelock.Lock(path); !errors.Is(err, filelock.ErrHeld) {
		t.Fatalf("a second Lock: %v; want ErrHeld", err)
	} else if got := err.Error(); len(got) < len(path) || got[:len(path)] != path {
		t.Errorf("the error %q does not name %s", got, path)
	}
	release()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the released lock's file is still there (%v)", err)
	}
	again, err := filelock.Lock(path)
	if err != nil {
		t.Fatalf("Lock after the release: %v", err)
	}
	again()
}
