//go:build unix

package generate

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// lockFolder takes an exclusive flock(2) on the folder's lock file. The
// kernel releases it when the process ends, however it ends, so a killed
// run never leaves a stale lock; the file itself stays, empty.
func lockFolder(dir string) (release func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, busy(dir)
		}
		return nil, err
	}
	return func() { f.Close() }, nil
}
