package deploy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// manifestPath is the Kubernetes Indexed Job of anynt enumerate.
const manifestPath = "k8s/enumerate-job.yaml"

// The parts of the manifest's objects the tests read.
type (
	object struct {
		APIVersion string   `yaml:"apiVersion"`
		Kind       string   `yaml:"kind"`
		Metadata   metadata `yaml:"metadata"`
		Spec       yaml.Node
	}
	metadata struct {
		Name string `yaml:"name"`
	}
	claimSpec struct {
		AccessModes []string `yaml:"accessModes"`
	}
	jobSpec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          *int   `yaml:"completions"`
		Parallelism          *int   `yaml:"parallelism"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	}
	podSpec struct {
		RestartPolicy string      `yaml:"restartPolicy"`
		Containers    []container `yaml:"containers"`
		Volumes       []struct {
			Name string `yaml:"name"`
			PVC  *struct {
				ClaimName string `yaml:"claimName"`
			} `yaml:"persistentVolumeClaim"`
		} `yaml:"volumes"`
	}
	container struct {
		Name    string   `yaml:"name"`
		Image   string   `yaml:"image"`
		Command []string `yaml:"command"`
		Args    []string `yaml:"args"`
		Env     []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	}
)

// readManifest decodes every document of the manifest, strictly: a field
// the structs above do not know is no error (they read a part), but YAML
// that does not parse is.
func readManifest(t *testing.T) (job jobSpec, claims map[string]claimSpec) {
	t.Helper()
	b, err := os.ReadFile(manifestPath)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	claims = map[string]claimSpec{}
	jobs := 0
	for {
		var o object
		err := dec.Decode(&o)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", manifestPath, err)
		}
		switch {
		case o.APIVersion == "batch/v1" && o.Kind == "Job":
			jobs++
			if err := o.Spec.Decode(&job); err != nil {
				t.Fatalf("%s: the Job's spec: %v", manifestPath, err)
			}
		case o.APIVersion == "v1" && o.Kind == "PersistentVolumeClaim":
			var c claimSpec
			if err := o.Spec.Decode(&c); err != nil {
				t.Fatalf("%s: the claim's spec: %v", manifestPath, err)
			}
			claims[o.Metadata.Name] = c
		default:
			t.Errorf("%s holds a %s %s; want a batch/v1 Job and its v1 PersistentVolumeClaim", manifestPath, o.APIVersion, o.Kind)
		}
	}
	if jobs != 1 {
		t.Fatalf("%s holds %d batch/v1 Jobs; want 1", manifestPath, jobs)
	}
	return job, claims
}

// env reads a container's environment variable, "" when it has none.
func (c container) env(name string) string {
	for _, e := range c.Env {
		if e.Name == name {
			return e.Value
		}
	}
	return ""
}

// TestIndexedJobManifest checks the Indexed Job's structure: each index
// a shard, the shards' count the job's completions, at most that many pods
// at once, each index retried on its own (which needs restartPolicy Never)
// on an output volume all pods share; then it runs the container's script
// for every index on this machine, with the job's settings but a small
// bound and a temporary folder for the volume, and checks that anynt merge
// joins the shards into the unsharded run. No Kubernetes cluster is available here.
func TestIndexedJobManifest(t *testing.T) {
	job, claims := readManifest(t)
	if job.CompletionMode != "Indexed" {
		t.Errorf("completionMode is %q; want Indexed, which gives each pod its JOB_COMPLETION_INDEX", job.CompletionMode)
	}
	if job.Completions == nil || *job.Completions < 1 {
		t.Fatalf("completions is %v; want the number of shards", job.Completions)
	}
	n := *job.Completions
	if job.Parallelism == nil || *job.Parallelism < 1 || *job.Parallelism > n {
		t.Errorf("parallelism is %v; want 1 to completions (%d)", job.Parallelism, n)
	}
	pod := job.Template.Spec
	if job.BackoffLimitPerIndex != nil {
		if *job.BackoffLimitPerIndex < 1 {
			t.Errorf("backoffLimitPerIndex is %d; want at least 1 retry of a failed shard", *job.BackoffLimitPerIndex)
		}
		if pod.RestartPolicy != "Never" {
			t.Errorf("restartPolicy is %q; backoffLimitPerIndex needs Never", pod.RestartPolicy)
		}
	} else if pod.RestartPolicy != "Never" && pod.RestartPolicy != "OnFailure" {
		t.Errorf("restartPolicy is %q; a Job's pods take Never or OnFailure", pod.RestartPolicy)
	}
	if len(pod.Containers) != 1 {
		t.Fatalf("the pod has %d containers; want 1", len(pod.Containers))
	}
	c := pod.Containers[0]
	if c.Image == "" {
		t.Error("the container names no image")
	}
	if got := c.env("SHARDS"); got != strconv.Itoa(n) {
		t.Errorf("SHARDS is %q; want the completions, %d", got, n)
	}

	// The output folder: a volume mounted at OUT, from a claim in the
	// manifest that pods on several nodes can all write.
	out := c.env("OUT")
	mounted := ""
	for _, m := range c.VolumeMounts {
		if m.MountPath == out {
			mounted = m.Name
		}
	}
	if out == "" || mounted == "" {
		t.Fatalf("OUT is %q, and no volume is mounted there", out)
	}
	claimed := false
	for _, v := range pod.Volumes {
		if v.Name == mounted && v.PVC != nil {
			claim, ok := claims[v.PVC.ClaimName]
			if !ok {
				t.Errorf("the volume %s claims %s, which the manifest does not hold", v.Name, v.PVC.ClaimName)
			} else if !strings.Contains(strings.Join(claim.AccessModes, " "), "ReadWriteMany") {
				t.Errorf("the claim %s is %v; want ReadWriteMany, for pods on several nodes", v.PVC.ClaimName, claim.AccessModes)
			}
			claimed = true
		}
	}
	if !claimed {
		t.Errorf("the volume %s mounted at %s is no persistentVolumeClaim: the shards would be lost with their pods", mounted, out)
	}

	// The script: a shell's -c, its shard the index plus one of SHARDS.
	if len(c.Command) != 2 || c.Command[1] != "-c" || len(c.Args) != 1 {
		t.Fatalf("the container's command is %q %q; want a shell's -c and one script", c.Command, c.Args)
	}
	script := c.Args[0]
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`k=\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)`),
		regexp.MustCompile(`anynt enumerate --shard "\$k/\$SHARDS" --pack "\$OUT/shard-\$k\.pack"`),
	} {
		if !want.MatchString(script) {
			t.Errorf("the script does not match %s:\n%s", want, script)
		}
	}

	// Each index run here as its pod would be, /bin/sh and the anynt
	// built from this tree, into a temporary folder for the volume.
	bin := anynt(t)
	flags := "--max-bits 51 --episodes 40"
	dir := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		run(t, []string{"PATH=" + filepath.Dir(bin) + ":" + os.Getenv("PATH"), "JOB_COMPLETION_INDEX=" + strconv.Itoa(i),
			"SHARDS=" + strconv.Itoa(n), "OUT=" + dir, "ANYNT_FLAGS=" + flags}, "/bin/sh", "-c", script)
	}
	checkMerged(t, shardFiles(dir, n, ".pack"), strings.Fields(flags)...)
}

// TestDockerfile checks that the image's build file builds cmd/anynt and
// puts it where the Job's script finds it, on PATH. No container engine
// runs here, so the image itself is not built in the tests.
func TestDockerfile(t *testing.T) {
	b, err := os.ReadFile("k8s/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	d := string(b)
	stages := regexp.MustCompile(`(?m)^FROM \S+( AS (\w+))?$`).FindAllStringSubmatch(d, -1)
	if len(stages) != 2 || stages[0][2] == "" {
		t.Fatalf("the Dockerfile has stages %q; want two, the first named (build, then run)", stages)
	}
	build := regexp.MustCompile(`(?m)^RUN CGO_ENABLED=0 go build .*-o (\S+) \./cmd/anynt$`).FindStringSubmatch(d)
	if build == nil {
		t.Fatal("the build stage does not build ./cmd/anynt statically (CGO_ENABLED=0 go build -o FILE ./cmd/anynt)")
	}
	copyLine := "COPY --from=" + stages[0][2] + " " + build[1] + " /usr/local/bin/anynt"
	if !strings.Contains(d, copyLine+"\n") {
		t.Errorf("the run stage does not put the binary on PATH: no line %q", copyLine)
	}
}

// fakeKubectl is a kubectl for TestWaitJob: each "get job/NAME -o
// jsonpath=...conditions..." prints the next of the Job's states in
// $STATES (separated by ";", conditions by ","), the last one again once
// they run out; failedIndexes prints "2,5".
const fakeKubectl = `#!/bin/sh
case "$*" in
  *failedIndexes*) echo "2,5"; exit 0 ;;
esac
n=$(cat "$COUNT" 2>/dev/null || echo 0)
echo $((n + 1)) >"$COUNT"
echo "$STATES" | tr ';' '\n' | awk -v n="$n" '{ s[NR - 1] = $0 } END { print s[n < NR ? n : NR - 1] }' | tr ',' '\n'
`

// TestWaitJob runs deploy/k8s/wait-job against a kubectl that reports a
// Job's conditions: it ends at Complete (0) and at Failed (1, naming the
// failed indexes), whichever comes, and at its timeout (2) when neither
// does; waiting for Complete alone, as kubectl wait does, would sit out
// the whole timeout on a Job whose index failed for good.
func TestWaitJob(t *testing.T) {
	dir := t.TempDir()
	kubectl := filepath.Join(dir, "kubectl")
	if err := os.WriteFile(kubectl, []byte(fakeKubectl), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		states, timeout string
		code            int
		says            string
	}{
		{";SuccessCriteriaMet,Complete", "86400", 0, "Complete"},
		{";FailureTarget;FailureTarget,Failed", "86400", 1, "failed indexes: 2,5"},
		{"Suspended", "0", 2, "neither Complete nor Failed"},
	} {
		env := []string{"KUBECTL=" + kubectl, "WAIT_EVERY=0", "STATES=" + c.states, "COUNT=" + filepath.Join(dir, strconv.Itoa(i))}
		out, errOut, err := runErr(env, "k8s/wait-job", "anynt-enumerate", c.timeout)
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != c.code || !strings.Contains(out+errOut, c.says) {
			t.Errorf("states %q: exit %d, %q; want %d saying %q", c.states, code, out+errOut, c.code, c.says)
		}
	}
	doc, err := os.ReadFile("../docs/cluster.md")
	if err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?m)^kubectl wait`).Match(doc) || !strings.Contains(string(doc), "\ndeploy/k8s/wait-job anynt-enumerate") {
		t.Error("docs/cluster.md does not wait for the Job with deploy/k8s/wait-job")
	}
}
