// Package atomicfile replaces files whole: a crash, a full disk or a
// killed process leaves either the old file or the new one, never a file
// cut in the middle.
//
// Write puts the data in a temporary file beside the target (the same
// folder, so the same file system), syncs it, gives it the target's mode,
// renames it over the target and syncs the folder, so that the rename is
// on the disk too. A rename within a folder is atomic on POSIX file
// systems; writing in place (os.WriteFile) truncates first, and a failed
// write then loses the file. The temporary file's name holds TempMark, so
// that a program that owns a folder (generate's output folders) can remove
// the leftovers of a killed run.
//
// The price of the rename: the folder must be writable, not only the
// file, and a hard link to the old file keeps the old contents. A
// symbolic link is followed, so that the file it points at is replaced
// (or, for a dangling link, created) and the link stays a link. A new file
// is created asking for 0644, so that the umask applies as it does to
// os.WriteFile; an existing one keeps its bits.
package atomicfile
