package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tutorialBlock is a ```sh block of docs/tutorial.md and the ```text
// block that follows it, if any: the output it shows.
type tutorialBlock struct {
	line         int // of the ```sh fence, from 1
	script, want string
}

// tutorialBlocks reads the ```sh blocks of a Markdown text, each with the
// ```text block right after it (blank lines between).
func tutorialBlocks(text string) []tutorialBlock {
	lines := strings.Split(text, "\n")
	fenced := func(i int) (string, int) { // the block opening at line i, and the line after it
		var b strings.Builder
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.WriteString(lines[i] + "\n")
		}
		return b.String(), i + 1
	}
	var blocks []tutorialBlock
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```sh" {
			continue
		}
		b := tutorialBlock{line: i + 1}
		b.script, i = fenced(i)
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && lines[j] == "```text" {
			b.want, i = fenced(j)
		}
		blocks = append(blocks, b)
		i--
	}
	return blocks
}

// tutorialMismatch compares a command's output with the output the
// tutorial shows: the same lines in the same order, trailing spaces
// aside, where "…" in a line stands for any text and a line "…" for any
// lines (at the end: any further output). It returns "" when they agree,
// else what differs.
func tutorialMismatch(got, want string) string {
	out := strings.Split(strings.TrimRight(got, "\n"), "\n")
	pos, skipping := 0, false
	for _, w := range strings.Split(strings.TrimRight(want, "\n"), "\n") {
		w = strings.TrimRight(w, " \t")
		if w == "…" {
			skipping = true
			continue
		}
		for pos < len(out) && !lineMatches(strings.TrimRight(out[pos], " \t"), w) {
			if !skipping {
				return "line " + strconv.Itoa(pos+1) + " is\n\t" + out[pos] + "\nwhere the tutorial shows\n\t" + w
			}
			pos++
		}
		if pos == len(out) {
			return "no line of the output is\n\t" + w
		}
		pos, skipping = pos+1, false
	}
	if !skipping && pos < len(out) {
		return "the output goes on, unshown, with\n\t" + out[pos]
	}
	return ""
}

// lineMatches reports whether line is pattern, "…" in it standing for any
// text.
func lineMatches(line, pattern string) bool {
	pieces := strings.Split(pattern, "…")
	if len(pieces) == 1 {
		return line == pattern
	}
	if !strings.HasPrefix(line, pieces[0]) || !strings.HasSuffix(line, pieces[len(pieces)-1]) {
		return false
	}
	line = line[len(pieces[0]) : len(line)-len(pieces[len(pieces)-1])]
	for _, p := range pieces[1 : len(pieces)-1] {
		at := strings.Index(line, p)
		if at < 0 {
			return false
		}
		line = line[at+len(p):]
	}
	return true
}

// Every command of the tutorial runs, in order and in one empty folder,
// with anynt built from this tree on the PATH, and prints what the
// tutorial shows after it: the lesson cannot drift from the program.
func TestTutorial(t *testing.T) {
	src, err := os.ReadFile("../../docs/tutorial.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := tutorialBlocks(string(src))
	if len(blocks) < 15 {
		t.Fatalf("found %d sh blocks in docs/tutorial.md; the tutorial has more", len(blocks))
	}
	bin := filepath.Join(t.TempDir(), "anynt")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building anynt: %v\n%s", err, out)
	}
	dir := t.TempDir()
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, b := range blocks {
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", b.script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+path)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("docs/tutorial.md:%d: the block\n%s\nfailed (%v):\n%s", b.line, b.script, err, out.String())
		}
		if b.want == "" {
			continue
		}
		if msg := tutorialMismatch(out.String(), b.want); msg != "" {
			t.Errorf("docs/tutorial.md:%d: the output of\n%s\ndiffers from the tutorial's: %s\n\nthe whole output:\n%s", b.line, b.script, msg, out.String())
		}
	}
}

// The comparison the tutorial test makes: lines in order, "…" for any
// text in a line or any lines, and nothing unshown at the end.
func TestTutorialMismatch(t *testing.T) {
	tests := []struct {
		got, want string
		agree     bool
	}{
		{"a\nb\n", "a\nb\n", true},
		{"a\nb\n", "a\n", false},
		{"a\nb\nc\n", "a\n…\n", true},
		{"a\nx\nb\n", "a\n…\nb\n", true},
		{"a\nx\nb\n", "a\nb\n", false},
		{"mean +0.1, CI [0, 1]   \n", "mean …, CI […]\n", true},
		{"mean +0.1\n", "mean -…\n", false},
	}
	for _, tc := range tests {
		if got := tutorialMismatch(tc.got, tc.want) == ""; got != tc.agree {
			t.Errorf("%q against %q: agree %v, want %v", tc.got, tc.want, got, tc.agree)
		}
	}
}
