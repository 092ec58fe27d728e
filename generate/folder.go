package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anynt/anynt/internal/filelock"
)

// An output folder (enumerate --out, evolve --out) is written so that a
// run killed at any moment leaves it consistent: every file is replaced
// whole (writeFileAtomic), one run at a time holds the folder (its lock
// file, through internal/filelock), and the run's state file says what a
// resumed run must find there.

// ErrFolderBusy is the cause of the error a run gets when another run holds
// its output folder.
var ErrFolderBusy = errors.New("another run is using the folder")

// lockName is the lock file of an output folder.
const lockName = ".lock"

// tempMark is in the name of every temporary file, so that the leftovers
// of a killed run can be told apart and removed.
const tempMark = ".tmp-"

// openFolder creates dir if needed, takes its lock and removes the
// temporary files a killed run left. The lock is held until release is
// called or the process ends.
func openFolder(dir string) (release func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	release, err = filelock.Lock(filepath.Join(dir, lockName))
	if errors.Is(err, filelock.ErrHeld) {
		return nil, busy(dir)
	}
	if err != nil {
		return nil, err
	}
	leftovers, err := filepath.Glob(filepath.Join(dir, ".*"+tempMark+"*"))
	if err != nil {
		release()
		return nil, err
	}
	for _, p := range leftovers {
		if err := os.Remove(p); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// writeFileAtomic replaces path with data so that a crash leaves either the
// old file or the new one, whole: it writes a temporary file in the same
// folder, syncs it, renames it over path and syncs the folder, so that the
// rename itself is on the disk.
func writeFileAtomic(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+tempMark+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(dir)
}

// syncDir makes the folder's entries (a rename, a new file) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// busy is the error for a folder another run holds.
func busy(dir string) error {
	return fmt.Errorf("%s: %w (it holds the lock on %s); wait for that run to end or use another folder",
		strings.TrimSuffix(dir, string(filepath.Separator)), ErrFolderBusy, lockName)
}

// readState reads the JSON state at path into v and reports whether there
// was one. A folder without a state must hold no file that matches
// leftovers, the output of an earlier run whose state is gone: resuming
// would mix two runs, so that is an error, as is a state that is not JSON.
func readState(path, leftovers string, v any) (found bool, err error) {
	dir := filepath.Dir(path)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		old, err := filepath.Glob(filepath.Join(dir, leftovers))
		if err != nil {
			return false, err
		}
		if len(old) > 0 {
			return false, fmt.Errorf("%s holds %s and more of a run without its state; use another folder or remove them", dir, filepath.Base(old[0]))
		}
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s is damaged: %w; use another folder", path, err)
	}
	return true, nil
}
