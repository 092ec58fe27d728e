package study

import (
	"database/sql"
	"net/url"
	"path/filepath"
	"testing"
	"time"
)

// downgrade turns the study at path into one of schema version 1, as an
// anynt before the server's timers were kept wrote it.
func downgrade(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range []string{
		`ALTER TABLE sessions DROP COLUMN served_seq`, `ALTER TABLE sessions DROP COLUMN served_at`,
		`ALTER TABLE sessions DROP COLUMN served_by`, `ALTER TABLE sessions DROP COLUMN served_again`,
		`ALTER TABLE interactions DROP COLUMN client_cut`, `UPDATE study SET schema = 1`,
	} {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
}

// A study of schema version 1 opens: written, it gets the columns of
// version 2, keeps every move and records new ones; read-only, it is read
// as it is, no claim cut.
func TestASchemaOneStudyOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.db")
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	s := clockedStudy(t, path, clock, maxSessionsInMemory)
	token, v, err := s.Start(Answers{})
	if err != nil {
		t.Fatal(err)
	}
	if v, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	downgrade(t, path)

	db, err := sql.Open("sqlite", "file:"+url.PathEscape(path)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ro := &Study{db: db}
	if ro.schema, err = ro.migrate(1); err != nil || ro.schema != 1 {
		t.Fatalf("migrating a read-only study of version 1: version %d, %v; want it read as version 1", ro.schema, err)
	}
	var n int
	err = ro.Records(func(r Record) error {
		n++
		if r.ClientCut {
			t.Errorf("a record of version 1 is read as cut: %+v", r)
		}
		return nil
	})
	if err != nil || n != 1 {
		t.Fatalf("reading a read-only study of version 1: %d records, %v; want 1", n, err)
	}

	s = clockedStudy(t, path, clock, maxSessionsInMemory)
	var version int
	if err := s.db.QueryRow(`SELECT schema FROM study`).Scan(&version); err != nil || version != schemaVersion {
		t.Fatalf("a study of version 1 opened for writing is of version %d (%v); want %d", version, err, schemaVersion)
	}
	if _, err := s.View(token); err != nil { // this process's timer starts
		t.Fatal(err)
	}
	clock.pass(2 * time.Second)
	if _, err = s.Move(token, Move{Seq: v.Seq, Cell: stay(v), ClientMillis: 1}); err != nil {
		t.Fatal(err)
	}
	if r := lastRecord(t, s); r.Seq != 1 || !r.ClientCut {
		t.Errorf("the move after the migration: %+v; want seq 1, its claim of 1 ms after 2 s cut", r)
	}
}
