//go:build !linux

package filelock

import "path/filepath"

// Hold takes the file at path for this holder alone. Without the open
// file description locks of Linux, whose lock is on the file itself, the
// lock is the lock file FILE.lock beside the file the path leads to
// (symbolic links followed), taken with Lock: a second Hold through a
// hard link to the file is not refused there.
func Hold(path string) (release func(), err error) {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return Lock(path + ".lock")
}
