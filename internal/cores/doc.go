// Package cores runs independent jobs on all of the machine's cores, with
// results that do not depend on how many there are.
//
// A job is an index k in 0…n−1 that writes only its own slot of the
// caller's result (its own seed decides its random draws), so the result
// is the same bit for bit on one core or many and whatever order the jobs
// finish in. Workers take the next index as each finishes, so a slow job
// does not hold up the others; each worker may keep its own state from
// job to job (a memo, a reused buffer), which is exact because a job's
// result never depends on what the worker did before.
//
// Both the exam (items of a test drawn and taken) and the environment's
// evaluation (episodes of one agent) run through Each, which is why it
// sits below both in internal/. With one core, or one job, Each calls the
// jobs in order on the caller's goroutine: a small job pays no goroutine
// start-up or locking.
package cores
