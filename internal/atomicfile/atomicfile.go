package atomicfile

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// TempMark is in the name of every temporary file Write makes: the file
// ".NAME" + TempMark + a random suffix, beside NAME.
const TempMark = ".tmp-"

// newFileMode is the mode a file Write creates asks for; the process's
// umask takes its bits away, as it does for os.WriteFile.
const newFileMode fs.FileMode = 0o644

// maxLinks bounds the symbolic links followed to the target, as the kernel
// bounds them (ELOOP).
const maxLinks = 40

// Write replaces the file at path with data, or creates it. An existing
// file keeps its permission bits; a new one gets 0644 less the umask. When
// Write fails, the file at path is as it was and no temporary file is
// left. A path that is not a regular file (a device such as /dev/stdout, a
// named pipe) has no contents to replace: it is written to.
func Write(path string, data []byte) error {
	path, mode, exists, err := target(path)
	if err != nil {
		return err
	}
	if exists && !mode.IsRegular() {
		return os.WriteFile(path, data, 0)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createTemp(dir, "."+base+TempMark)
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && exists {
		err = os.Chmod(tmp, mode)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// createTemp creates a new file in dir whose name is prefix and a random
// suffix, asking for newFileMode, so that a new target gets the mode
// os.WriteFile would give it (os.CreateTemp asks for 0600).
func createTemp(dir, prefix string) (*os.File, error) {
	for {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, newFileMode)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
}

// target is the file a write to path replaces, through any symbolic
// links (a dangling one included: its target is created), and, when it
// exists, its type and the permission bits it keeps.
func target(path string) (real string, mode fs.FileMode, exists bool, err error) {
	for range maxLinks {
		info, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, 0, false, nil
		}
		if err != nil {
			return "", 0, false, err
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			if info.Mode().IsRegular() {
				return path, info.Mode().Perm(), true, nil
			}
			return path, info.Mode(), true, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", 0, false, err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", 0, false, &fs.PathError{Op: "write", Path: path, Err: syscall.ELOOP}
}

// syncDir makes the folder's entries (a rename, a new file) durable. A
// file system that cannot sync a folder (some network and FUSE file
// systems answer EINVAL or ENOTSUP) has already done the rename, which is
// then as durable as that file system makes it: that is not a failure.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
