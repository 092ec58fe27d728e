package lang

import (
	"io"
	"os"
)

// MaxSourceSize bounds a source file, in bytes. The papers' files are a
// few kilobytes; the bound is there so that a file named by mistake (a
// device such as /dev/zero, a log of gigabytes) is refused instead of read
// until memory runs out.
const MaxSourceSize = 64 << 20

// ReadSource reads a source file of at most MaxSourceSize bytes. A file
// that cannot be read gives the system's error (an *fs.PathError); a
// larger one is an ErrorList positioned at the file's start.
func ReadSource(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxSourceSize+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: name, Err: err}
	}
	if len(src) > MaxSourceSize {
		var errs ErrorList
		errs.Add(Pos{File: name, Line: 1, Col: 1}, "the file is larger than %d MiB, the most a source file may be", MaxSourceSize>>20)
		return nil, errs
	}
	return src, nil
}
