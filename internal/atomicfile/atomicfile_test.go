package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteCreatesAndReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.anynt")
	for _, data := range []string{"first\n", "second, longer\n", "3\n"} {
		if err := Write(path, []byte(data)); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, path); got != data {
			t.Fatalf("the file holds %q, want %q", got, data)
		}
	}
	if info := stat(t, path); info.Mode().Perm() != newFileMode {
		t.Errorf("a new file has mode %v, want %v", info.Mode().Perm(), newFileMode)
	}
	assertNoTemporaryFiles(t, filepath.Dir(path))
}

func TestWriteKeepsTheMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o600, 0o640, 0o755} {
		path := filepath.Join(t.TempDir(), "f.anynt")
		if err := os.WriteFile(path, []byte("old\n"), 0); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if err := Write(path, []byte("new\n")); err != nil {
			t.Fatal(err)
		}
		if got := stat(t, path).Mode().Perm(); got != mode {
			t.Errorf("a file of mode %v has mode %v after Write", mode, got)
		}
	}
}

func TestWriteFollowsSymbolicLinks(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.anynt"), filepath.Join(dir, "link.anynt")
	if err := os.WriteFile(real, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.anynt", link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a symbolic link (%v, %v)", info, err)
	}
	if got := readFile(t, real); got != "new\n" {
		t.Errorf("the link's target holds %q, want %q", got, "new\n")
	}
}

func TestWriteToADeviceWritesIt(t *testing.T) {
	if err := Write(os.DevNull, []byte("anything")); err != nil {
		t.Fatal(err)
	}
	if info := stat(t, os.DevNull); info.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v", os.DevNull, info.Mode())
	}
}

func assertNoTemporaryFiles(t *testing.T, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, ".*"+TempMark+"*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func stat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
