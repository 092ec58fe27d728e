package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
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

// The README's architecture drawing shows every package of the
// repository's top level (a folder with a doc.go) in the pipeline's row or
// as a folder of its own (name/), and names every package of internal/:
// a newcomer sees the pipeline, and where each package sits in it, there.
func TestReadmeArchitectureNamesEveryPackage(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "## Architecture\n\n```\n")
	drawing, _, found := strings.Cut(section, "```")
	if !found {
		t.Fatal("README.md has no drawing under ## Architecture")
	}
	pipeline, _, _ := strings.Cut(drawing, "\n")
	inPipeline := strings.Fields(pipeline)
	shown := func(dir string) bool {
		return slices.Contains(inPipeline, dir) || regexp.MustCompile(`(^|\n|◄── )`+regexp.QuoteMeta(dir)+`/`).MatchString(drawing)
	}
	for _, pattern := range []string{"../../*/doc.go", "../../internal/*/doc.go"} {
		docs, err := filepath.Glob(pattern)
		if err != nil || len(docs) == 0 {
			t.Fatalf("%s: %d files, %v", pattern, len(docs), err)
		}
		for _, doc := range docs {
			dir := filepath.Base(filepath.Dir(doc))
			if strings.Contains(pattern, "internal") {
				if !regexp.MustCompile(`\b` + dir + `\b`).MatchString(drawing) {
					t.Errorf("the README's architecture drawing does not name internal/%s", dir)
				}
			} else if !shown(dir) {
				t.Errorf("the README's architecture drawing does not show %s/", dir)
			}
		}
	}
}

// No code, comment, test or document of the repository says why it is
// so by the number of a tracker's issue, or cites a paper by its number in
// a reading list of seeds: it says what the behaviour is, and papers by
// authors, year and title (docs/references.md). The patterns are spelled
// so that this file does not match them.
func TestNoTextNamesAnIssue(t *testing.T) {
	stale := regexp.MustCompile(`\bissue #?[0-9]|\bthe[ ]issue\b|\bissue[']s\b|\bseed[ ]0[0-9]`)
	text := map[string]bool{".go": true, ".md": true, ".py": true, ".anynt": true, ".js": true, ".mjs": true,
		".toml": true, ".yaml": true, ".sbatch": true, ".html": true, ".sh": true}
	skip := map[string]bool{"node_modules": true, "__pycache__": true, "build": true, "dist": true, "bin": true, "_bin": true}
	checked := 0
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != "../.." && (strings.HasPrefix(name, ".") || skip[name]) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !text[filepath.Ext(name)] && filepath.Base(filepath.Dir(path)) != "scripts" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(strings.ToLower(string(data)), "\n") {
			if m := stale.FindString(line); m != "" {
				t.Errorf("%s:%d: %q: say what the behaviour is", strings.TrimPrefix(path, "../../"), i+1, m)
			}
		}
		return nil
	})
	if err != nil || checked < 100 {
		t.Fatalf("%d files checked: %v", checked, err)
	}
}
