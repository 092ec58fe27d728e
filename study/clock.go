package study

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"modernc.org/sqlite"
)

// NetworkAllowance is how much shorter than the server's measure a page's
// time of a move may be and still count: the server's timer runs from
// serving the view to receiving the move, the page's from drawing the view
// to the click, so the server's is longer by the view's way to the page,
// its drawing and the move's way back. A page's time shorter than the
// server's less this allowance is not a measure of that move (a page can
// say anything: 1 ms after 2 s of thought), and the server's less the
// allowance counts in its place, the record saying the claim was cut
// (Record.ClientCut). Half a second holds the round trips of a loaded
// mobile network; a study whose records show many cuts was served over a
// slower one. The first step of each exercise after the first has no such
// floor: its view came with the answer to the last move of the exercise
// before, the server's clock runs through the pause screen between the
// two, which is no think, and the page's clock starts when Continue draws
// the exercise. There a page is trusted below the server's measure, on one
// step an exercise.
const NetworkAllowance = 500 * time.Millisecond

// sqliteReadOnly is SQLite's primary result code SQLITE_READONLY.
const sqliteReadOnly = 8

// migrate brings a database of schema version 1 to this one's: the
// sessions get the server's timer (served_seq, served_at, served_by,
// served_again) and the interactions client_cut, all with defaults that
// say what version 1 recorded (no timer kept, no claim cut). A database
// that cannot be written (a read-only copy) stays at version 1 and is
// read as it is. It returns the version the database now has.
func (s *Study) migrate(version int) (int, error) {
	if version == schemaVersion {
		return version, nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return 0, err
	}
	defer tx.Rollback() // after Commit, a no-op
	for _, stmt := range []string{
		`ALTER TABLE sessions ADD COLUMN served_seq INTEGER NOT NULL DEFAULT -1`,
		`ALTER TABLE sessions ADD COLUMN served_at INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE sessions ADD COLUMN served_by INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE sessions ADD COLUMN served_again INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE interactions ADD COLUMN client_cut INTEGER NOT NULL DEFAULT 0`,
		`UPDATE study SET schema = 2 WHERE id = 1`,
	} {
		if _, err = tx.Exec(stmt); err != nil {
			break
		}
	}
	if err == nil {
		err = tx.Commit()
	}
	var sqliteErr *sqlite.Error
	if errors.As(err, &sqliteErr) && sqliteErr.Code()&0xff == sqliteReadOnly {
		return version, nil
	}
	if err != nil {
		return 0, fmt.Errorf("adding schema version %d's columns to a study of version %d: %w", schemaVersion, version, err)
	}
	return schemaVersion, nil
}

// openClock takes the connection that keeps the server's timers, with
// synchronous=NORMAL: a timer matters only to the process that started
// it (after a restart the server's time of the move under way is unknown
// anyway), so its write needs no fsync of its own. It reaches the disk
// with the next move's commit, whose fsync of the write-ahead log covers
// the frames before it, and is in the operating system's cache as soon
// as it is written, where an eviction from this process's memory cannot
// erase it.
func (s *Study) openClock() error {
	var id [8]byte
	crand.Read(id[:]) // crypto/rand never fails
	s.instance = int64(binary.LittleEndian.Uint64(id[:]) >> 1)
	if s.schema < 2 {
		return nil
	}
	c, err := s.db.Conn(context.Background())
	if err != nil {
		return err
	}
	if _, err := c.ExecContext(context.Background(), `PRAGMA synchronous = NORMAL`); err != nil {
		c.Close()
		return err
	}
	s.clock = c
	return nil
}

// closeClock gives the timers' connection back to the pool as the pool's
// others are, synchronous=FULL, so that no move is ever committed on it
// without its fsync.
func (s *Study) closeClock() error {
	if s.clock == nil {
		return nil
	}
	_, err := s.clock.ExecContext(context.Background(), `PRAGMA synchronous = FULL`)
	if cerr := s.clock.Close(); err == nil {
		err = cerr
	}
	s.clock = nil
	return err
}

// keepClock writes l's server timer into its session's row: the step it
// times, when its view was first served, by which Study, and whether it
// was served again. A session let go from memory and rebuilt by this
// Study gets its timer back (readClock), so that a script that starts
// sessions to push a participant's out of memory cannot make the server's
// time of their move unknown and the page's claim trusted. A timer that
// cannot be written stays in memory only, and the session is kept there
// (hold) until one can.
func (s *Study) keepClock(l *live) {
	if s.clock == nil {
		return
	}
	s.write.Lock()
	defer s.write.Unlock()
	_, err := s.clock.ExecContext(context.Background(),
		`UPDATE sessions SET served_seq = ?, served_at = ?, served_by = ?, served_again = ? WHERE number = ?`,
		l.seq, l.served.UnixNano(), s.instance, l.servedAgain, l.number)
	l.clockUnkept = err != nil
}

// readClock gives a session rebuilt from the database the timer this
// Study kept for its step under way; a timer of another process (before
// a restart) or of another step stays unknown.
func (s *Study) readClock(l *live) error {
	if s.schema < 2 {
		return nil
	}
	var seq int
	var at, by int64
	var again bool
	err := s.db.QueryRow(`SELECT served_seq, served_at, served_by, served_again FROM sessions WHERE number = ?`,
		l.number).Scan(&seq, &at, &by, &again)
	if err != nil {
		return fmt.Errorf("reading the session's timer: %w", err)
	}
	if by == s.instance && seq == l.seq {
		l.served, l.servedAgain = time.Unix(0, at), again
	}
	return nil
}

// took is the time a move took, in milliseconds, for the payoffs, and
// whether the page's claim was cut. The page's clock runs from showing
// the view to the click, without the network's delays, but a page can say
// anything; the server's, from first serving the view to receiving the
// click, bounds it from above, and, less NetworkAllowance, from below
// (floor; Move leaves the floor out on the first step of an exercise after
// the first, whose server time holds the pause screen between the two).
// When the server's is known (known), the page's time counts within those
// bounds; a longer one, or none (Move passes a client of 0 when the step's
// view was served again), gives the server's; a shorter one gives the
// server's less the allowance, and is cut. When the server's is unknown (a
// restart came between the view and the move), the page's counts up to an
// hour. Never below a millisecond, so that the times of a run increase.
func took(client, server float64, known, floor bool) (ms float64, cut bool) {
	allowance := float64(NetworkAllowance.Milliseconds())
	switch {
	case !known:
		if client > 0 && client <= maxClientMillis {
			return max(client, 1), false
		}
		return 1, false
	case client <= 0 || client > server:
		return max(server, 1), false
	case floor && client < server-allowance:
		return max(server-allowance, 1), true
	}
	return max(client, 1), false
}
