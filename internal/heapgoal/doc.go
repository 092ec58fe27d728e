// Package heapgoal keeps Go's garbage collector from running while the
// heap is still small, as the Go compiler does for the same reason
// (cmd/compile's AdjustStartingHeap; this is our own, smaller version).
//
// Under the default GOGC=100 the collector runs each time the heap has
// doubled since the last collection, with a first goal of 4 MB. A test
// run keeps 5–10 MB live while it allocates hundreds of megabytes of short
// lives (items, episodes, reports), so it collected every 4–5 MB: about
// twenty times for a 200-test Λ_one job, 11% of its CPU, and on two cores
// each collection also stops and wakes both workers, which is much of why
// two cores gave the job less than 1.8× one (docs/tests.md, "On all
// cores").
//
// Start sets the collector's percentage after each collection so that the
// next goal is Floor (64 MiB) while the live heap is small, and gives the
// default back once twice the live heap passes Floor: a job's peak memory
// grows to at most Floor while it is small, and a large job (a 5 MB rule
// file) is collected exactly as before. A GOGC in the environment is the
// user's choice and is left alone; GOMEMLIMIT still holds, since the
// runtime collects at the limit whatever the percentage.
package heapgoal
