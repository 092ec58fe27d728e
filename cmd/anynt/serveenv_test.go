package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"
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
