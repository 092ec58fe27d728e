// Package proctest holds what the tests of agents' process groups share:
// reading the process ids an agent wrote, and checking that processes have
// ended. It reads Linux's /proc, so it is for tests built on Linux; a
// zombie waiting to be reaped counts as ended, since it runs nothing.
package proctest
