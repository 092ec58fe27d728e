//go:build linux

package filelock_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/internal/filelock"
)

// Hold takes the file, not its name: a second Hold through a hard link
// is refused while the first holds it, and succeeds once it is released.
func TestHoldIsTheFilesNotTheNames(t *testing.T) {
	dir := t.TempDir()
	path, link := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	release, err := filelock.Hold(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, link); err != nil {
		t.Fatal(err)
	}
	if _, err := filelock.Hold(link); !errors.Is(err, filelock.ErrHeld) {
		t.Fatalf("a second Hold through a hard link: %v; want ErrHeld", err)
	}
	release()
	again, err := filelock.Hold(link)
	if err != nil {
		t.Fatalf("Hold after the release: %v", err)
	}
	again()
}
