package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A test given in shards and merged is the test given whole: its report
// as text, JSON, CSV and HTML the same, bit for bit, for a Λ_one test cut
// inside items' pairs, with the scales, and a battery without them.
func TestMergedPartsAreTheWholeTest(t *testing.T) {
	for name, args := range map[string][]string{
		"lambda-one": {"test", "--tests", "2", "--seed", "3", "--agent", "random,qlearning,optimal", "--episodes", "2"},
		"battery":    {"test", "--protocol", "battery", "--agent", "random,oracle", "--steps", "100", "--bounds=false", corpusDir + "paper"},
	} {
		dir := t.TempDir()
		parts := filepath.Join(dir, "parts")
		for _, k := range []string{"4", "2", "1", "3"} {
			if _, errw, code := anynt(t, "", append(args, "--shard", k+"/4", "--out", parts)...); code != 0 {
				t.Fatalf("%s: shard %s: exit %d: %s", name, k, code, errw)
			}
		}
		for _, form := range [][]string{nil, {"--json"}, {"--csv"}} {
			want, _, _ := anynt(t, "", append(args, form...)...)
			got, errw, code := anynt(t, "", append(append([]string{"merge"}, form...), parts)...)
			if code != 0 || got != want || want == "" {
				t.Errorf("%s %v: merge exit %d (%s), and its report differs from the whole test's:\n%s\nwant\n%s", name, form, code, errw, got, want)
			}
		}
		wantHTML, gotHTML := filepath.Join(dir, "w.html"), filepath.Join(dir, "m.html")
		anynt(t, "", append(args, "--html", wantHTML)...)
		anynt(t, "", "merge", "--html", gotHTML, parts)
		a, _ := os.ReadFile(wantHTML)
		b, _ := os.ReadFile(gotHTML)
		if len(a) == 0 || string(a) != string(b) {
			t.Errorf("%s: the merged HTML differs from the whole test's", name)
		}
		// A part kept whole is not given again.
		if _, errw, code := anynt(t, "", append(args, "--shard", "2/4", "--out", parts)...); code != 0 || !strings.Contains(errw, "kept whole in") {
			t.Errorf("%s: giving a kept part again: exit %d: %s", name, code, errw)
		}
	}
}

// merge refuses parts that are not one whole test, and test refuses a
// shard without a folder to keep it and a report's form with one.
func TestMergeRefusesPartsOfOtherTests(t *testing.T) {
	dir := t.TempDir()
	args := []string{"test", "--tests", "1", "--agent", "random", "--episodes", "1"}
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, k := range []string{"1", "2"} {
		anynt(t, "", append(args, "--seed", "1", "--shard", k+"/2", "--out", a)...)
		anynt(t, "", append(args, "--seed", "2", "--shard", k+"/2", "--out", b)...)
	}
	part := func(dir, k string) string { return filepath.Join(dir, "test-part-"+k+"-of-2.anynt-part") }
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing", []string{"merge", part(a, "1")}, exitFile, "shards 2 of 2 are missing"},
		{"twice", []string{"merge", a, part(a, "2")}, exitFile, "given twice"},
		{"another test", []string{"merge", part(a, "1"), part(b, "2")}, exitFile, "another test"},
		{"parts and packs", []string{"merge", a, corpusDir + "paper/example6.anynt"}, exitUsage, "not both"},
		{"an empty folder", []string{"merge", t.TempDir()}, exitFile, "no part of a test"},
		{"shard without out", append(args, "--shard", "1/2"), exitUsage, "--out DIR"},
		{"a report with out", append(args, "--out", a, "--json"), exitUsage, "prints no report"},
		{"another test in the folder", append(args, "--seed", "9", "--shard", "1/2", "--out", a), exitIO, "another test"},
		{"adaptive", []string{"test", "--adaptive", "--shard", "1/2", "--out", a}, exitUsage, "means nothing to the adaptive test"},
	}
	for _, tt := range tests {
		_, errw, code := anynt(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errw, tt.want) {
			t.Errorf("%s: exit %d: %s; want %d and %q", tt.name, code, errw, tt.code, tt.want)
		}
	}
}
