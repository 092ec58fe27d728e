package filelock

import "errors"

// ErrHeld is the cause of the error of a Lock that another holder has.
var ErrHeld = errors.New("the lock is held")
