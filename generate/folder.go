package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/internal/filelock"
)

// An output folder (enumerate --out, evolve --out) is written so that a
// run killed at any moment leaves it consistent: every file is replaced
// whole (atomicfile.Write), one run at a time holds the folder (its lock
// file, through internal/filelock), and the run's state file says what a
// resumed run must find there.

// ErrFolderBusy is the cause of the error a run gets when another run holds
// its output folder.
var ErrFolderBusy = errors.New("another run is using the folder")

// lockName is the lock file of an output folder.
const lockName = ".lock"

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
	leftovers, err := filepath.Glob(filepath.Join(dir, ".*"+atomicfile.TempMark+"*"))
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
