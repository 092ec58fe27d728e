package main

import (
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The package comment's layout names every file of the package, tests
// apart, and no file that is gone: a newcomer finds each file's place in
// doc.go.
func TestDocNamesEveryFile(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, name := range regexp.MustCompile(`\b[a-z][a-z0-9_]*\.(?:go|anynt)\b`).FindAllString(f.Doc.Text(), -1) {
		named[name] = true
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if e.Type().IsRegular() && name != "doc.go" && !strings.HasSuffix(name, "_test.go") &&
			(strings.HasSuffix(name, ".go") || strings.HasSuffix(name, ".anynt")) {
			files = append(files, name)
			if !named[name] {
				t.Errorf("doc.go does not name %s", name)
			}
		}
	}
	for name := range named {
		if !slices.Contains(files, name) {
			t.Errorf("doc.go names %s, which is not a file of the package", name)
		}
	}
}
