// Package deploy holds what runs anynt beyond one machine, and its tests:
// the Slurm array job of deploy/slurm/ (array.sbatch, one task a shard of
// anynt enumerate, kept in a pack, or of anynt test, kept in a folder, and
// merge.sbatch, its merge step, chained with afterany, in one step or in a
// tree) and the Kubernetes Indexed Job of deploy/k8s/ (the manifest, the
// container image's Dockerfile, and wait-job, which waits for the Job to
// be Complete or Failed); anynt merge joins the shards.
// docs/cluster.md is the user's guide. The package has no code of its own;
// its tests are the specification of these files.
//
// The Slurm test starts a real single-node cluster (scripts/slurm-local,
// from Debian's slurmctld, slurmd and munge, every file in a temporary
// folder), submits an enumeration and a battery as array jobs of four
// tasks with their merge steps, kills one enumeration task mid-run and
// requeues it (scontrol requeuehold, then release, so that what its first
// run wrote is read before a second starts), sends another the signal of
// its time limit, and checks that the requeued tasks resumed (to the pack
// an uninterrupted run writes), and that the merge steps ran and give the
// unsharded runs, bit for bit. The cluster runs under a watchdog that
// stops it when the test process ends, however it ends, and a test kills
// a test process holding a cluster with SIGKILL and checks that the
// daemons end. The task is killed at a point fixed by construction, not by
// timing: its standard output goes through a pipe that stops being read
// after a few lines, so that anynt blocks with part of its pack written,
// and the test requeues it only then. Without slurmctld, or not as root (the
// daemons run as root), the test skips and says how to install it, unless
// ANYNT_SLURM=1 asks for it: CI (.ci/run) does, so that a missing Slurm
// fails CI rather than passing it untested.
//
// The other tests need no cluster: the array script's mapping of Slurm's
// task numbers (from 0 or from 1) to shards and its refusals, run with
// the variables Slurm sets, and its tasks run one after another and
// merged; and the Kubernetes manifest, parsed and checked (an Indexed Job
// whose completions are the shards' count, a volume for the output,
// per-index retries), its container's script then run for every index on
// this machine and merged, and wait-job run against a stand-in kubectl. No Kubernetes cluster is
// available here, so the manifest is never applied to one in the tests.
package deploy
