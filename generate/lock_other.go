//go:build !unix

package generate

import (
	"errors"
	"os"
	"path/filepath"
)

// lockFolder creates the folder's lock file exclusively and removes it on
// release. Without flock(2) a killed run leaves the file behind: the error
// names it, and removing it by hand frees the folder.
func lockFolder(dir string) (release func(), err error) {
	path := filepath.Join(dir, lockName)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if errors.Is(err, os.ErrExist) {
		return nil, busy(dir)
	}
	if err != nil {
		return nil, err
	}
	f.Close()
	return func() { os.Remove(path) }, nil
}
