package lang_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/lang"
)

// A file is read whole up to MaxSourceSize; past it is a positioned
// error, and a missing file, a directory or a device the system's.
func TestReadSource(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.anynt")
	if err := os.WriteFile(small, []byte("a -> b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if src, err := lang.ReadSource(small); err != nil || string(src) != "a -> b\n" {
		t.Errorf("ReadSource(small) = %q, %v", src, err)
	}
	big := filepath.Join(dir, "big.anynt")
	if err := os.WriteFile(big, make([]byte, lang.MaxSourceSize+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := lang.ReadSource(big)
	var list lang.ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pos != (lang.Pos{File: big, Line: 1, Col: 1}) {
		t.Errorf("ReadSource(%s): %v; want one error at %s:1:1", big, err, big)
	}
	// A directory and a device are refused before a byte is read, by a
	// system error that names the path once.
	for _, tt := range []struct{ name, want string }{
		{dir, "read " + dir + ": it is a directory, not a source file"},
		{"/dev/zero", "read /dev/zero: it is a device, not a source file"},
	} {
		_, err := lang.ReadSource(tt.name)
		var pe *fs.PathError
		if !errors.As(err, &pe) || err.Error() != tt.want {
			t.Errorf("ReadSource(%s): %v; want %q", tt.name, err, tt.want)
		}
	}
	if _, err := lang.ReadSource(filepath.Join(dir, "missing.anynt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
