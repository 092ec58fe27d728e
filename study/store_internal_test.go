package study

import (
	"path/filepath"
	"testing"

	"github.com/anynt/anynt/exam"
)

// Every connection of the pool runs with the settings the durability
// promise rests on: WAL, synchronous=FULL (2), foreign keys, a busy
// timeout.
func TestConnectionsAreDurable(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 1, "test")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(filepath.Join(t.TempDir(), "s.db"), &Design{Protocol: "lambda-one", Seed: 1, Tests: 1, Items: items})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.db.SetMaxIdleConns(0) // each query below on a new connection
	for range 3 {
		var mode string
		var sync, keys, busy int
		err := s.db.QueryRow(`SELECT journal_mode, synchronous, foreign_keys, timeout
			FROM pragma_journal_mode, pragma_synchronous, pragma_foreign_keys, pragma_busy_timeout`).Scan(&mode, &sync, &keys, &busy)
		if err != nil {
			t.Fatal(err)
		}
		if mode != "wal" || sync != 2 || keys != 1 || busy < 1000 {
			t.Errorf("journal_mode %s, synchronous %d, foreign_keys %d, busy_timeout %d; want wal, 2, 1, ≥ 1000", mode, sync, keys, busy)
		}
	}
}
