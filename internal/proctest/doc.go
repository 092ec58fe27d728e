// Package proctest holds what the tests of agents' process groups and of
// signals share: reading the process ids an agent wrote, checking that
// processes have ended, and a pseudo-terminal on which a program run as a
// child draws its progress, the event a test waits for before it signals
// the program. It reads Linux's /proc and opens Linux's /dev/ptmx, so it
// is for tests built on Linux; a zombie waiting to be reaped counts as
// ended, since it runs nothing.
package proctest
