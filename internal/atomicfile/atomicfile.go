package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// TempMark is in the name of every temporary file Write makes: the file
// ".NAME" + TempMark + a random suffix, beside NAME.
const TempMark = ".tmp-"

// newFileMode is the mode of a file Write creates.
const newFileMode fs.FileMode = 0o644

// Write replaces the file at path with data, or creates it. An existing
// file keeps its permission bits; a new one gets 0644. When Write fails,
// the file at path is as it was and no temporary file is left. A path that
// is not a regular file (a device such as /dev/stdout, a named pipe) has
// no contents to replace: it is written to.
func Write(path string, data []byte) error {
	path, mode, err := target(path)
	if err != nil {
		return err
	}
	if !mode.IsRegular() {
		return os.WriteFile(path, data, 0)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+TempMark+"*")
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
	if err == nil {
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

// target is the file a write to path replaces, through any symbolic
// links, and the mode the new file gets: the type of the existing file,
// and the permission bits it keeps.
func target(path string) (string, fs.FileMode, error) {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, newFileMode, nil
	}
	if err != nil {
		return "", 0, err
	}
	info, err := os.Stat(real)
	if err != nil {
		return "", 0, err
	}
	if info.Mode().IsRegular() {
		return real, info.Mode().Perm(), nil
	}
	return real, info.Mode(), nil
}

// syncDir makes the folder's entries (a rename, a new file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
