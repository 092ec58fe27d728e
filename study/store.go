package study

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/filelock"
	"github.com/anynt/anynt/lang"

	// The SQLite driver "sqlite": SQLite's own C code translated to Go,
	// so that anynt builds without cgo or a C compiler.
	"modernc.org/sqlite"
)

// sqliteCantOpen is SQLite's result code SQLITE_CANTOPEN: the file could
// not be opened or created, which is not a damaged database.
const sqliteCantOpen = 14

// schemaVersion is the version of the tables below; a database of a newer
// one was written by a newer anynt and is refused rather than misread. A
// database of version 1 gets version 2's columns when it is opened
// (migrate).
const schemaVersion = 2

// schema creates the tables. Sessions keep a hash of their token, not the
// token, so that a copy of the database (an export, a backup) cannot be
// used to play in someone's session. The served_ columns are the server's
// timer of the step under way (see keepClock); client_cut says the page's
// time was below the server's less NetworkAllowance, and was not counted.
const schema = `
CREATE TABLE study (
	id INTEGER PRIMARY KEY CHECK (id = 1),
	schema INTEGER NOT NULL,
	design TEXT NOT NULL
);
CREATE TABLE items (
	test INTEGER NOT NULL,
	number INTEGER NOT NULL,
	name TEXT NOT NULL,
	steps INTEGER NOT NULL,
	seed INTEGER NOT NULL,
	complexity REAL NOT NULL,
	bits REAL NOT NULL,
	kapprox INTEGER NOT NULL,
	cells INTEGER NOT NULL,
	source TEXT NOT NULL,
	position INTEGER PRIMARY KEY
);
CREATE TABLE sessions (
	number INTEGER PRIMARY KEY,
	token_sha256 TEXT NOT NULL UNIQUE,
	code TEXT NOT NULL,
	test INTEGER NOT NULL,
	replies TEXT NOT NULL,
	started INTEGER NOT NULL,
	served_seq INTEGER NOT NULL DEFAULT -1,
	served_at INTEGER NOT NULL DEFAULT 0,
	served_by INTEGER NOT NULL DEFAULT 0,
	served_again INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE interactions (
	session INTEGER NOT NULL REFERENCES sessions(number),
	seq INTEGER NOT NULL,
	exercise INTEGER NOT NULL,
	step INTEGER NOT NULL,
	observation TEXT NOT NULL,
	cell INTEGER NOT NULL,
	action INTEGER NOT NULL,
	reward REAL NOT NULL,
	client_ms REAL NOT NULL,
	server_ms REAL NOT NULL,
	took_ms REAL NOT NULL,
	at INTEGER NOT NULL,
	client_cut INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (session, seq)
) WITHOUT ROWID;
`

// storedDesign is the design without its items, as the study table keeps
// it (the items have their own table).
type storedDesign struct {
	Version    string `json:"version"`
	Protocol   string `json:"protocol"`
	Complexity string `json:"complexity"`
	Strata     string `json:"strata"`
	Settings   string `json:"settings"`
	Seed       uint64 `json:"seed"`
	Tests      int    `json:"tests"`
	Intro      Intro  `json:"intro"`
}

// Study is a study in its database. Its methods are safe for concurrent
// use; one process at a time may serve a database.
type Study struct {
	db     *sql.DB
	design Design
	// tests holds each test's items, as indices into design.Items.
	tests [][]int
	// glyphs holds each item's names for Good, Evil and its objects,
	// drawn test by test (see glyphs).
	glyphs [][]string
	// write serialises the writes of this process, so that they queue in
	// Go rather than spin on SQLite's lock.
	write sync.Mutex
	mu    sync.Mutex
	live  map[string]*live // by token hash
	// maxLive bounds len(live) (maxSessionsInMemory).
	maxLive int
	// path and file are the database's name and the file it named when
	// the study was opened: a write is kept only if the name still names
	// that file (see stillThere).
	path string
	file os.FileInfo
	// release drops the lock OpenHeld took; nil when the study holds none.
	release func()
	// schema is the database's schema version: 1 only for a database of
	// version 1 that could not be migrated (a read-only file), which is
	// read as it is.
	schema int
	// clock is the connection that keeps the server's timers (keepClock),
	// nil when the schema has no place for them; instance tells this
	// Study's timers from another process's.
	clock    *sql.Conn
	instance int64
	// now is the clock of the server's timers: time.Now, or a test's.
	now func() time.Time
}

// Open opens the study in the database at path. A database without a study
// gets d's (ErrNoStudy when d is nil); one with a study keeps it, and d,
// when not nil, must be the same test (ErrOtherDesign, saying what
// differs). A file that is not a SQLite database, or that holds something
// else, is refused.
func Open(path string, d *Design) (*Study, error) {
	if d == nil {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNoStudy)
		}
	} else if err := checkDesign(d); err != nil {
		return nil, err
	}
	// The pragmas are set on every connection the pool opens: WAL lets
	// the researcher's export read while participants write, and
	// synchronous=FULL makes each commit durable before Move returns.
	q := url.Values{"_pragma": {"journal_mode(WAL)", "synchronous(FULL)", "foreign_keys(ON)", "busy_timeout(10000)"}}
	db, err := sql.Open("sqlite", "file:"+url.PathEscape(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s := &Study{db: db, live: map[string]*live{}, maxLive: maxSessionsInMemory, path: path, now: time.Now}
	if err := s.load(path, d); err != nil {
		db.Close()
		return nil, err
	}
	if s.file, err = os.Stat(path); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.openClock(); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// stillThere says, after a commit, that the study's path still names the
// file the study opened. A file deleted, moved or replaced while the
// study is open keeps taking SQLite's writes, which are lost with it (a
// moved file is also parted from its write-ahead log, which keeps the
// name), so a write is answered as kept only if the file still has its
// name. One stat a write, beside the commit's fsync.
func (s *Study) stillThere() error {
	fi, err := os.Stat(s.path)
	if err != nil || !os.SameFile(fi, s.file) {
		return fmt.Errorf("%w: %s", ErrFileGone, s.path)
	}
	return nil
}

// checkDesign refuses a design that cannot be given.
func checkDesign(d *Design) error {
	if d.Tests < 1 {
		return fmt.Errorf("a study needs at least one test; the design has %d", d.Tests)
	}
	if len(d.Items) == 0 {
		return fmt.Errorf("the design has no items")
	}
	given := make([]bool, d.Tests)
	for i, it := range d.Items {
		if it.Test < 1 || it.Test > d.Tests {
			return fmt.Errorf("item %d (%s) is of test %d; the design has tests 1 to %d", i+1, it.Name, it.Test, d.Tests)
		}
		given[it.Test-1] = true
		if it.Steps < 1 || it.Steps > exam.MaxSteps {
			return fmt.Errorf("item %d (%s) has %d steps; an item has 1 to %d", i+1, it.Name, it.Steps, exam.MaxSteps)
		}
		if it.Source == "" {
			return fmt.Errorf("item %d (%s) has no source, which the study must keep", i+1, it.Name)
		}
	}
	for k, ok := range given {
		if !ok {
			return fmt.Errorf("test %d has no items", k+1)
		}
	}
	return nil
}

// load reads the study, creating d's when the database has none.
func (s *Study) load(path string, d *Design) error {
	var tables int
	err := s.db.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&tables)
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) && sqliteErr.Code() == sqliteCantOpen {
		return fmt.Errorf("%s: cannot open or create the database file (is its folder there, writable, and the path not a folder?): %w", path, err)
	}
	if err != nil {
		return fmt.Errorf("%s: not a SQLite database, or a damaged one: %w", path, err)
	}
	if tables == 0 {
		if d == nil {
			return fmt.Errorf("%s: %w", path, ErrNoStudy)
		}
		if err := s.create(d); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	var version int
	var design string
	err = s.db.QueryRow(`SELECT schema, design FROM study`).Scan(&version, &design)
	if err != nil {
		return fmt.Errorf("%s: a SQLite database, but not a study's: %w", path, err)
	}
	if version > schemaVersion {
		return fmt.Errorf("%s: the study's schema is version %d; this anynt reads versions 1 to %d (a newer anynt wrote it)", path, version, schemaVersion)
	}
	if version < 1 {
		return fmt.Errorf("%s: the study's schema is version %d, which no anynt writes", path, version)
	}
	if s.schema, err = s.migrate(version); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var sd storedDesign
	if err := json.Unmarshal([]byte(design), &sd); err != nil {
		return fmt.Errorf("%s: the study's design is not readable: %w", path, err)
	}
	s.design = Design{Version: sd.Version, Protocol: sd.Protocol, Complexity: sd.Complexity, Strata: sd.Strata,
		Settings: sd.Settings, Seed: sd.Seed, Tests: sd.Tests, Intro: sd.Intro}
	if s.design.Items, err = s.loadItems(); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := checkDesign(&s.design); err != nil {
		return fmt.Errorf("%s: the stored design: %w", path, err)
	}
	s.tests = make([][]int, s.design.Tests)
	for i, it := range s.design.Items {
		s.tests[it.Test-1] = append(s.tests[it.Test-1], i)
	}
	s.glyphs = make([][]string, len(s.design.Items))
	for _, test := range s.tests {
		var before []string
		for _, i := range test {
			it := s.design.Items[i]
			s.glyphs[i] = glyphs(it, 2+len(it.Env.Objects), before)
			before = s.glyphs[i]
		}
	}
	if d != nil {
		if err := sameDesign(&s.design, d); err != nil {
			return fmt.Errorf("%s: %w: %s", path, ErrOtherDesign, err)
		}
	}
	return nil
}

// create writes d into an empty database, in one transaction.
func (s *Study) create(d *Design) error {
	design, err := json.Marshal(storedDesign{Version: d.Version, Protocol: d.Protocol, Complexity: d.Complexity,
		Strata: d.Strata, Settings: d.Settings, Seed: d.Seed, Tests: d.Tests, Intro: d.Intro})
	if err != nil {
		return err
	}
	tx, err := s.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // after Commit, a no-op
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("creating the tables: %w", err)
	}
	if _, err := tx.Exec(`INSERT INTO study (id, schema, design) VALUES (1, ?, ?)`, schemaVersion, string(design)); err != nil {
		return err
	}
	for i, it := range d.Items {
		_, err := tx.Exec(`INSERT INTO items (position, test, number, name, steps, seed, complexity, bits, kapprox, cells, source)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			i, it.Test, it.Number, it.Name, it.Steps, int64(it.Seed), it.Complexity, it.Bits, it.KApprox, it.Cells, it.Source)
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}

// loadItems reads the items and loads each environment from its source.
func (s *Study) loadItems() ([]exam.Item, error) {
	rows, err := s.db.Query(`SELECT test, number, name, steps, seed, complexity, bits, kapprox, cells, source FROM items ORDER BY position`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var items []exam.Item
	for rows.Next() {
		var it exam.Item
		var seed int64
		if err := rows.Scan(&it.Test, &it.Number, &it.Name, &it.Steps, &seed, &it.Complexity, &it.Bits, &it.KApprox, &it.Cells, &it.Source); err != nil {
			return nil, err
		}
		it.Seed = uint64(seed)
		f, err := lang.Parse(it.Name, []byte(it.Source))
		if err != nil {
			return nil, fmt.Errorf("the stored item %s: %w", it.Name, err)
		}
		if it.Env, err = env.Load(f); err != nil {
			return nil, fmt.Errorf("the stored item %s: %w", it.Name, err)
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// sameDesign says how d differs from the stored design, in what decides
// the test a participant takes; nil when it does not. The version and the
// report's presentation (Complexity, Strata) may differ, and so may the
// sources' comments, which name the version that wrote them.
func sameDesign(stored, d *Design) error {
	switch {
	case stored.Protocol != d.Protocol:
		return fmt.Errorf("its protocol is %q, not %q", stored.Protocol, d.Protocol)
	case stored.Seed != d.Seed:
		return fmt.Errorf("its seed is %d, not %d", stored.Seed, d.Seed)
	case stored.Tests != d.Tests:
		return fmt.Errorf("it has %d tests, not %d", stored.Tests, d.Tests)
	case stored.Settings != d.Settings:
		return fmt.Errorf("its settings are %q, not %q", stored.Settings, d.Settings)
	case stored.Intro.Consent != d.Intro.Consent:
		return fmt.Errorf("its consent text differs")
	case stored.Intro.AskCode != d.Intro.AskCode:
		return fmt.Errorf("it asks for a code: %t, not %t", stored.Intro.AskCode, d.Intro.AskCode)
	case !slices.Equal(stored.Intro.Questions, d.Intro.Questions):
		return fmt.Errorf("its questions are %q, not %q", stored.Intro.Questions, d.Intro.Questions)
	case len(stored.Items) != len(d.Items):
		return fmt.Errorf("it has %d items, not %d", len(stored.Items), len(d.Items))
	}
	for i, a := range stored.Items {
		b := d.Items[i]
		switch {
		case a.Test != b.Test || a.Name != b.Name:
			return fmt.Errorf("its item %d is %s of test %d, not %s of test %d", i+1, a.Name, a.Test, b.Name, b.Test)
		case a.Steps != b.Steps:
			return fmt.Errorf("its item %d (%s) has %d steps, not %d", i+1, a.Name, a.Steps, b.Steps)
		case a.Seed != b.Seed:
			return fmt.Errorf("its item %d (%s) has seed %d, not %d", i+1, a.Name, a.Seed, b.Seed)
		case withoutComments(a.Source) != withoutComments(b.Source):
			return fmt.Errorf("its item %d (%s) has another source", i+1, a.Name)
		}
	}
	return nil
}

// withoutComments drops the source's comment lines.
func withoutComments(src string) string {
	var b strings.Builder
	for line := range strings.Lines(src) {
		if !strings.HasPrefix(strings.TrimSpace(line), "#") {
			b.WriteString(line)
		}
	}
	return b.String()
}

// Design is the stored design. Its Items' environments are shared: the
// caller must not change them.
func (s *Study) Design() Design {
	d := s.design
	d.Items = append([]exam.Item(nil), d.Items...)
	d.Intro.Questions = append([]string(nil), d.Intro.Questions...)
	return d
}

// OpenHeld opens the study at path as Open does, for a process that
// records moves in it: it first takes the database file for this study
// alone, until Close, so that two servers never interleave their writes
// (their sessions' numbers and moves would collide on the tables' keys,
// and two that start at once on a new file would both create the study).
// A second OpenHeld of the same file, from any process and through any
// path to it (a symbolic or a hard link), is refused with ErrHeld before
// it reads anything. The lock is on the file itself, its device and
// inode (internal/filelock.Hold), not on a name: no file beside it can be
// removed to let a second holder in. Readers (Open, then Records; anynt
// results) take no lock and read while the holder writes.
func OpenHeld(path string, d *Design) (*Study, error) {
	if d == nil { // Hold would create the file
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: %w", path, ErrNoStudy)
		}
	}
	release, err := filelock.Hold(path)
	if errors.Is(err, filelock.ErrHeld) {
		return nil, fmt.Errorf("%s: %w", path, ErrHeld)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot be written, so cannot be held to record moves (is its folder there, and the file and folder writable?): %w", path, err)
	}
	s, err := Open(path, d)
	if err != nil {
		release()
		return nil, err
	}
	s.release = release
	return s, nil
}

// Close closes the database. Every move was committed when it was
// answered, so nothing is lost. A study that holds the database (OpenHeld)
// first checkpoints its write-ahead log into the database file, so that
// the file alone holds the study (SQLite then removes the -wal and -shm
// files as the last connection closes, unless a reader still has one
// open), and releases the lock once the database is closed.
func (s *Study) Close() error {
	err := s.closeClock()
	if s.release != nil && err == nil {
		_, err = s.db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`)
		if err != nil {
			err = fmt.Errorf("%s: checkpointing the write-ahead log: %w", s.path, err)
		}
	}
	if cerr := s.db.Close(); err == nil {
		err = cerr
	}
	if s.release != nil {
		s.release()
		s.release = nil
	}
	return err
}

// CheckWritable says whether the study can record moves: it writes to the
// database in a transaction it rolls back, so that a file the process may
// read but not write (its permissions, a read-only mount) is found before
// a participant starts rather than at their first move. Open does not
// check it, since a researcher may read a study from a read-only copy.
func (s *Study) CheckWritable() error {
	s.write.Lock()
	defer s.write.Unlock()
	tx, err := s.db.Begin()
	if err != nil {
		return fmt.Errorf("%s: cannot be written: %w", s.path, err)
	}
	defer tx.Rollback() // the write is a probe, never kept
	if _, err := tx.Exec(`UPDATE study SET schema = schema WHERE id = 1`); err != nil {
		return fmt.Errorf("%s: cannot be written: %w", s.path, err)
	}
	return nil
}
