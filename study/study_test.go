package study_test

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study" // registers the driver "sqlite" that sqlDB uses
)

// design is a Λ_one study of tests tests from seed 7.
func design(t testing.TB, tests int) *study.Design {
	t.Helper()
	items, err := exam.LambdaOneItems(7, tests, "test")
	if err != nil {
		t.Fatal(err)
	}
	return &study.Design{Version: "test", Protocol: "lambda-one", Complexity: "K_approx", Strata: "cells",
		Settings: "pace constant:1", Seed: 7, Tests: tests, Items: items}
}

// open opens (creating) the study of d in a new database.
func open(t testing.TB, d *study.Design) (*study.Study, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "study.db")
	s, err := study.Open(path, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

// sqlDB opens the database beside the study, as another program would.
func sqlDB(t testing.TB, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// A study is created with its design and read back the same, with every
// item's environment loaded from the stored source; reopening without a
// design, or with the same one, keeps it.
func TestOpenKeepsTheDesign(t *testing.T) {
	d := design(t, 2)
	d.Intro = study.Intro{Consent: "I agree.", AskCode: true, Questions: []string{"Age?"}}
	s, path := open(t, d)
	s.Close()
	for _, again := range []*study.Design{nil, d} {
		s, err := study.Open(path, again)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Design()
		s.Close()
		if got.Protocol != d.Protocol || got.Seed != d.Seed || got.Tests != d.Tests || got.Settings != d.Settings ||
			got.Version != d.Version || got.Complexity != d.Complexity || got.Strata != d.Strata ||
			got.Intro.Consent != d.Intro.Consent || !got.Intro.AskCode || len(got.Intro.Questions) != 1 {
			t.Errorf("stored design %+v, want %+v", got, d)
		}
		if len(got.Items) != len(d.Items) {
			t.Fatalf("%d items stored, want %d", len(got.Items), len(d.Items))
		}
		for i, it := range got.Items {
			want := d.Items[i]
			if it.Env == nil || it.Source != want.Source || it.Seed != want.Seed || it.Steps != want.Steps ||
				it.Test != want.Test || it.Number != want.Number || it.Name != want.Name || it.Cells != want.Cells ||
				it.KApprox != want.KApprox || it.Bits != want.Bits || it.Complexity != want.Complexity {
				t.Errorf("item %d stored as %+v, want %+v", i, it, want)
			}
		}
	}
}

// A database that holds another study is refused with ErrOtherDesign,
// naming the first difference; the version and the sources' comments
// (which name the version) may differ.
func TestOpenRefusesAnotherDesign(t *testing.T) {
	d := design(t, 2)
	_, path := open(t, d)
	cases := []struct {
		change func(*study.Design)
		says   string // "" for a design that is the same test
	}{
		{func(d *study.Design) { d.Version = "v9" }, ""},
		{func(d *study.Design) { d.Items[3].Source = "# another header\n" + d.Items[3].Source }, ""},
		{func(d *study.Design) { d.Protocol = "battery" }, "protocol"},
		{func(d *study.Design) { d.Seed = 8 }, "seed"},
		{func(d *study.Design) { d.Tests, d.Items = 1, d.Items[:7] }, "tests"},
		{func(d *study.Design) { d.Settings = "pace constant:2" }, "settings"},
		{func(d *study.Design) { d.Intro.Consent = "Yes." }, "consent"},
		{func(d *study.Design) { d.Intro.AskCode = true }, "code"},
		{func(d *study.Design) { d.Intro.Questions = []string{"Age?"} }, "questions"},
		{func(d *study.Design) { d.Items[3].Steps++ }, "item 4 (lambda-one:7/4) has 50 steps, not 51"},
		{func(d *study.Design) { d.Items[3].Seed++ }, "item 4 (lambda-one:7/4) has seed"},
		{func(d *study.Design) { d.Items[3].Source += "reward 2\n" }, "item 4 (lambda-one:7/4) has another source"},
	}
	for _, c := range cases {
		other := *design(t, 2)
		c.change(&other)
		s, err := study.Open(path, &other)
		if c.says == "" {
			if err != nil {
				t.Errorf("the same test refused: %v", err)
			} else {
				s.Close()
			}
			continue
		}
		if !errors.Is(err, study.ErrOtherDesign) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("error %v; want ErrOtherDesign saying %q", err, c.says)
		}
	}
}

// What is not a study's database is refused with an error that says what
// it is, and nothing is created where no study was asked for.
func TestOpenRefusesWhatIsNotAStudy(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if _, err := study.Open(missing, nil); !errors.Is(err, study.ErrNoStudy) {
		t.Errorf("a missing file without a design: %v, want ErrNoStudy", err)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("opening a missing study created %s", missing)
	}

	text := filepath.Join(dir, "notes.txt")
	os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644)
	if _, err := study.Open(text, design(t, 1)); err == nil || !strings.Contains(err.Error(), "not a SQLite database") {
		t.Errorf("a text file: %v, want an error saying it is not a SQLite database", err)
	}

	other := filepath.Join(dir, "other.db")
	db := sqlDB(t, other)
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	if _, err := study.Open(other, design(t, 1)); err == nil || !strings.Contains(err.Error(), "not a study's") {
		t.Errorf("another program's database: %v, want an error saying it is not a study's", err)
	}

	for _, path := range []string{dir, filepath.Join(dir, "no-such-folder", "s.db")} {
		if _, err := study.Open(path, design(t, 1)); err == nil || !strings.Contains(err.Error(), "cannot open or create") {
			t.Errorf("%s: %v, want an error saying the file cannot be opened", path, err)
		}
	}

	empty := filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	if _, err := study.Open(empty, nil); !errors.Is(err, study.ErrNoStudy) {
		t.Errorf("an empty database without a design: %v, want ErrNoStudy", err)
	}
}

// A database written by a newer anynt (a newer schema) is refused rather
// than misread.
func TestOpenRefusesANewerSchema(t *testing.T) {
	s, path := open(t, design(t, 1))
	s.Close()
	if _, err := sqlDB(t, path).Exec(`UPDATE study SET schema = 3`); err != nil {
		t.Fatal(err)
	}
	if _, err := study.Open(path, nil); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Errorf("a newer schema: %v, want an error naming it", err)
	}
}

// A design that cannot be given is refused before anything is written.
func TestOpenRefusesABadDesign(t *testing.T) {
	cases := []struct {
		change func(*study.Design)
		says   string
	}{
		{func(d *study.Design) { d.Tests = 0 }, "at least one test"},
		{func(d *study.Design) { d.Items = nil }, "no items"},
		{func(d *study.Design) { d.Items[0].Test = 3 }, "of test 3"},
		{func(d *study.Design) { d.Items[0].Steps = 0 }, "0 steps"},
		{func(d *study.Design) { d.Items[0].Source = "" }, "no source"},
		{func(d *study.Design) { d.Tests = 3 }, "test 3 has no items"},
	}
	for _, c := range cases {
		d := design(t, 2)
		c.change(d)
		path := filepath.Join(t.TempDir(), "s.db")
		if _, err := study.Open(path, d); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("error %v; want one saying %q", err, c.says)
		}
	}
}

// One study at a time holds a database to record moves: a second
// OpenHeld of the file, through another path to it too (a symbolic link,
// a hard link), is refused with ErrHeld, also once a FILE.lock beside any
// of its names is removed by hand, while a reader opens the study through
// the holder's name or a symbolic link to it and reads every committed
// move (SQLite names the write-ahead log after the name, which a hard
// link does not share); once the holder closes, the database, its
// write-ahead log checkpointed, is a file alone (no -wal, -shm or lock
// file left) and can be held again.
func TestOneStudyHoldsTheDatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "study.db")
	s, err := study.OpenHeld(path, design(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(token, study.Move{Seq: v.Seq, Cell: newClicker(1).cell(v), ClientMillis: 5}); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	symlink, hardlink := filepath.Join(other, "symlink.db"), filepath.Join(filepath.Dir(path), "hardlink.db")
	if err := os.Symlink(path, symlink); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(path, hardlink); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, symlink, hardlink} {
		for _, name := range []string{path, symlink, hardlink} {
			os.Remove(name + ".lock") // a lock file removed by hand opens no door
		}
		if _, err := study.OpenHeld(p, nil); !errors.Is(err, study.ErrHeld) {
			t.Errorf("a second OpenHeld through %s: %v; want ErrHeld", p, err)
		}
		if p == hardlink { // SQLite names the write-ahead log after the name: a reader must use the holder's
			continue
		}
		reader, err := study.Open(p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rs := records(t, reader); len(rs) != 1 {
			t.Errorf("a reader beside the holder reads %d moves; want 1", len(rs))
		}
		reader.Close()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm", ".lock"} {
		if _, err := os.Stat(path + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s%s is left after the holder closed (%v)", filepath.Base(path), suffix, err)
		}
	}
	again, err := study.OpenHeld(hardlink, nil)
	if err != nil {
		t.Fatalf("OpenHeld after the holder closed: %v", err)
	}
	defer again.Close()
	if rs := records(t, again); len(rs) != 1 {
		t.Errorf("the closed database holds %d moves; want 1", len(rs))
	}
}

// Two servers that start at once on a new file: one creates and holds
// the study, every other is refused with ErrHeld, none with a failure to
// create the tables the first is creating.
func TestServersStartingAtOnce(t *testing.T) {
	d := design(t, 1)
	for round := range 5 {
		path := filepath.Join(t.TempDir(), "study.db")
		const servers = 4
		errs := make(chan error, servers)
		held := make(chan *study.Study, servers)
		for range servers {
			go func() {
				s, err := study.OpenHeld(path, d)
				if err == nil {
					held <- s
				}
				errs <- err
			}()
		}
		opened := 0
		for range servers {
			switch err := <-errs; {
			case err == nil:
				opened++
			case !errors.Is(err, study.ErrHeld):
				t.Errorf("round %d: a server starting beside another: %v; want ErrHeld", round, err)
			}
		}
		close(held)
		for s := range held {
			s.Close()
		}
		if opened > 1 {
			t.Errorf("round %d: %d servers hold the database at once", round, opened)
		}
	}
}
