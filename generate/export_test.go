package generate

import (
	"os"
	"path/filepath"
	"testing"
)

// FolderFiles maps each environment file of dir to its content; the tests
// of both packages compare output folders with it.
func FolderFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	names, err := filepath.Glob(filepath.Join(dir, "*.anynt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = string(b)
	}
	return out
}
