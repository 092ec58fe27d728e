package lang_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/lang"
)

// A file is read whole up to MaxSourceSize; past it, or a device that
// never ends, is a positioned error, and a missing file the system's.
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
	for _, name := range []string{big, "/dev/zero"} {
		_, err := lang.ReadSource(name)
		var list lang.ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Pos != (lang.Pos{File: name, Line: 1, Col: 1}) {
			t.Errorf("ReadSource(%s): %v; want one error at %s:1:1", name, err, name)
		}
	}
	if _, err := lang.ReadSource(filepath.Join(dir, "missing.anynt")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
}
