//go:build linux

package filelock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Hold takes the file at path itself, created empty when missing, for
// this holder alone: an open file description lock (F_OFD_SETLK) on its
// first byte. The lock belongs to the file, its device and inode, not to
// a name: a second Hold through any path to the file (a hard link, a
// symbolic link, a bind mount) is refused with ErrHeld, and no file
// beside it can be removed to open the door. The kernel drops the lock
// when its holder's process ends, however it ends.
//
// The byte is one SQLite never locks (its locks lie from byte 2^30 on),
// so that SQLite's own readers and writers, in this process or others,
// are not hindered. The lock is of the open file description, not of the
// process, so that SQLite closing its own descriptors of the file does
// not drop it; release closes the holder's descriptor, which drops the
// process's POSIX locks on the file (SQLite's too), so it must come after
// the process's database connections to the file are closed.
func Hold(path string) (release func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return nil, fmt.Errorf("%s: %w", path, ErrHeld)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
