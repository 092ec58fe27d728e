package lang

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// MaxSourceSize bounds a source file, in bytes. The papers' files are a
// few kilobytes; the bound is there so that a file named by mistake (a
// device such as /dev/zero, a log of gigabytes) is refused instead of read
// until memory runs out.
const MaxSourceSize = 64 << 20

// ReadSource reads a source file of at most MaxSourceSize bytes. A file
// that cannot be read gives the system's error (an *fs.PathError, naming
// the file once), as does a directory or a device, refused before a byte
// is read (a device such as /dev/zero never ends); a larger file is an
// ErrorList positioned at the file's start. A pipe is read, up to the
// bound.
func ReadSource(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch {
	case info.IsDir():
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotFile("a directory")}
	case info.Mode()&fs.ModeDevice != 0:
		return nil, &fs.PathError{Op: "read", Path: name, Err: errNotFile("a device")}
	}
	src, err := io.ReadAll(io.LimitReader(f, MaxSourceSize+1))
	var named *fs.PathError
	if err != nil && !errors.As(err, &named) {
		err = &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if err != nil {
		return nil, err
	}
	if len(src) > MaxSourceSize {
		var errs ErrorList
		errs.Add(Pos{File: name, Line: 1, Col: 1}, "the file is larger than %d MiB, the most a source file may be", MaxSourceSize>>20)
		return nil, errs
	}
	return src, nil
}

// errNotFile is the error of a path that is not a file to read.
type errNotFile string

func (e errNotFile) Error() string { return "it is " + string(e) + ", not a source file" }
