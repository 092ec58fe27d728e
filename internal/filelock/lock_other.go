//go:build !unix

package filelock

import (
	"errors"
	"fmt"
	"os"
)

// Lock creates the file at path exclusively; release removes it. When
// the file is there, the error wraps ErrHeld. Without flock(2) a killed
// process leaves the file behind: the error names it, and removing it by
// hand frees the lock.
func Lock(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, fmt.Errorf("%s: %w (if no process holds it, remove the file)", path, ErrHeld)
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return func() { os.Remove(path) }, nil
}
