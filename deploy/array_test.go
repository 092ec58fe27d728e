package deploy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// arrayScript is the batch script of a Slurm array job of anynt.
const arrayScript = "slurm/array.sbatch"

// slurmArray is the environment Slurm gives a task of --array=MIN-MAX
// (step 1): its id, and the range's first, last and count.
func slurmArray(id, first, last int) []string {
	return []string{
		"SLURM_ARRAY_TASK_ID=" + strconv.Itoa(id),
		"SLURM_ARRAY_TASK_MIN=" + strconv.Itoa(first),
		"SLURM_ARRAY_TASK_MAX=" + strconv.Itoa(last),
		"SLURM_ARRAY_TASK_COUNT=" + strconv.Itoa(last-first+1),
		"SLURM_ARRAY_TASK_STEP=1",
	}
}

// shardState reads the shard and shard count anynt enumerate recorded in
// an output folder's state.
func shardState(t *testing.T, dir string) (k, n int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".enumerate.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct{ Shard, Shards int }
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return st.Shard, st.Shards
}

// TestArrayTaskToShard runs the batch script as Slurm runs a task, with
// the array's variables, and checks which shard anynt enumerate was given
// and where its output went: arrays numbered from 0 and from 1 both give
// shards 1…N, a job that runs some tasks again keeps their shards, and a
// script run outside an array takes the whole stream.
func TestArrayTaskToShard(t *testing.T) {
	bin := anynt(t)
	cases := []struct {
		name string
		env  []string
		k, n int
	}{
		{"--array=0-3, task 0", slurmArray(0, 0, 3), 1, 4},
		{"--array=0-3, task 3", slurmArray(3, 0, 3), 4, 4},
		{"--array=1-4, task 1", slurmArray(1, 1, 4), 1, 4},
		{"--array=1-4, task 4", slurmArray(4, 1, 4), 4, 4},
		{"--array=5,17 again for a job of --array=1-64", append(slurmArray(17, 5, 17)[:1],
			"SLURM_ARRAY_TASK_MIN=5", "SLURM_ARRAY_TASK_MAX=17", "SLURM_ARRAY_TASK_COUNT=2",
			"ANYNT_SHARDS=64", "ANYNT_FIRST_TASK=1"), 17, 64},
		{"--array=0,9 again for a job of --array=0-9", append(slurmArray(0, 0, 9)[:1],
			"SLURM_ARRAY_TASK_MIN=0", "SLURM_ARRAY_TASK_MAX=9", "SLURM_ARRAY_TASK_COUNT=2",
			"ANYNT_SHARDS=10", "ANYNT_FIRST_TASK=0"), 1, 10},
		{"no array", nil, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			env := append([]string{"ANYNT=" + bin}, c.env...)
			run(t, env, "bash", arrayScript, out, "enumerate", "--max-bits", "44")
			dir := filepath.Join(out, "shard-"+strconv.Itoa(c.k))
			if k, n := shardState(t, dir); k != c.k || n != c.n {
				t.Errorf("%s holds shard %d/%d; want %d/%d", dir, k, n, c.k, c.n)
			}
			done, err := os.ReadFile(dir + ".done")
			if err != nil {
				t.Fatalf("the task finished without its mark: %v", err)
			}
			if want := "enumerate " + strconv.Itoa(c.k) + "/" + strconv.Itoa(c.n) + " --max-bits 44\n"; string(done) != want {
				t.Errorf("%s.done says %q; want %q", dir, done, want)
			}
		})
	}
}

// TestArrayRefuses checks that the script refuses, with a message saying
// why and without running anynt, what would give a task the wrong shard
// or none: a stepped array, a list of indices without the first job's
// count, a task outside the shards, a command that is not sharded, no
// output folder.
func TestArrayRefuses(t *testing.T) {
	bin := anynt(t)
	cases := []struct {
		name string
		env  []string
		args []string
		says string
	}{
		{"a step", append(slurmArray(3, 1, 7)[:4], "SLURM_ARRAY_TASK_STEP=2"), []string{"enumerate"}, "one range"},
		{"a list", append(slurmArray(9, 1, 9)[:3], "SLURM_ARRAY_TASK_COUNT=3"), []string{"enumerate"}, "one range"},
		{"beyond the shards", append(slurmArray(70, 70, 70), "ANYNT_SHARDS=64"), []string{"enumerate"}, "outside 1…64"},
		{"a count that is no number", append(slurmArray(1, 1, 1), "ANYNT_SHARDS=many"), []string{"enumerate"}, "ANYNT_SHARDS"},
		{"check", slurmArray(1, 1, 4), []string{"check"}, "not sharded"},
		{"no command", slurmArray(1, 1, 4), nil, "usage"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			env := append([]string{"ANYNT=" + bin}, c.env...)
			_, stderr, err := runErr(env, "bash", append([]string{arrayScript, out}, c.args...)...)
			if err == nil {
				t.Fatalf("the script ran; want a refusal saying %q", c.says)
			}
			if !strings.Contains(stderr, c.says) {
				t.Errorf("the refusal says %q; want it to say %q", stderr, c.says)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("the refused task made %s", out)
			}
		})
	}
}

// shardsByScript runs the n tasks of an array --array=1-n of the batch
// script one after another on this machine, into out.
func shardsByScript(t *testing.T, out string, n int, flags ...string) {
	t.Helper()
	for id := 1; id <= n; id++ {
		env := append([]string{"ANYNT=" + anynt(t)}, slurmArray(id, 1, n)...)
		run(t, env, "bash", append([]string{arrayScript, out, "enumerate"}, flags...)...)
	}
}

// TestJoinEnumeration checks that join-enumeration gives the unsharded
// stream from the shards of the batch script, and refuses, naming them,
// shards missing, unfinished, of another count or other flags, and a file
// altered after anynt wrote it.
func TestJoinEnumeration(t *testing.T) {
	bin := anynt(t)
	flags := []string{"--max-bits", "51", "--episodes", "40"}
	ref := filepath.Join(t.TempDir(), "ref")
	run(t, nil, bin, append([]string{"enumerate", "--out", ref}, flags...)...)

	out := filepath.Join(t.TempDir(), "out")
	shardsByScript(t, out, 3, flags...)
	checkJoined(t, out, 3, ref)

	refuses := func(n int, says string) {
		t.Helper()
		_, stderr, err := runErr(nil, "./slurm/join-enumeration", out, strconv.Itoa(n))
		if err == nil || !strings.Contains(stderr, says) {
			t.Errorf("join-enumeration %d: err %v, stderr %q; want a refusal saying %q", n, err, stderr, says)
		}
	}
	refuses(4, "missing: 4")
	refuses(2, "shard-3 (beyond 2 shards)")

	// Shard 2 unfinished: its mark is written only once anynt has ended.
	mark := filepath.Join(out, "shard-2.done")
	if err := os.Rename(mark, mark+".away"); err != nil {
		t.Fatal(err)
	}
	refuses(3, "unfinished (no .done): 2")
	if err := os.Rename(mark+".away", mark); err != nil {
		t.Fatal(err)
	}

	// Shard 3 run with other flags (into its own folder, so that anynt
	// itself does not refuse it): the mark says so.
	other := filepath.Join(t.TempDir(), "other")
	shardsByScript(t, other, 3, "--max-bits", "51", "--episodes", "50")
	for _, f := range []string{"shard-3", "shard-3.done"} {
		if err := os.Rename(filepath.Join(out, f), filepath.Join(out, f+".mine")); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(other, f), filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
	}
	refuses(3, "of another run: 3 (flags '--max-bits 51 --episodes 50'")
	for _, f := range []string{"shard-3", "shard-3.done"} {
		if err := os.RemoveAll(filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(filepath.Join(out, f+".mine"), filepath.Join(out, f)); err != nil {
			t.Fatal(err)
		}
	}
	checkJoined(t, out, 3, ref)

	// A file of shard 1 altered after it was written.
	names := journalNames(t, filepath.Join(out, "shard-1"))
	victim := filepath.Join(out, "shard-1", names[len(names)-1])
	if err := os.WriteFile(victim, []byte("actions a0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refuses(3, "shard 1: files differ from the checksums")
}
