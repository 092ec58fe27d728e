package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/serveenv"
	"github.com/google/go-cmp/cmp"
)

const (
	hello    = `{"type":"hello","protocol":"anynt/1"}`
	blocker  = corpusDir + "thesis/omega1-blocker.anynt"
	fixtureB = corpusDir + "lambda-one/fixture-b.anynt"
)

// serveEnv runs serve-env in process on the request lines and returns its
// answers, decoded, its standard error and its exit status.
func serveEnv(t *testing.T, lines ...string) (answers []map[string]any, stderr string, code int) {
	t.Helper()
	out, errw, code := anynt(t, strings.Join(lines, "\n")+"\n", "serve-env")
	for _, l := range strings.SplitAfter(out, "\n") {
		if l == "" {
			continue
		}
		if !strings.HasSuffix(l, "\n") {
			t.Fatalf("an answer does not end its line: %q", l)
		}
		var a map[string]any
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("answer %q is not a JSON object: %v", l, err)
		}
		answers = append(answers, a)
	}
	return answers, errw, code
}

// decode decodes an expected answer written as JSON, numbers as float64
// as in the answers.
func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		t.Fatalf("expected answer %q: %v", s, err)
	}
	return a
}

// loadFor loads an environment file for a test.
func loadFor(t *testing.T, file string) *env.Env {
	t.Helper()
	e, err := loadEnv(file)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// played is one interaction as a trajectory shows it: what π saw, its
// action, its reward.
type played struct {
	Observation string
	Action      int
	Reward      float64
}

// script plays a fixed cycle of actions.
type script struct {
	actions []int
	at      int
}

func (s *script) Start(*env.Env, *random.Rand) { s.at = 0 }
func (s *script) End(float64)                  {}
func (s *script) Act(*env.View) int            { s.at++; return s.actions[(s.at-1)%len(s.actions)] }

// runTrajectory plays an episode of e with the scripted actions inside the
// process, as anynt run does, and returns its trace.
func runTrajectory(e *env.Env, seed uint64, steps int, actions []int) []played {
	var out []played
	env.NewEpisode(e, &script{actions: actions}, seed).Run(steps, func(s env.Step) {
		out = append(out, played{s.Observation, slices.Index(e.Actions, s.Action), s.Reward})
	})
	return out
}

// served plays the episode that reset answered with, through the server's
// answers to the steps that follow it, spelling each observation in the
// reset's alphabet.
func servedTrajectory(t *testing.T, answers []map[string]any, actions []int) []played {
	t.Helper()
	var alphabet []string
	for _, s := range answers[0]["alphabet"].([]any) {
		alphabet = append(alphabet, s.(string))
	}
	spell := func(a map[string]any) string {
		var b strings.Builder
		for _, i := range a["observation"].([]any) {
			b.WriteString(alphabet[int(i.(float64))])
		}
		return b.String()
	}
	var out []played
	for k := 1; k < len(answers); k++ {
		if answers[k]["type"] != "observation" {
			t.Fatalf("answer %d: %v", k, answers[k])
		}
		out = append(out, played{spell(answers[k-1]), actions[(k-1)%len(actions)], answers[k]["reward"].(float64)})
	}
	return out
}

// stepLines are the requests of n steps of environment 1 with a cycle of
// actions.
func stepLines(n int, actions []int) []string {
	var lines []string
	for k := range n {
		lines = append(lines, fmt.Sprintf(`{"type":"step","env":1,"action":%d}`, actions[k%len(actions)]))
	}
	return lines
}

// A session answers every request with one line, in order: the hello,
// the environment made, the observation of a reset (the alphabet, the seed
// and the episode with it), each step's observation and reward, truncated
// at the last step, the next episode, and the close. Observations are
// those Begin gives, as indices into the alphabet of the exercise's seed.
func TestServeEnvSession(t *testing.T) {
	e := loadFor(t, blocker)
	const seed = 7
	alphabet := env.ObservationAlphabet(e, seed)
	names, _ := json.Marshal(alphabet.Names(e))
	// want plays an episode with Begin and Finish and writes the answers.
	want := func(episode int, actions []int) []string {
		ep := env.NewEpisode(e, &script{}, env.EpisodeSeed(seed, episode))
		v, _ := ep.Begin()
		obs, _ := json.Marshal(alphabet.Encode(nil, v.Observation()))
		lines := []string{fmt.Sprintf(`{"type":"observation","env":1,"step":0,"observation":%s,"reward":0,"truncated":false,"seed":%d,"episode_seed":%d,"episode":%d,"alphabet":%s}`, obs, seed, seed, episode, names)}
		for k, a := range actions {
			r, _ := ep.Finish(a)
			v, _ = ep.Begin()
			obs, _ = json.Marshal(alphabet.Encode(nil, v.Observation()))
			lines = append(lines, fmt.Sprintf(`{"type":"observation","env":1,"step":%d,"observation":%s,"reward":%v,"truncated":%v}`, k+1, obs, r, k == len(actions)-1))
		}
		return lines
	}
	actions := []int{2, 2, 1, 0}
	requests := []string{hello,
		`{"type":"make","file":"` + blocker + `","steps":4}`,
		`{"type":"reset","env":1,"seed":7}`}
	requests = append(requests, stepLines(4, actions)...)
	requests = append(requests, `{"type":"step","env":1,"action":1}`, `{"type":"reset","env":1}`)
	requests = append(requests, stepLines(4, actions)...)
	requests = append(requests, `{"type":"close","env":1}`, `{"type":"reset","env":1}`)

	expected := []string{
		`{"type":"hello","protocol":"anynt/1.1","tool":"anynt ` + versionString() + `"}`,
		`{"type":"made","env":1,"name":"` + blocker + `","actions":3,"action_names":["s","l","r"],"symbols":12,"cells":6,"steps":4,"seed":1}`}
	expected = append(expected, want(0, actions)...)
	expected = append(expected, `{"type":"error","line":8,"env":1,"message":"step: the episode of environment 1 is over (truncated after 4 steps): reset it"}`)
	expected = append(expected, want(1, actions)...)
	expected = append(expected, `{"type":"closed","env":1}`,
		`{"type":"error","line":15,"env":1,"message":"reset: no environment 1 is open"}`)

	answers, errw, code := serveEnv(t, requests...)
	if code != exitOK || errw != "" {
		t.Fatalf("status %d, stderr %q", code, errw)
	}
	if len(answers) != len(requests) {
		t.Fatalf("%d answers to %d requests", len(answers), len(requests))
	}
	for i, a := range answers {
		if diff := cmp.Diff(decode(t, expected[i]), a); diff != "" {
			t.Errorf("request %d %s: answer differs (-want +got):\n%s", i+1, requests[i], diff)
		}
	}
}

// The same seed gives the same trajectory through serve-env as inside the
// process: reset with seed S plays episode 0 of anynt run --seed S (the
// environment seed env.EpisodeSeed(S, 0)), the resets after it without a
// seed play episodes 1, 2, … of that run, reset with an episode plays that
// one, and a Λ_one exercise made by its test's seed and number, reset
// without a seed, plays the episodes anynt test gives it.
func TestServeEnvTrajectoryIsTheRunsTrajectory(t *testing.T) {
	items, err := exam.LambdaOneItems(3, 1, versionString())
	if err != nil {
		t.Fatal(err)
	}
	exercise5 := items[slices.IndexFunc(items, func(it exam.Item) bool { return it.Number == 5 })]
	tests := []struct {
		name    string
		make    string
		resets  []string // the last one is played
		e       *env.Env
		seed    uint64 // the environment seed of the episode played
		steps   int
		actions []int
	}{
		{"file, seed", `"file":"` + blocker + `","steps":60`, []string{`"seed":7`},
			loadFor(t, blocker), env.EpisodeSeed(7, 0), 60, []int{2, 1, 1, 0, 2}},
		{"file, next episode", `"file":"` + blocker + `","steps":60`, []string{`"seed":7`, ``, ``},
			loadFor(t, blocker), env.EpisodeSeed(7, 2), 60, []int{1, 2}},
		{"file, episode asked", `"file":"` + blocker + `","steps":60`, []string{`"seed":9,"episode":4`},
			loadFor(t, blocker), env.EpisodeSeed(9, 4), 60, []int{2}},
		{"file, seed of make", `"file":"` + fixtureB + `","steps":80,"seed":5`, []string{``},
			loadFor(t, fixtureB), env.EpisodeSeed(5, 0), 80, []int{1, 2, 2}},
		{"lambda-one, the test's episodes", `"lambda_one":{"seed":3,"exercise":5}`, []string{``, ``},
			exercise5.Env, env.EpisodeSeed(exercise5.Seed, 1), exercise5.Steps, []int{1, 0, 1, 1}},
		{"lambda-one, seed", `"lambda_one":{"seed":3,"exercise":5}`, []string{`"seed":12`},
			exercise5.Env, env.EpisodeSeed(12, 0), exercise5.Steps, []int{0, 1}},
		{"file, episode seed", `"file":"` + blocker + `","steps":60,"seed":5`, []string{`"episode_seed":7`},
			loadFor(t, blocker), env.EpisodeSeed(7, 0), 60, []int{2, 1, 1, 0, 2}},
		{"file, episode seed, next episode", `"file":"` + blocker + `","steps":60,"seed":5`, []string{`"episode_seed":7`, ``},
			loadFor(t, blocker), env.EpisodeSeed(7, 1), 60, []int{1, 2}},
		{"file, episode seed, episode asked", `"file":"` + blocker + `","steps":60`, []string{`"episode_seed":7,"episode":3`},
			loadFor(t, blocker), env.EpisodeSeed(7, 3), 60, []int{2}},
		{"lambda-one, episode seed", `"lambda_one":{"seed":3,"exercise":5}`, []string{`"episode_seed":12`},
			exercise5.Env, env.EpisodeSeed(12, 0), exercise5.Steps, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requests := []string{hello, `{"type":"make",` + tt.make + `}`}
			for _, r := range tt.resets {
				requests = append(requests, `{"type":"reset","env":1`+strings.TrimSuffix(","+r, ",")+`}`)
			}
			requests = append(requests, stepLines(tt.steps, tt.actions)...)
			answers, errw, code := serveEnv(t, requests...)
			if code != exitOK || len(answers) != len(requests) {
				t.Fatalf("status %d, %d answers to %d requests, stderr %q", code, len(answers), len(requests), errw)
			}
			played := answers[1+len(tt.resets):]
			got := servedTrajectory(t, played, tt.actions)
			want := runTrajectory(tt.e, tt.seed, tt.steps, tt.actions)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("trajectory differs (-run +served):\n%s", diff)
			}
			if last := played[len(played)-1]; last["truncated"] != true {
				t.Errorf("the last step's answer is not truncated: %v", last)
			}
		})
	}
}

// An episode seed picks the episodes and keeps the exercise: the alphabet
// stays the one of make's seed (a Gymnasium reset(seed) must not change
// what the observations mean), while a seed changes it; the answer names
// both seeds.
func TestServeEnvEpisodeSeedKeepsTheAlphabet(t *testing.T) {
	e := loadFor(t, blocker)
	answers, errw, code := serveEnv(t, hello, `{"type":"make","file":"`+blocker+`","seed":5}`,
		`{"type":"reset","env":1,"episode_seed":7}`, `{"type":"reset","env":1,"episode_seed":8}`,
		`{"type":"reset","env":1}`, `{"type":"reset","env":1,"seed":7}`)
	if code != exitOK || len(answers) != 6 {
		t.Fatalf("status %d, %d answers, stderr %q", code, len(answers), errw)
	}
	names := func(seed uint64) []any {
		var out []any
		for _, n := range env.ObservationAlphabet(e, seed).Names(e) {
			out = append(out, n)
		}
		return out
	}
	if cmp.Equal(names(5), names(7)) {
		t.Fatal("seeds 5 and 7 draw the same alphabet: the test cannot tell them apart")
	}
	for i, want := range []struct {
		alphabet      uint64
		seed, episode float64
		stream        float64
	}{{5, 5, 0, 7}, {5, 5, 0, 8}, {5, 5, 1, 8}, {7, 7, 0, 7}} {
		a := answers[2+i]
		if diff := cmp.Diff(names(want.alphabet), a["alphabet"]); diff != "" {
			t.Errorf("reset %d: alphabet differs (-want +got):\n%s", i+1, diff)
		}
		if a["seed"] != want.seed || a["episode"] != want.episode || a["episode_seed"] != want.stream {
			t.Errorf("reset %d: seed %v, episode %v, episode_seed %v; want %v, %v, %v", i+1,
				a["seed"], a["episode"], a["episode_seed"], want.seed, want.episode, want.stream)
		}
	}
}

// The trajectory anynt run --trace prints (its first episode) is the one
// serve-env plays with the same seed and the same actions: here the stay
// agent's.
func TestServeEnvMatchesRunTrace(t *testing.T) {
	const steps = 50
	_, trace, code := anynt(t, "", "run", blocker, "--agent", "stay", "--seed", "7", "--steps", fmt.Sprint(steps), "--episodes", "1", "--trace")
	if code != exitOK {
		t.Fatalf("run: status %d", code)
	}
	answers, _, _ := serveEnv(t, append([]string{hello, `{"type":"make","file":"` + blocker + `","steps":50}`, `{"type":"reset","env":1,"seed":7}`}, stepLines(steps, []int{0})...)...)
	served := servedTrajectory(t, answers[2:], []int{0})
	lines := strings.Split(strings.TrimSpace(trace), "\n")[1:]
	if len(lines) != steps || len(served) != steps {
		t.Fatalf("%d trace lines, %d steps served", len(lines), len(served))
	}
	for i, l := range lines {
		cols := strings.Split(l, "\t")
		if got := fmt.Sprintf("%d\t%s\ts\t%+.4g", i+1, served[i].Observation, served[i].Reward); got != strings.Join(cols[:4], "\t") {
			t.Errorf("interaction %d: served %q, run --trace %q", i+1, got, l)
		}
	}
}

// A Python client written from the protocol's documentation with the
// standard library only (testdata/serve_client.py) plays an episode with a
// fixed cycle of actions; the trajectory it prints is the one the episode
// plays inside the process with the same seed and actions.
func TestServeEnvPythonClient(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("this test needs python3 (the Python 3 interpreter, standard library only) on PATH: %v", err)
	}
	items, err := exam.LambdaOneItems(2, 1, versionString())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args    []string
		e       *env.Env
		seed    uint64
		steps   int
		actions []int
	}{
		{[]string{"--file", blocker, "--seed", "7", "--steps", "40", "--actions", "2,1,1,0,2"}, loadFor(t, blocker), env.EpisodeSeed(7, 0), 40, []int{2, 1, 1, 0, 2}},
		// --bench plays on, four environments at a time, requests sent
		// ahead of the answers, and prints its rate last.
		{[]string{"--lambda-one", "2:1", "--actions", "1,0,2", "--bench", "200", "--batch", "4"}, items[0].Env, env.EpisodeSeed(items[0].Seed, 0), items[0].Steps, []int{1, 0, 2}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			// The client speaks over its standard input and output, which
			// are piped to serve-env running in this process.
			cmd := exec.Command(python, append([]string{"testdata/serve_client.py"}, tt.args...)...)
			requests, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			answers, toClient := io.Pipe()
			cmd.Stdin = answers
			var trajectory strings.Builder
			cmd.Stderr = &trajectory
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var serveErr strings.Builder
			code := run([]string{"serve-env"}, requests, toClient, &serveErr)
			toClient.Close()
			if err := cmd.Wait(); err != nil || code != exitOK {
				t.Fatalf("client: %v, serve-env status %d; client's stderr:\n%s\nserve-env's: %s", err, code, trajectory.String(), serveErr.String())
			}
			var want strings.Builder
			want.WriteString("interaction\tobservation\taction\treward\n")
			e := tt.e
			for i, p := range runTrajectory(e, tt.seed, tt.steps, tt.actions) {
				fmt.Fprintf(&want, "%d\t%s\t%s\t%+.4g\n", i+1, p.Observation, e.Actions[p.Action], p.Reward)
			}
			got := trajectory.String()
			if slices.Contains(tt.args, "--bench") {
				lines := strings.SplitAfter(strings.TrimSuffix(got, "\n"), "\n")
				if rate := lines[len(lines)-1]; !strings.HasPrefix(rate, "200 steps in ") || !strings.Contains(rate, "4 environment(s) at a time") {
					t.Errorf("the bench's last line %q", rate)
				}
				got = strings.Join(lines[:len(lines)-1], "")
			}
			if diff := cmp.Diff(want.String(), got); diff != "" {
				t.Errorf("the Python client's trajectory differs (-run +client):\n%s", diff)
			}
		})
	}
}

// A bad request is answered with an error that says what is wrong (and
// quotes the line where the line is at fault), names the request's line
// and, where it named one, the environment; serve-env goes on, and the
// environment it was about is unharmed.
func TestServeEnvBadRequests(t *testing.T) {
	bad := writeFile(t, "bad.anynt", "actions s l r\nspace thesis lr+:l-r+:l-r\ngoodevil pattern 1 2\nplace π 9\nobject ω1 {\n  a -> χ\n}\n")
	tests := []struct {
		name, request string
		want          []string // in the message
		env           bool     // the answer names the request's environment
	}{
		{"unknown type", `{"type":"jump","env":1}`, []string{`unknown request type "jump"`, `{\"type\":\"jump\",\"env\":1}`}, true},
		{"no type", `{"env":1}`, []string{`needs a "type"`}, false},
		{"a key twice", `{"type":"step","env":1,"action":1,"action":2}`, []string{`the key "action" twice`, `"{\"type\":\"step\"`}, false},
		{"a key twice, in two cases", `{"type":"step","Type":"close","env":1,"action":1}`, []string{`the key "Type" twice`}, false},
		{"bad JSON", `{"type":"step","env":1,"action":`, []string{"not a JSON object", `"{\"type\":\"step\"`}, false},
		{"not an object", `[1,2]`, []string{"not a JSON object", "not an object", `"[1,2]"`}, false},
		{"a blank line", ``, []string{"not a JSON object", "unexpected end of JSON input"}, false},
		{"a field of the wrong type", `{"type":"reset","env":"1"}`, []string{"env cannot be string"}, false},
		{"unknown env", `{"type":"step","env":42,"action":1}`, []string{"step: no environment 42 is open"}, true},
		{"no env", `{"type":"step","action":1}`, []string{`step needs the "env"`}, false},
		{"action out of range", `{"type":"step","env":1,"action":3}`, []string{"action 3 is not an action of environment 1: an integer from 0 to 2"}, true},
		{"negative action", `{"type":"step","env":1,"action":-1}`, []string{"action -1 is not an action"}, true},
		{"action not an integer", `{"type":"step","env":1,"action":1.5}`, []string{"action 1.5 is not an action"}, true},
		{"action a string", `{"type":"step","env":1,"action":"1"}`, []string{`action "1" is not an action`}, true},
		{"no action", `{"type":"step","env":1}`, []string{`step needs an "action"`}, true},
		{"a file with errors", `{"type":"make","file":"` + bad + `"}`, []string{"make: the file has errors", bad + ":4:1: π is placed in cell 9", bad + ":6:8: χ on the right-hand side"}, false},
		{"a rule file", `{"type":"make","file":"` + corpusDir + `classic/ruleset1.markov"}`, []string{"is a rule file"}, false},
		{"a missing file", `{"type":"make","file":"` + bad + `.missing"}`, []string{"make:", "no such file"}, false},
		{"a device", `{"type":"make","file":"/dev/null"}`, []string{"make: /dev/null is not a regular file"}, false},
		{"a folder", `{"type":"make","file":"` + corpusDir + `"}`, []string{"is not a regular file"}, false},
		{"make what", `{"type":"make"}`, []string{`give a "file" or a "lambda_one"`}, false},
		{"make both", `{"type":"make","file":"x","lambda_one":{"seed":1,"exercise":1}}`, []string{"not both"}, false},
		{"no such exercise", `{"type":"make","lambda_one":{"seed":1,"exercise":8}}`, []string{"exercise 8 does not exist: a test has exercises 1 to 7"}, false},
		{"exercise without seed", `{"type":"make","lambda_one":{"exercise":2}}`, []string{`needs the test's "seed"`}, false},
		{"no steps", `{"type":"make","file":"` + blocker + `","steps":0}`, []string{"steps is 0; it must be from 1 to 10000000"}, false},
		{"too many steps", `{"type":"make","file":"` + blocker + `","steps":10000001}`, []string{"steps is 10000001"}, false},
		{"negative seed", `{"type":"reset","env":1,"seed":-1}`, []string{"seed cannot be number -1"}, false},
		{"negative episode", `{"type":"reset","env":1,"episode":-1}`, []string{"episode -1; it must be from 0 to 999999"}, true},
		{"a hello without protocol", `{"type":"hello"}`, []string{`hello needs a "protocol"`}, false},
		{"too long", `{"type":"step","env":1,"action":1,"pad":"` + strings.Repeat("x", serveenv.MaxLine) + `"}`, []string{"the request is longer than 1048576 bytes"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The episode is stepped before and after the bad request; the
			// second step must give what it gives without the bad request.
			setup := []string{hello, `{"type":"make","file":"` + blocker + `","steps":5}`, `{"type":"reset","env":1,"seed":3}`, `{"type":"step","env":1,"action":2}`}
			after := `{"type":"step","env":1,"action":1}`
			clean, _, _ := serveEnv(t, append(setup, after)...)
			answers, errw, code := serveEnv(t, append(setup, tt.request, after)...)
			if code != exitOK || len(answers) != len(setup)+2 {
				t.Fatalf("status %d, %d answers, stderr %q", code, len(answers), errw)
			}
			a := answers[len(setup)]
			msg, _ := a["message"].(string)
			if a["type"] != "error" || a["line"] != float64(len(setup)+1) {
				t.Errorf("answer %v, want an error naming line %d", a, len(setup)+1)
			}
			for _, w := range tt.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
			if _, named := a["env"]; named != tt.env {
				t.Errorf("answer %v names the environment: %v, want %v", a, named, tt.env)
			}
			if diff := cmp.Diff(clean[len(setup)], answers[len(setup)+1]); diff != "" {
				t.Errorf("the step after the bad request differs (-clean +after):\n%s", diff)
			}
		})
	}
}

// The file's errors come one a line in the message, and as a list.
func TestServeEnvFileErrorsAreListed(t *testing.T) {
	bad := writeFile(t, "bad.anynt", "actions s l r\nspace thesis lr+:l-r+:l-r\ngoodevil pattern 1 2\nplace π 9\nplace ⊕ 10\n")
	answers, _, _ := serveEnv(t, hello, `{"type":"make","file":"`+bad+`"}`)
	errs, _ := answers[1]["errors"].([]any)
	if len(errs) != 2 || !strings.HasPrefix(errs[0].(string), bad+":4:1: π is placed") || !strings.HasPrefix(errs[1].(string), bad+":5:1: ⊕ is placed") {
		t.Fatalf("errors %v, want the two positioned errors", answers[1]["errors"])
	}
	if want := "make: the file has errors:\n" + errs[0].(string) + "\n" + errs[1].(string); answers[1]["message"] != want {
		t.Errorf("message %q, want %q", answers[1]["message"], want)
	}
}

// Before the hello nothing but a hello is answered; a step before reset
// and a step after the episode's last are errors.
func TestServeEnvOutOfTurn(t *testing.T) {
	answers, _, code := serveEnv(t,
		`{"type":"make","file":"`+blocker+`"}`, hello,
		`{"type":"make","file":"`+blocker+`","steps":1}`,
		`{"type":"step","env":1,"action":1}`,
		`{"type":"reset","env":1}`,
		`{"type":"step","env":1,"action":1}`,
		`{"type":"step","env":1,"action":1}`,
		hello)
	want := []string{"error", "hello", "made", "error", "observation", "observation", "error", "hello"}
	var got []string
	for _, a := range answers {
		got = append(got, a["type"].(string))
	}
	if code != exitOK || !slices.Equal(got, want) {
		t.Fatalf("status %d, answers %v, want %v", code, got, want)
	}
	for i, sub := range map[int]string{0: "say hello first", 3: "has no episode: reset it first", 6: "is over (truncated after 1 steps)"} {
		if msg := answers[i]["message"].(string); !strings.Contains(msg, sub) {
			t.Errorf("answer %d: %q lacks %q", i+1, msg, sub)
		}
	}
	if answers[5]["truncated"] != true {
		t.Errorf("the one step of a one-step episode is not truncated: %v", answers[5])
	}
}

// A hello of another major version is answered with an error and ends
// serve-env with status 5, the requests after it unanswered; another
// minor version of version 1 is spoken.
func TestServeEnvVersionMismatch(t *testing.T) {
	for _, tt := range []struct {
		protocol string
		code     int
	}{{"anynt/2", exitAgent}, {"anynt/10", exitAgent}, {"gym/1", exitAgent}, {"anynt/1.4", exitOK}, {"anynt/1", exitOK}} {
		answers, errw, code := serveEnv(t, `{"type":"hello","protocol":"`+tt.protocol+`"}`, `{"type":"make","file":"`+blocker+`"}`)
		if code != tt.code {
			t.Errorf("%s: status %d, want %d", tt.protocol, code, tt.code)
		}
		if tt.code == exitOK {
			if len(answers) != 2 || answers[0]["type"] != "hello" || answers[1]["type"] != "made" {
				t.Errorf("%s: answers %v", tt.protocol, answers)
			}
			continue
		}
		want := fmt.Sprintf("protocol %q is not spoken here: serve-env speaks \"anynt/1.1\"", tt.protocol)
		if len(answers) != 1 || answers[0]["type"] != "error" || answers[0]["message"] != want || !strings.Contains(errw, want) {
			t.Errorf("%s: answers %v, stderr %q; want one error %q", tt.protocol, answers, errw, want)
		}
	}
}

// The end of the input ends serve-env with status 0, a last request
// without its newline answered; an empty input is answered with nothing.
func TestServeEnvEndOfInput(t *testing.T) {
	out, errw, code := anynt(t, hello+"\n"+`{"type":"make","lambda_one":{"seed":1,"exercise":1}}`, "serve-env")
	if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(out, `"type":"made"`) || errw != "" {
		t.Errorf("status %d, answers %q, stderr %q", code, out, errw)
	}
	if out, _, code := anynt(t, "", "serve-env"); code != exitOK || out != "" {
		t.Errorf("empty input: status %d, answers %q", code, out)
	}
	// A carriage return before the newline is part of the line's end.
	if out, _, code := anynt(t, hello+"\r\n", "serve-env"); code != exitOK || !strings.Contains(out, `"type":"hello"`) {
		t.Errorf("CRLF: status %d, answers %q", code, out)
	}
}

// At most serveenv.MaxOpenEnvs environments are open; closing one makes room.
func TestServeEnvOpenEnvironmentsAreBounded(t *testing.T) {
	requests := []string{hello}
	for range serveenv.MaxOpenEnvs + 1 {
		requests = append(requests, `{"type":"make","file":"`+blocker+`"}`)
	}
	requests = append(requests, `{"type":"close","env":7}`, `{"type":"make","file":"`+blocker+`"}`)
	answers, _, code := serveEnv(t, requests...)
	if code != exitOK || len(answers) != len(requests) {
		t.Fatalf("status %d, %d answers", code, len(answers))
	}
	if refused := answers[serveenv.MaxOpenEnvs+1]; refused["type"] != "error" || !strings.Contains(refused["message"].(string), "1000 environments are open") {
		t.Errorf("make number %d: %v, want refused", serveenv.MaxOpenEnvs+1, refused)
	}
	if last := answers[len(answers)-1]; last["type"] != "made" || last["env"] != float64(serveenv.MaxOpenEnvs+1) {
		t.Errorf("make after a close: %v, want environment %d", last, serveenv.MaxOpenEnvs+1)
	}
}

// brokenPipe fails every read or write, as a pipe whose other end is
// closed does.
type brokenPipe struct{}

func (brokenPipe) Read([]byte) (int, error)  { return 0, io.ErrClosedPipe }
func (brokenPipe) Write([]byte) (int, error) { return 0, io.ErrClosedPipe }

// A client that closes its end early ends serve-env with status 4, the
// I/O failure named.
func TestServeEnvIOFailure(t *testing.T) {
	var errw strings.Builder
	if code := run([]string{"serve-env"}, strings.NewReader(hello+"\n"), brokenPipe{}, &errw); code != exitIO || !strings.Contains(errw.String(), "writing answers") {
		t.Errorf("output closed: status %d, stderr %q", code, errw.String())
	}
	errw.Reset()
	if code := run([]string{"serve-env"}, brokenPipe{}, io.Discard, &errw); code != exitIO || !strings.Contains(errw.String(), "reading requests") {
		t.Errorf("input failed: status %d, stderr %q", code, errw.String())
	}
}

// FuzzServeEnv sends arbitrary lines after a session's start: serve-env
// never panics, answers each line with exactly one JSON object, and ends
// with status 0, or 5 after a hello of another version.
//
//	go test ./cmd/anynt -run '^$' -fuzz FuzzServeEnv -fuzztime 1m
func FuzzServeEnv(f *testing.F) {
	for _, seed := range []string{
		`{"type":"step","env":1,"action":1}`, `{"type":"reset","env":1,"seed":3,"episode":2}`,
		`{"type":"make","lambda_one":{"seed":1,"exercise":7},"steps":3}`, `{"type":"close","env":1}`,
		`{"type":"hello","protocol":"anynt/1.9"}`, `{"type":"hello","protocol":"anynt/3"}`,
		`{"type":"step","env":1,"action":1e3}`, `[{"type":"step"}]`, `{"type":null}`, "\x00\xff", "",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, request string) {
		lines := strings.Split(strings.ReplaceAll(request, "\r", ""), "\n")
		in := strings.Join(append([]string{hello, `{"type":"make","file":"` + blocker + `","steps":4}`, `{"type":"reset","env":1}`}, lines...), "\n") + "\n"
		var out, errw strings.Builder
		code := run([]string{"serve-env"}, strings.NewReader(in), &out, &errw)
		answers := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		for _, a := range answers {
			var v map[string]any
			if err := json.Unmarshal([]byte(a), &v); err != nil || v["type"] == nil {
				t.Fatalf("answer %q is not a JSON object with a type", a)
			}
		}
		switch {
		case code == exitAgent:
			if last := answers[len(answers)-1]; !strings.Contains(last, "is not spoken here") {
				t.Fatalf("status 5 after %q", last)
			}
		case code != exitOK:
			t.Fatalf("status %d, stderr %q", code, errw.String())
		case len(answers) != 3+len(lines):
			t.Fatalf("%d answers to %d requests", len(answers), 3+len(lines))
		}
	})
}
