package deploy

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/anynt/anynt/generate"
)

// askSlurm asks for the Slurm test: with ANYNT_SLURM=1, as CI (.ci/run)
// sets it, a machine without Slurm fails the test instead of skipping it.
const askSlurm = "ANYNT_SLURM"

// slurmPrograms are what scripts/slurm-local and the test run, from
// Debian's slurmctld, slurmd, slurm-client and munge.
var slurmPrograms = []string{"slurmctld", "slurmd", "munged", "mungekey", "sbatch", "scontrol", "squeue", "sinfo", "scancel"}

// needSlurm says whether the Slurm test can run, given askSlurm's value:
// it runs (both empty), skips (skip says why) or fails (err: asked for and
// impossible, or a value that is neither 1, 0 nor empty).
func needSlurm(asked string, uid int, look func(string) (string, error)) (skip string, err error) {
	if asked != "" && asked != "0" && asked != "1" {
		return "", fmt.Errorf("%s is %q; it must be 1 (the Slurm test must run, and fail without Slurm) or 0 or unset (it runs when Slurm is there)", askSlurm, asked)
	}
	var missing []string
	for _, p := range slurmPrograms {
		if _, err := look(p); err != nil {
			missing = append(missing, p)
		}
	}
	var why string
	switch {
	case len(missing) > 0:
		why = fmt.Sprintf("no %s on PATH: apt-get install slurmctld slurmd slurm-client munge (.ci/run does)", strings.Join(missing, ", "))
	case uid != 0:
		why = "not root: the single-node cluster's daemons run as root (SlurmUser=root)"
	default:
		return "", nil
	}
	if asked == "1" {
		return "", fmt.Errorf("%s=1 asks for the Slurm test, and it cannot run: %s", askSlurm, why)
	}
	return fmt.Sprintf("skipped: %s. The Slurm test runs when Slurm is installed and the test runs as root, and %s=1, as CI sets, makes its absence a failure", why, askSlurm), nil
}

func TestNeedSlurm(t *testing.T) {
	all := func(string) (string, error) { return "/usr/bin/x", nil }
	none := func(p string) (string, error) { return "", exec.ErrNotFound }
	noMunge := func(p string) (string, error) {
		if p == "munged" {
			return "", exec.ErrNotFound
		}
		return "/usr/bin/" + p, nil
	}
	cases := []struct {
		asked      string
		uid        int
		look       func(string) (string, error)
		skip, fail bool
		says       string
	}{
		{"", 0, all, false, false, ""},
		{"1", 0, all, false, false, ""},
		{"", 0, none, true, false, "apt-get install slurmctld slurmd slurm-client munge"},
		{"0", 0, noMunge, true, false, "no munged on PATH"},
		{"1", 0, noMunge, false, true, "no munged on PATH"},
		{"", 1000, all, true, false, "not root"},
		{"1", 1000, all, false, true, "not root"},
		{"yes", 0, all, false, true, "must be 1"},
	}
	for _, c := range cases {
		skip, err := needSlurm(c.asked, c.uid, c.look)
		if (skip != "") != c.skip || (err != nil) != c.fail {
			t.Errorf("asked %q, uid %d: skip %q, err %v; want skip %v, failure %v", c.asked, c.uid, skip, err, c.skip, c.fail)
			continue
		}
		if got := skip + fmt.Sprint(err); c.says != "" && !strings.Contains(got, c.says) {
			t.Errorf("asked %q, uid %d: %q does not say %q", c.asked, c.uid, got, c.says)
		}
	}
}

// startCluster starts a single-node Slurm cluster in dir with
// scripts/slurm-local under a watchdog (startWatched), stopped when the
// test ends, and returns the environment that points Slurm's commands at
// it.
func startCluster(t *testing.T, dir string) []string {
	t.Helper()
	stop, err := startWatched(dir)
	if stop != nil {
		t.Cleanup(func() {
			if err := stop(); err != nil {
				t.Errorf("stopping the cluster: %v\n%s", err, clusterLogs(dir))
			}
		})
	}
	if err != nil {
		t.Fatalf("starting the cluster: %v\n%s", err, clusterLogs(dir))
	}
	return []string{"SLURM_CONF=" + filepath.Join(dir, "slurm.conf")}
}

// watchdog starts the cluster in $1 with scripts/slurm-local ($0), says
// so, and stops it when its standard input ends: when the process holding
// the pipe's other end closes it or ends, however it ends (a test killed
// by SIGKILL or by go test's timeout runs no cleanup). It runs in a session
// of its own, so that a signal to the test's process group does not end it
// before the cluster, and after starting it writes to a log, so that it
// does not hold the test's output open.
const watchdog = `trap '' PIPE
if ! "$0" start "$1"; then "$0" stop "$1"; exit 1; fi
echo "cluster up"
exec >>"$1/watchdog.log" 2>&1
cat >/dev/null
exec "$0" stop "$1"
`

// startWatched starts a cluster in dir under the watchdog, with its
// standard input a pipe whose writing end only this process holds, and
// returns once the cluster is up (or its start failed). stop closes that
// end and waits for the watchdog to have stopped the cluster; it is nil
// when the watchdog did not start.
func startWatched(dir string) (stop func() error, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	lifeline, held, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	report, reportW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("bash", "-c", watchdog, "../scripts/slurm-local", dir)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = lifeline, reportW, reportW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	lifeline.Close()
	reportW.Close()
	if err != nil {
		held.Close()
		report.Close()
		return nil, err
	}
	stop = func() error {
		held.Close()
		if err := cmd.Wait(); err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "watchdog.log"))
			return fmt.Errorf("the watchdog: %v\n%s", err, log)
		}
		return nil
	}
	// Until the watchdog says the cluster is up, or ends: no time limit
	// here, since slurm-local bounds its own waits.
	said, _ := io.ReadAll(report)
	report.Close()
	if !strings.Contains(string(said), "cluster up") {
		return stop, fmt.Errorf("scripts/slurm-local start %s failed:\n%s", dir, said)
	}
	return stop, nil
}

// clusterLogs are the daemons' logs, for a failure's message.
func clusterLogs(dir string) string {
	var b strings.Builder
	logs, _ := filepath.Glob(filepath.Join(dir, "log", "*.log"))
	for _, l := range logs {
		content, _ := os.ReadFile(l)
		fmt.Fprintf(&b, "== %s\n%s\n", l, content)
	}
	return b.String()
}

// gate is the ANYNT the test gives the array job: the first run of each
// task in GATE_TASKS has its standard output go through a pipe read for
// GATE_LINES lines and then never again. anynt enumerate --pack --json
// prints a frame's lines once the frame is on the disk, so when the gate
// stops reading the pack holds a frame or more; anynt then blocks once the
// pipe is full (64 KiB on Linux), with the rest of its shard unwritten as
// long as that rest prints more than the pipe holds. The task stays
// running, blocked, until the test requeues it: killed mid-run at a point
// fixed by construction, not by timing. Its second run is anynt itself.
const gate = `#!/usr/bin/env bash
id=$SLURM_ARRAY_TASK_ID
if [[ " $GATE_TASKS " == *" $id "* ]] && mkdir "$GATE_DIR/first-$id" 2>/dev/null; then
  "$ANYNT_REAL" "$@" | {
    i=0
    while [ "$i" -lt "$GATE_LINES" ] && IFS= read -r line; do
      printf '%s\n' "$line"
      i=$((i + 1))
    done
    touch "$GATE_DIR/stopped-$id"
    exec sleep 3600
  }
  exit 1
fi
exec "$ANYNT_REAL" "$@"
`

// jobs reads scontrol's fields of a job, or of each task of an array job
// (Slurm keeps them for MinJobAge, 300 s, after a job ends).
func jobs(t *testing.T, env []string, job string) []map[string]string {
	t.Helper()
	var all []map[string]string
	for line := range strings.Lines(run(t, env, "scontrol", "-o", "show", "job", job)) {
		fields := map[string]string{}
		for _, f := range strings.Fields(line) {
			if k, v, ok := strings.Cut(f, "="); ok {
				fields[k] = v
			}
		}
		all = append(all, fields)
	}
	return all
}

// taskStates reads each array task's JobState, ExitCode and Restarts.
func taskStates(t *testing.T, env []string, job string) map[int]map[string]string {
	t.Helper()
	states := map[int]map[string]string{}
	for _, fields := range jobs(t, env, job) {
		id, err := strconv.Atoi(fields["ArrayTaskId"])
		if err != nil {
			continue // the array's pending remainder, "1-3" and the like
		}
		states[id] = fields
	}
	return states
}

// submit submits script with sbatch's flags and the script's arguments,
// and returns the job's id.
func submit(t *testing.T, env []string, flags []string, script string, args ...string) string {
	t.Helper()
	submitted := run(t, env, "sbatch", append(append(append([]string{"--parsable"}, flags...), script), args...)...)
	job, _, _ := strings.Cut(strings.TrimSpace(submitted), ";")
	return job
}

// The merge steps of the Slurm test's two array jobs, chained with
// afterany when the arrays are submitted: the enumeration's in one step
// into all.pack, and in a tree (an array of two groups of two shards,
// then the groups) into tree.pack; the battery's report as --json.
type mergeJobs struct {
	all, groups, tree, report string
}

func submitMerges(t *testing.T, env []string, work, logs, job, testJob string) mergeJobs {
	t.Helper()
	out := filepath.Join(work, "envs")
	after := func(j string) string { return "--dependency=afterany:" + j }
	m := mergeJobs{
		all: submit(t, env, []string{after(job), "--output=" + filepath.Join(logs, "merge-all.out")},
			mergeScript, out, "--pack", filepath.Join(work, "all.pack")),
		groups: submit(t, env, []string{after(job), "--array=1-2", "--output=" + filepath.Join(logs, "merge-group-%a.out")},
			mergeScript, "--group", "2", out),
		report: submit(t, env, []string{after(testJob), "--output=" + filepath.Join(logs, "report.json"), "--error=" + filepath.Join(logs, "report.err")},
			mergeScript, filepath.Join(work, "results"), "--json"),
	}
	m.tree = submit(t, env, []string{after(m.groups), "--output=" + filepath.Join(logs, "merge-tree.out")},
		mergeScript, "--groups", out, "--pack", filepath.Join(work, "tree.pack"))
	return m
}

// checkCompleted checks that each job of want has its number of tasks,
// every one completed with exit status 0, and that the tasks restarted of
// the array job requeued ran twice and the others once.
func checkCompleted(t *testing.T, env []string, want map[string]int, requeued string, restarted ...int) {
	t.Helper()
	for job, n := range want {
		all := jobs(t, env, job)
		if len(all) != n {
			t.Errorf("job %s has %d tasks; want %d", job, len(all), n)
		}
		for _, s := range all {
			if s["JobState"] != "COMPLETED" || s["ExitCode"] != "0:0" {
				log, _ := os.ReadFile(s["StdOut"])
				t.Errorf("job %s (task %s): JobState %s, Reason %s, ExitCode %s; want COMPLETED, 0:0; its log:\n%s", job, s["ArrayTaskId"], s["JobState"], s["Reason"], s["ExitCode"], log)
			}
			id, err := strconv.Atoi(s["ArrayTaskId"])
			twice := err == nil && job == requeued && slices.Contains(restarted, id)
			if w := map[bool]string{true: "1", false: "0"}[twice]; s["Restarts"] != w {
				t.Errorf("job %s task %s restarted %s times; want %s", job, s["ArrayTaskId"], s["Restarts"], w)
			}
		}
	}
}

// TestSlurmArrayJobs submits an enumeration as an array job of four tasks
// numbered from 0, and a battery as one of four tasks numbered from 1, on a
// single-node cluster, with their merge steps chained with afterany (the
// enumeration's merged in one step and in a tree of two levels). It
// requeues one enumeration task mid-run (scontrol requeuehold), sends
// another the signal its time limit sends (SIGUSR1 to the batch shell,
// which requeues itself), and checks that every task and merge completed,
// the requeued tasks resumed (one to the pack an uninterrupted run of its
// shard writes), every merge gives the unsharded run bit for bit (the
// pack, in one step and in a tree, the --json lines, the test's report),
// and every --json line a task printed is the unsharded run's, none twice.
func TestSlurmArrayJobs(t *testing.T) {
	switch skip, err := needSlurm(os.Getenv(askSlurm), os.Getuid(), exec.LookPath); {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	bin := anynt(t)
	work := t.TempDir()
	cluster := startCluster(t, filepath.Join(work, "cluster"))

	// 8,753 candidates, about 2,190 a shard: a pack's frame ends every
	// 1,024 candidate positions, and a frame's lines (about 900 bytes
	// each) are printed once it is on the disk, far more than the gate's
	// pipe holds: tasks 1 and 2 block with a frame or two of their packs
	// written and the rest not.
	flags := []string{"--max-bits", "61"}
	total, _, err := generate.Count(61)
	if err != nil {
		t.Fatal(err)
	}
	battery := []string{"--protocol", "battery", "--generate", "52", "--agent", "random,oracle"}
	refLines := map[int]string{}
	ref := filepath.Join(work, "ref.pack")
	for _, l := range jsonLines(t, run(t, nil, bin, append([]string{"enumerate", "--json", "--pack", ref}, flags...)...)) {
		refLines[l.index] = l.line
	}
	gateDir := filepath.Join(work, "gate")
	if err := os.Mkdir(gateDir, 0o755); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(work, "anynt-gated")
	if err := os.WriteFile(wrapper, []byte(gate), 0o755); err != nil {
		t.Fatal(err)
	}
	// Task 2 (shard 3) is requeued by scontrol; task 1 (shard 2) is sent
	// its time limit's signal.
	const killed, signalled = 2, 1
	logs, out, results := filepath.Join(work, "logs"), filepath.Join(work, "envs"), filepath.Join(work, "results")
	if err := os.Mkdir(logs, 0o755); err != nil { // Slurm makes no folder for --output
		t.Fatal(err)
	}
	env := append(slices.Clone(cluster), "ANYNT="+wrapper, "ANYNT_REAL="+bin,
		"GATE_DIR="+gateDir, fmt.Sprintf("GATE_TASKS=%d %d", killed, signalled), "GATE_LINES=20")
	plain := append(slices.Clone(cluster), "ANYNT="+bin)
	job := submit(t, env, []string{"--array=0-3", "--output=" + filepath.Join(logs, "envs-%a.out")},
		arrayScript, append([]string{out, "enumerate", "--json"}, flags...)...)
	testJob := submit(t, plain, []string{"--array=1-4", "--output=" + filepath.Join(logs, "results-%a.out")},
		arrayScript, append([]string{results, "test"}, battery...)...)
	merges := submitMerges(t, plain, work, logs, job, testJob)
	task := job + "_" + strconv.Itoa(killed)
	pack := filepath.Join(out, "shard-"+strconv.Itoa(killed+1)+".pack")

	const limit = 5 * time.Minute
	for _, id := range []int{killed, signalled} {
		waitFor(t, fmt.Sprintf("task %d to block mid-run", id), limit, func() bool {
			_, err := os.Stat(filepath.Join(gateDir, "stopped-"+strconv.Itoa(id)))
			return err == nil
		})
	}
	// What Slurm does at --signal=B:USR1@300: SIGUSR1 to the batch shell.
	run(t, cluster, "scancel", "--batch", "--signal=USR1", job+"_"+strconv.Itoa(signalled))
	// requeuehold is requeue that keeps the task held until release, so
	// that the test reads what its first run wrote before a second starts,
	// whatever the load. PENDING once its processes are gone.
	run(t, cluster, "scontrol", "requeuehold", task)
	waitFor(t, "task 2 to be requeued", limit, func() bool {
		return taskStates(t, cluster, task)[killed]["JobState"] == "PENDING"
	})
	firstRun, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	// Slurm starts a requeued task once the credentials of its first run
	// have expired (the cluster's cred_expire: 5 s here, 120 s by default).
	run(t, cluster, "scontrol", "release", task)
	all := strings.Join([]string{job, testJob, merges.all, merges.groups, merges.tree, merges.report}, ",")
	waitFor(t, "the jobs to end", limit, func() bool {
		return strings.TrimSpace(run(t, cluster, "squeue", "-h", "-j", all)) == ""
	})
	checkCompleted(t, cluster, map[string]int{job: 4, testJob: 4,
		merges.all: 1, merges.groups: 2, merges.tree: 1, merges.report: 1}, job, killed, signalled)
	if t.Failed() {
		t.Log(clusterLogs(filepath.Join(work, "cluster")))
		t.FailNow()
	}

	// Killed mid-run, and resumed: the pack the second run ended with is
	// the one an uninterrupted run of the shard writes, bit for bit.
	final, err := os.ReadFile(pack)
	if err != nil {
		t.Fatal(err)
	}
	if len(firstRun) == 0 || len(firstRun) >= len(final) {
		t.Fatalf("task %d's first run wrote %d bytes of its pack's %d before it was killed; want some and not all", killed, len(firstRun), len(final))
	}
	alone := filepath.Join(work, "alone.pack")
	run(t, nil, bin, append([]string{"enumerate", "--shard", strconv.Itoa(killed+1) + "/4", "--pack", alone}, flags...)...)
	if !sameFile(t, pack, alone) {
		t.Errorf("task %d's pack, killed and resumed, differs from the shard's pack run uninterrupted", killed)
	}
	for _, id := range []int{killed, signalled} {
		log, err := os.ReadFile(filepath.Join(logs, fmt.Sprintf("envs-%d.out", id)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(log), "restart 1") || !strings.Contains(string(log), "in all (resumed)") ||
			id == signalled && !strings.Contains(string(log), "SIGUSR1, the time limit is near: requeueing") {
			t.Errorf("task %d's log does not show a second run that resumed the first:\n%s", id, log)
		}
	}

	// The merge steps, chained with afterany, ran after the requeued
	// tasks had finished: the whole run's pack, in one step and in a tree,
	// and the test's report.
	for _, p := range []string{"all.pack", "tree.pack"} {
		if !sameFile(t, filepath.Join(work, p), ref) {
			t.Errorf("the merge step's %s is not the unsharded run's pack", p)
		}
	}
	checkMerged(t, shardFiles(out, 4, ".pack"), flags...)
	want := run(t, nil, bin, append([]string{"test", "--json"}, battery...)...)
	if got, _ := os.ReadFile(filepath.Join(logs, "report.json")); string(got) != want {
		t.Errorf("the battery's merge step printed a report that is not the unsharded test's (%d and %d bytes)", len(got), len(want))
	}
	checkPrinted(t, logs, refLines, total, killed, signalled)
}

// checkPrinted checks the --json lines the enumeration's tasks printed:
// each the unsharded run's line for its index (the shard and the pack
// aside), none twice; every one for the tasks not killed. The killed
// tasks' lines still in the pipe when they were killed are lost: standard
// output is a log, the pack is the result.
func checkPrinted(t *testing.T, logs string, refLines map[int]string, total int, killed ...int) {
	t.Helper()
	printed := map[int]bool{}
	for id := range 4 {
		b, err := os.ReadFile(filepath.Join(logs, fmt.Sprintf("envs-%d.out", id)))
		if err != nil {
			t.Fatal(err)
		}
		lines := jsonLines(t, string(b))
		for _, l := range lines {
			if printed[l.index] {
				t.Errorf("environment %d printed twice", l.index)
			}
			printed[l.index] = true
			if l.line != refLines[l.index] {
				t.Errorf("task %d's line for environment %d differs from the unsharded run's:\n%s\n%s", id, l.index, l.line, refLines[l.index])
			}
		}
		if !slices.Contains(killed, id) {
			from, to := generate.ShardRange(total, id+1, 4)
			n := 0
			for index := range refLines {
				if index >= from && index < to {
					n++
				}
			}
			if len(lines) != n {
				t.Errorf("task %d printed %d lines; its shard accepted %d", id, len(lines), n)
			}
		}
	}
}

// jsonLines reads the --json lines of anynt enumerate among other lines,
// in order, as JSON with what depends on the shard and the pack taken
// out: the settings' shard, shard count and pack, the pack in the name.
func jsonLines(t *testing.T, text string) []indexedLine {
	t.Helper()
	var lines []indexedLine
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		settings, _ := v["settings"].(map[string]any)
		for _, k := range []string{"shard", "shards", "pack"} {
			delete(settings, k)
		}
		file, _ := v["file"].(string)
		_, v["file"], _ = strings.Cut(file, "#")
		index, ok := v["index"].(float64)
		if !ok {
			t.Fatalf("a line without its index: %s", line)
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, indexedLine{int(index), string(b)})
	}
	return lines
}

// indexedLine is a --json line and the index of its environment.
type indexedLine struct {
	index int
	line  string
}
