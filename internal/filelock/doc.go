// Package filelock gives a process a file for itself: an output folder of
// a run (package generate), the database of a served study (package
// study). Lock creates the lock file and takes it; a second Lock of the
// same path, from any process, fails with ErrHeld until the first is
// released.
//
// On Unix the lock is flock(2), which the kernel drops when its process
// ends, however it ends: a killed process leaves no stale lock, and a
// lock file left behind blocks no one. Release removes the file first, so
// a lock released cleanly leaves nothing behind; a Lock that took the
// file as its holder removed it sees that the name now names another
// file (or none) and takes the lock again on the name. Elsewhere the lock
// is the file itself, created exclusively and removed on release: a
// killed process leaves it, and the error says to remove it by hand.
//
// Hold takes a file itself rather than a lock file beside it: on Linux an
// open file description lock on the file's first byte, which belongs to
// its device and inode, so that no other name of the file (a hard link)
// and no lock file removed by hand lets a second holder in. Package study
// holds its database so; the byte is one SQLite never locks.
package filelock
