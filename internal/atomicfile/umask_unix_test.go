//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A new file gets 0644 less the umask, as os.WriteFile gives it: a
// researcher whose umask is 077 does not find a report readable by all.
func TestANewFileHonoursTheUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "report.html")
	if err := Write(path, []byte("<p>private</p>\n")); err != nil {
		t.Fatal(err)
	}
	if got := stat(t, path).Mode().Perm(); got != 0o600 {
		t.Errorf("a new file under umask 077 has mode %v, want -rw-------", got)
	}
}

// A dangling symbolic link is followed too: the file it names is created
// and the link stays a link, as a plain write through it would do.
func TestWriteThroughADanglingLinkCreatesItsTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.anynt")
	if err := os.Symlink(filepath.Join("sub", "..", "real.anynt"), link); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link is no longer a symbolic link (%v, %v)", info, err)
	}
	if got := readFile(t, filepath.Join(dir, "real.anynt")); got != "new\n" {
		t.Errorf("the link's target holds %q, want %q", got, "new\n")
	}
	assertNoTemporaryFiles(t, dir)
}

// A loop of links is an error, not a write elsewhere.
func TestALoopOfLinksIsRefused(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.Symlink("b", a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", b); err != nil {
		t.Fatal(err)
	}
	if err := Write(a, []byte("x")); err == nil {
		t.Error("a write through a loop of links succeeded")
	}
	assertNoTemporaryFiles(t, dir)
}
