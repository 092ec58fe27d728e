package generate_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/anynt/anynt/generate"
	"github.com/google/go-cmp/cmp"
)

func outSettings(dir string, limit int) generate.StreamSettings {
	return generate.StreamSettings{MaxBits: 56, Limit: limit, Shard: 1, Shards: 1, Filters: quickFilters, Out: dir}
}

// streamInto runs Stream and returns what it emitted and noticed.
func streamInto(t *testing.T, s generate.StreamSettings) (emitted []int, notices []string) {
	t.Helper()
	_, err := generate.Stream(s, func(e generate.Emitted) { emitted = append(emitted, e.Index) }, nil,
		func(msg string) { notices = append(notices, msg) })
	if err != nil {
		t.Fatal(err)
	}
	return emitted, notices
}

// A run resumed after an interruption emits each environment once: the
// lines of the two runs together are those of one straight run.
func TestResumeEmitsNothingTwice(t *testing.T) {
	straight, _ := streamInto(t, outSettings(t.TempDir(), 8))
	dir := t.TempDir()
	first, _ := streamInto(t, outSettings(dir, 3))
	second, _ := streamInto(t, outSettings(dir, 8))
	if got := append(first, second...); len(straight) != 8 || !slices.Equal(got, straight) {
		t.Errorf("the interrupted runs emitted %v then %v; a straight run %v", first, second, straight)
	}
}

// Resuming checks every file already written against its checksum: a torn
// file (cut short, which can still be a valid but different environment)
// and a deleted one are written again, with a notice, and nothing is
// emitted twice. Leftovers of a killed run (a temporary file, a journal
// line the state does not count) are cleared.
func TestResumeRedoesTornAndMissingFiles(t *testing.T) {
	dir := t.TempDir()
	streamInto(t, outSettings(dir, 6))
	want := generate.FolderFiles(t, dir)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range want {
			if !yield(n) {
				return
			}
		}
	})
	if len(names) != 6 {
		t.Fatalf("wrote %d files, want 6", len(names))
	}
	torn, deleted := filepath.Join(dir, names[1]), filepath.Join(dir, names[4])
	if err := os.WriteFile(torn, []byte(want[names[1]][:len(want[names[1]])-12]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(deleted); err != nil {
		t.Fatal(err)
	}
	leftover := filepath.Join(dir, "."+names[5]+".tmp-123")
	if err := os.WriteFile(leftover, []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	journal, err := os.OpenFile(filepath.Join(dir, ".enumerate.sums"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	journal.WriteString("77 0123") // a line torn by a kill
	journal.Close()

	emitted, notices := streamInto(t, outSettings(dir, 6))
	if len(emitted) != 0 {
		t.Errorf("the resumed run emitted %v again", emitted)
	}
	if diff := cmp.Diff(want, generate.FolderFiles(t, dir)); diff != "" {
		t.Errorf("the files after resuming differ (-want +got):\n%s", diff)
	}
	if len(notices) != 2 || !strings.Contains(strings.Join(notices, "\n"), names[1]) || !strings.Contains(strings.Join(notices, "\n"), names[4]) {
		t.Errorf("notices %q, want one for %s (torn) and one for %s (missing)", notices, names[1], names[4])
	}
	if _, err := os.Stat(leftover); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary file of a killed run is still there: %v", err)
	}
	more, _ := streamInto(t, outSettings(dir, 7))
	if len(more) != 1 || len(generate.FolderFiles(t, dir)) != 7 {
		t.Errorf("after the repair the run went on with %v, %d files", more, len(generate.FolderFiles(t, dir)))
	}
}

// One run at a time holds a folder: a second one is refused with
// ErrFolderBusy while the first runs, and the folder is free again when it
// ends. The lock file a run leaves behind (as a killed run does) does not
// block: the kernel's flock ends with its process.
func TestFolderIsLocked(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	inside, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() {
		first := true
		_, err := generate.Stream(outSettings(dir, 2), func(generate.Emitted) {
			if first {
				first = false
				close(inside)
				<-release
			}
		}, nil, nil)
		done <- err
	}()
	<-inside
	_, err := generate.Stream(outSettings(dir, 2), func(generate.Emitted) {}, nil, nil)
	if !errors.Is(err, generate.ErrFolderBusy) || !strings.Contains(err.Error(), dir) {
		t.Errorf("a second run into a held folder: %v, want ErrFolderBusy naming the folder", err)
	}
	ev := generate.DefaultEvolve
	ev.Out = dir
	if _, err := generate.Evolve(t.Context(), ev, nil, nil); !errors.Is(err, generate.ErrFolderBusy) {
		t.Errorf("evolve into a held folder: %v, want ErrFolderBusy", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if emitted, _ := streamInto(t, outSettings(dir, 3)); len(emitted) != 1 {
		t.Errorf("after the first run ended, the next one emitted %v", emitted)
	}
}

// A folder with environments but no state is another run's: refused.
func TestStreamRefusesAForeignFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.anynt"), []byte("actions s r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := generate.Stream(outSettings(dir, 2), func(generate.Emitted) {}, nil, nil); err == nil {
		t.Errorf("a folder of files without a state was written into")
	}
}

// A run killed with SIGKILL in the middle of its work resumes: the kill
// leaves no lock that blocks the next run (the kernel drops the flock with
// the process), no line is printed twice across the two runs, and the
// folder ends as a straight run's. (A line can be lost if the kill falls
// between saving the state and printing; its file is in the folder.)
func TestKilledRunResumes(t *testing.T) {
	const limit = 150
	settings := func(dir string) generate.StreamSettings {
		s := outSettings(dir, limit)
		s.MaxBits = 58
		return s
	}
	if dir := os.Getenv("ANYNT_TEST_KILLED_RUN"); dir != "" {
		_, err := generate.Stream(settings(dir), func(e generate.Emitted) { fmt.Println(e.Index) }, nil, nil)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	straightDir := t.TempDir()
	straight, _ := streamInto(t, settings(straightDir))

	dir := t.TempDir()
	child := exec.Command(os.Args[0], "-test.run=^TestKilledRunResumes$")
	child.Env = append(os.Environ(), "ANYNT_TEST_KILLED_RUN="+dir)
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var printed []int
	for len(printed) < 20 && sc.Scan() {
		n, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatalf("the child printed %q", sc.Text())
		}
		printed = append(printed, n)
	}
	child.Process.Kill()
	for sc.Scan() {
		if n, err := strconv.Atoi(sc.Text()); err == nil {
			printed = append(printed, n)
		}
	}
	child.Wait()
	if len(printed) < 20 || len(printed) >= limit {
		t.Fatalf("the child printed %d lines before the kill; the test needs it stopped midway", len(printed))
	}

	resumed, _ := streamInto(t, settings(dir))
	all := append(printed, resumed...)
	seen := map[int]bool{}
	for _, i := range all {
		if seen[i] || !slices.Contains(straight, i) {
			t.Fatalf("line %d printed twice or not in the straight run; killed run %v, resumed %v", i, printed, resumed)
		}
		seen[i] = true
	}
	if len(all) < limit-1 {
		t.Errorf("%d lines in all; a straight run prints %d (one may be lost to the kill)", len(all), limit)
	}
	if diff := cmp.Diff(generate.FolderFiles(t, straightDir), generate.FolderFiles(t, dir)); diff != "" {
		t.Errorf("the folders differ (-straight +killed and resumed):\n%s", diff)
	}
}
