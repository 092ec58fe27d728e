//go:build unix

package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// Lock creates the file at path if needed and takes an exclusive flock(2)
// on it, without waiting: when another holder has it, the error wraps
// ErrHeld. release removes the file and drops the lock.
func Lock(path string) (release func(), err error) {
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: %w", path, ErrHeld)
			}
			return nil, err
		}
		// The holder before may have removed the file between this open
		// and this lock: the lock is then on a file no one else opens.
		held, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		named, err := os.Stat(path)
		if err == nil && os.SameFile(held, named) {
			return func() { os.Remove(path); f.Close() }, nil
		}
		f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	}
}
