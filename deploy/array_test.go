package deploy

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// arrayScript is the batch script of a Slurm array job of anynt, and
// mergeScript its merge step's.
const (
	arrayScript = "slurm/array.sbatch"
	mergeScript = "slurm/merge.sbatch"
)

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

// packShard reads the shard and shard count in a pack's header: its first
// frame, a Zstandard skippable frame (4 bytes of magic, 4 of length, both
// little-endian) holding JSON (docs/pack.md).
func packShard(t *testing.T, path string) (k, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8 || binary.LittleEndian.Uint32(b) != 0x184D2A50 {
		t.Fatalf("%s does not start with a pack's header", path)
	}
	size := int(binary.LittleEndian.Uint32(b[4:]))
	if len(b) < 8+size {
		t.Fatalf("%s: its header is cut short", path)
	}
	var h struct{ Shard, Shards int }
	if err := json.Unmarshal(b[8:8+size], &h); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return h.Shard, h.Shards
}

// TestArrayTaskToShard runs the batch script as Slurm runs a task, with
// the array's variables, and checks which shard anynt enumerate was given
// and where its pack went: arrays numbered from 0 and from 1 both give
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
			shard := filepath.Join(out, "shard-"+strconv.Itoa(c.k))
			if k, n := packShard(t, shard+".pack"); k != c.k || n != c.n {
				t.Errorf("%s.pack holds shard %d/%d; want %d/%d", shard, k, n, c.k, c.n)
			}
			done, err := os.ReadFile(shard + ".done")
			if err != nil {
				t.Fatalf("the task finished without its mark: %v", err)
			}
			if want := "enumerate " + strconv.Itoa(c.k) + "/" + strconv.Itoa(c.n) + " --max-bits 44\n"; string(done) != want {
				t.Errorf("%s.done says %q; want %q", shard, done, want)
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
		{"its own --pack", slurmArray(1, 1, 4), []string{"enumerate", "--pack", "x.pack"}, "leave them out"},
		{"its own --shard", slurmArray(1, 1, 4), []string{"test", "--shard=1/2"}, "leave them out"},
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

// TestArrayMerged runs the tasks of two arrays of the batch script one
// after another on this machine, an enumeration (--array=0-2) and a
// battery (--array=1-3), and checks that anynt merge joins their shards
// into the unsharded runs: the same --json lines and pack, and the same
// report.
func TestArrayMerged(t *testing.T) {
	bin := anynt(t)
	out := t.TempDir()
	enumerate := []string{"--max-bits", "51", "--episodes", "40"}
	battery := []string{"--protocol", "battery", "--generate", "51", "--agent", "random,oracle"}
	for id := range 3 {
		run(t, append([]string{"ANYNT=" + bin}, slurmArray(id, 0, 2)...), "bash",
			append([]string{arrayScript, filepath.Join(out, "envs"), "enumerate"}, enumerate...)...)
		run(t, append([]string{"ANYNT=" + bin}, slurmArray(id+1, 1, 3)...), "bash",
			append([]string{arrayScript, filepath.Join(out, "battery"), "test"}, battery...)...)
	}
	checkMerged(t, shardFiles(filepath.Join(out, "envs"), 3, ".pack"), enumerate...)
	want := run(t, nil, bin, append([]string{"test", "--json"}, battery...)...)
	if got := run(t, nil, bin, append([]string{"merge", "--json"}, shardFiles(filepath.Join(out, "battery"), 3, "")...)...); got != want {
		t.Errorf("the battery's shards merged differ from the unsharded test's report (%d and %d bytes)", len(got), len(want))
	}
}
