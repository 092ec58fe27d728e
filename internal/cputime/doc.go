// Package cputime reads the CPU time the process has used, user and
// system together, all threads: what `anynt enumerate --estimate` measures
// a sample of the filters with, since they run on every core and a
// cluster's array job is sized in CPU time, not wall time. Where the
// operating system gives no such figure to Go's syscall package (it does
// on every Unix), Used reports false and the caller says what it measured
// instead.
package cputime
