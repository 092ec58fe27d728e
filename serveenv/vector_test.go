package serveenv

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anynt/anynt/random"
	"github.com/google/go-cmp/cmp"
)

// vecStep is what a vector's answer says of one copy at one step.
type vecStep struct {
	Observation []int
	Reward      float64
	Truncated   bool
	Final       []int // same_step: the last observation of the episode that ended
}

// unb64 decodes a base64 field of an answer.
func unb64(t *testing.T, a map[string]any, key string) []byte {
	t.Helper()
	s, ok := a[key].(string)
	if !ok {
		t.Fatalf("answer %v has no %q", a, key)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return b
}

// vecSteps splits a vector's answer into its copies' steps.
func vecSteps(t *testing.T, a map[string]any, n int) []vecStep {
	t.Helper()
	if a["type"] != "observations" {
		t.Fatalf("not observations: %v", a)
	}
	obs, rewards, truncated := unb64(t, a, "observations"), unb64(t, a, "rewards"), unb64(t, a, "truncated")
	if len(obs)%n != 0 || len(rewards) != 8*n || len(truncated) != n {
		t.Fatalf("%d copies: %d observation bytes, %d reward bytes, %d truncation bytes", n, len(obs), len(rewards), len(truncated))
	}
	var final []byte
	if _, ok := a["final_observations"]; ok {
		final = unb64(t, a, "final_observations")
	}
	l := len(obs) / n
	out := make([]vecStep, n)
	for i := range out {
		for _, x := range obs[i*l : (i+1)*l] {
			out[i].Observation = append(out[i].Observation, int(x))
		}
		out[i].Reward = math.Float64frombits(binary.LittleEndian.Uint64(rewards[8*i:]))
		out[i].Truncated = truncated[i] == 1
		if out[i].Truncated && final != nil {
			for _, x := range final[:l] {
				out[i].Final = append(out[i].Final, int(x))
			}
			final = final[l:]
		}
	}
	return out
}

// single is what a single environment's answer says.
func single(t *testing.T, a map[string]any) vecStep {
	t.Helper()
	if a["type"] != "observation" {
		t.Fatalf("not an observation: %v", a)
	}
	var s vecStep
	for _, x := range a["observation"].([]any) {
		s.Observation = append(s.Observation, int(x.(float64)))
	}
	s.Reward = a["reward"].(float64)
	s.Truncated = a["truncated"].(bool)
	return s
}

// A vector of n copies plays what n single environments play with the
// same exercise, episode streams seed+i and actions, interaction for
// interaction, across the ends of episodes: under next_step the step after
// the last one starts the next episode (reward 0, the action ignored), as
// a reset of the single environment does; under same_step the step that
// ends an episode answers the next one's first observation and the last
// observation in final_observations. Stepped by one goroutine and shared
// among helpers alike.
func TestVectorPlaysAsSingleEnvironments(t *testing.T) {
	const n, steps, rounds = 5, 4, 13
	for _, exercise := range []string{`"file":"` + blocker + `"`, `"file":"` + fixtureB + `","seed":99`, `"lambda_one":{"seed":3,"exercise":3}`} {
		for _, mode := range []string{"next_step", "same_step"} {
			for _, parallel := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/parallel=%v", exercise, mode, parallel), func(t *testing.T) {
					if parallel {
						old, oldReset, procs := parallelFrom, parallelResetFrom, runtime.GOMAXPROCS(3)
						parallelFrom, parallelResetFrom = 2, 2
						defer func() { parallelFrom, parallelResetFrom = old, oldReset; runtime.GOMAXPROCS(procs) }()
					}
					rng := random.New(1, 2)
					vec := n + 1
					lines := []string{hello}
					for range n {
						lines = append(lines, fmt.Sprintf(`{"type":"make",%s,"steps":%d}`, exercise, steps))
					}
					lines = append(lines, fmt.Sprintf(`{"type":"make",%s,"steps":%d,"num_envs":%d,"autoreset":%q}`, exercise, steps, n, mode))
					// want[r][i] is the index of the answer of single i that
					// the vector's answer r must match (and final[r][i] of its
					// last observation, under same_step); got[r] the vector's.
					var want, final [][]int
					var got []int
					round := func(vecLine string, singles func(i int) []string, last bool) {
						w, f := make([]int, n), make([]int, n)
						for i := range n {
							ls := singles(i)
							lines = append(lines, ls...)
							w[i] = len(lines) - 1
							f[i] = -1
							if last && mode == "same_step" {
								f[i] = len(lines) - 2
							}
						}
						lines = append(lines, vecLine)
						want, final, got = append(want, w), append(final, f), append(got, len(lines)-1)
					}
					round(fmt.Sprintf(`{"type":"reset","env":%d,"episode_seed":40}`, vec), func(i int) []string {
						return []string{fmt.Sprintf(`{"type":"reset","env":%d,"episode_seed":%d}`, i+1, 40+i)}
					}, false)
					step := 0
					for range rounds {
						actions := make([]int, n)
						var list []string
						for i := range actions {
							actions[i] = rng.IntN(3)
							list = append(list, fmt.Sprint(actions[i]))
						}
						vecLine := fmt.Sprintf(`{"type":"step","env":%d,"actions":[%s]}`, vec, strings.Join(list, ","))
						if step == steps { // next_step: this step resets
							step = 0
							round(vecLine, func(i int) []string { return []string{fmt.Sprintf(`{"type":"reset","env":%d}`, i+1)} }, false)
							continue
						}
						step++
						last := step == steps
						round(vecLine, func(i int) []string {
							ls := []string{fmt.Sprintf(`{"type":"step","env":%d,"action":%d}`, i+1, actions[i])}
							if last && mode == "same_step" {
								ls = append(ls, fmt.Sprintf(`{"type":"reset","env":%d}`, i+1))
							}
							return ls
						}, last)
						if last && mode == "same_step" {
							step = 0
						}
					}
					answers, err := serve(t, lines...)
					if err != nil {
						t.Fatal(err)
					}
					if len(answers) != len(lines) {
						t.Fatalf("%d answers to %d requests", len(answers), len(lines))
					}
					for r := range got {
						vs := vecSteps(t, answers[got[r]], n)
						for i := range n {
							w := single(t, answers[want[r][i]])
							if final[r][i] >= 0 {
								last := single(t, answers[final[r][i]])
								w.Final, w.Reward, w.Truncated = last.Observation, last.Reward, true
							}
							if diff := cmp.Diff(w, vs[i]); diff != "" {
								t.Fatalf("request %d (%s), copy %d (-single +vector):\n%s", got[r]+1, lines[got[r]], i, diff)
							}
						}
					}
				})
			}
		}
	}
}

// A bad request to a vector is answered with an error that says what is
// wrong, and changes nothing: the steps after it answer what they answer
// without it.
func TestVectorErrorsChangeNothing(t *testing.T) {
	mk := `{"type":"make","file":"` + blocker + `","steps":3,"num_envs":2}`
	good := []string{hello, mk, `{"type":"reset","env":1,"episode_seed":7}`,
		`{"type":"step","env":1,"actions":[2,1]}`, `{"type":"step","env":1,"actions":"AQA="}`, `{"type":"step","env":1,"actions":[0,0]}`, `{"type":"step","env":1,"actions":[1,2]}`,
		`{"type":"step","env":1,"actions":"AQI\u003d"}`} // a JSON escape in base64: "AQI="
	bad := []struct{ request, message string }{
		{`{"type":"step","env":1,"actions":[0]}`, "step: actions has 1 for 2 copies: one action a copy"},
		{`{"type":"step","env":1,"actions":[0,1,2]}`, "step: actions has 3 for 2 copies: one action a copy"},
		{`{"type":"step","env":1,"actions":[0,3]}`, "step: action 3 of copy 1 is not an action: an integer from 0 to 2"},
		{`{"type":"step","env":1,"actions":[-1,0]}`, "step: action -1 of copy 0 is not an action: an integer from 0 to 2"},
		{`{"type":"step","env":1,"actions":[0,1.5]}`, `step: action "1.5" of copy 1 is not an integer literal`},
		{`{"type":"step","env":1,"actions":[0,"1"]}`, `step: action "\"1\"" of copy 1 is not an integer literal`},
		{`{"type":"step","env":1,"actions":"AQ=="}`, "step: actions has 1 for 2 copies: one action a copy"},
		{`{"type":"step","env":1,"actions":"A"}`, "step: actions is not base64 (illegal base64 data at input byte 0)"},
		{`{"type":"step","env":1,"actions":{}}`, "step: actions must be a list of 2 integers, one a copy, or a base64 string of 2 bytes"},
		{`{"type":"step","env":1,"action":1}`, `step needs the "actions" of a vector environment, one a copy: "{\"type\":\"step\",\"env\":1,\"action\":1}"`},
		{`{"type":"reset","env":1,"episode_seeds":[1]}`, "reset: episode_seeds has 1 seeds; the vector has 2 copies, one seed each"},
		{`{"type":"reset","env":1,"episode_seed":1,"episode_seeds":[1,2]}`, `reset: give "episode_seed" or "episode_seeds", not both`},
		{`{"type":"reset","env":1,"mask":[true]}`, "reset: mask has 1 entries; the vector has 2 copies, one each"},
		{`{"type":"reset","env":1,"episode":-1}`, "reset: episode -1; it must be from 0 to 999999"},
		{`{"type":"reset","env":1,"seed":9,"mask":[true,false]}`, `reset: a "seed" changes every copy's alphabet: reset them all (no mask, or a mask all true)`},
	}
	want, err := serve(t, good...)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		// The bad request before every step.
		lines := slices.Clone(good[:3])
		for _, l := range good[3:] {
			lines = append(lines, b.request, l)
		}
		got, err := serve(t, lines...)
		if err != nil {
			t.Fatal(err)
		}
		for k, l := range good[3:] {
			e := got[3+2*k]
			if e["type"] != "error" || e["message"] != b.message {
				t.Errorf("%s: answered %v, want the error %q", b.request, e, b.message)
			}
			if diff := cmp.Diff(want[3+k], got[4+2*k]); diff != "" {
				t.Fatalf("%s changed the answer to %s (-without +with):\n%s", b.request, l, diff)
			}
		}
	}
}

// Errors of making a vector, of vector fields sent to a single
// environment, of a step before reset, and the bounds on copies.
func TestVectorMakeErrors(t *testing.T) {
	file := `"file":"` + blocker + `"`
	for _, tc := range []struct {
		requests []string
		message  string
	}{
		{[]string{`{"type":"make",` + file + `,"num_envs":0}`}, "make: num_envs is 0; it must be from 1 to 4096"},
		{[]string{`{"type":"make",` + file + `,"num_envs":4097}`}, "make: num_envs is 4097; it must be from 1 to 4096"},
		{[]string{`{"type":"make",` + file + `,"num_envs":2,"autoreset":"never"}`}, `make: autoreset "never"; it must be one of next_step, same_step, disabled`},
		{[]string{`{"type":"make",` + file + `,"num_envs":2}`, `{"type":"step","env":1,"actions":[0,0]}`}, "step: copy 0 has no episode: reset the vector first"},
		{[]string{`{"type":"make",` + file + `}`, `{"type":"reset","env":1}`, `{"type":"step","env":1,"actions":[0]}`}, `step: "actions" is for a vector environment (make with num_envs); this one takes one "action"`},
		{[]string{`{"type":"make",` + file + `}`, `{"type":"reset","env":1,"episode_seeds":[1]}`}, "reset: episode_seeds and mask are for a vector environment (make with num_envs)"},
		{[]string{`{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `}`},
			"make: the open environments have 16384 copies, the most serve-env holds: close one first"},
		{[]string{`{"type":"make",` + file + `}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`, `{"type":"make",` + file + `,"num_envs":4096}`},
			"make: 4096 more copies would make 16385; serve-env holds at most 16384 in all its environments: close some first"},
	} {
		answers, err := serve(t, append([]string{hello}, tc.requests...)...)
		if err != nil {
			t.Fatal(err)
		}
		last := answers[len(answers)-1]
		if last["type"] != "error" || last["message"] != tc.message {
			t.Errorf("%s: answered %v, want the error %q", tc.requests[len(tc.requests)-1], last, tc.message)
		}
		for _, a := range answers[1 : len(answers)-1] {
			if a["type"] == "error" {
				t.Errorf("%v: an error before the last request: %v", tc.requests, a)
			}
		}
	}
}

// Under autoreset disabled, a copy whose episode ended is not stepped
// again (an error, nothing stepped) until a reset names it; a reset with a
// mask resets only the copies it names, the others keep their episode.
func TestVectorAutoresetDisabled(t *testing.T) {
	answers, err := serve(t, hello,
		`{"type":"make","file":"`+blocker+`","steps":2,"num_envs":2,"autoreset":"disabled"}`,
		`{"type":"reset","env":1,"episode_seed":7}`,
		`{"type":"step","env":1,"actions":[1,1]}`,
		`{"type":"step","env":1,"actions":[1,1]}`,
		`{"type":"step","env":1,"actions":[1,1]}`,
		`{"type":"reset","env":1,"mask":[true,false]}`,
		`{"type":"step","env":1,"actions":[1,1]}`,
		`{"type":"reset","env":1,"mask":[false,true]}`,
		`{"type":"step","env":1,"actions":[2,2]}`,
	)
	if err != nil {
		t.Fatal(err)
	}
	if vs := vecSteps(t, answers[4], 2); !vs[0].Truncated || !vs[1].Truncated {
		t.Fatalf("step 2 of 2 did not truncate: %v", answers[4])
	}
	const over = "step: the episode of copy 0 is over (truncated after 2 steps) and autoreset is disabled: reset it"
	if answers[5]["message"] != over {
		t.Errorf("a step after the end answered %v, want %q", answers[5], over)
	}
	if got := answers[6]["episodes"]; !cmp.Equal(got, []any{1.0, 0.0}) {
		t.Errorf("reset of copy 0 alone: episodes %v, want [1 0]", got)
	}
	if got := answers[6]["steps"]; !cmp.Equal(got, []any{0.0, 2.0}) {
		t.Errorf("reset of copy 0 alone: steps %v, want [0 2]", got)
	}
	if vs := vecSteps(t, answers[6], 2); vs[1].Truncated || vs[1].Reward != 0 {
		t.Errorf("reset of copy 0 alone: copy 1 answered truncated %v, reward %v; a reset answers neither", vs[1].Truncated, vs[1].Reward)
	}
	if answers[7]["message"] != strings.Replace(over, "copy 0", "copy 1", 1) {
		t.Errorf("copy 1, not reset, was stepped: %v", answers[7])
	}
	if got := answers[8]["episodes"]; !cmp.Equal(got, []any{1.0, 1.0}) {
		t.Errorf("reset of copy 1 alone: episodes %v, want [1 1]", got)
	}
	if answers[9]["type"] != "observations" {
		t.Errorf("a step after both resets answered %v", answers[9])
	}
}

// stepRequests is an io.Reader of a session of one vector: its first
// lines, then warm steps (which warm the environment's memos), then n
// steps, cycling over the step lines given; it calls start when the n
// steps begin, so that a benchmark times only them.
type stepRequests struct {
	head    []byte
	steps   [][]byte
	warm, n int
	start   func()
	k       int // the step lines given so far
	pending []byte
}

func (r *stepRequests) Read(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		if len(r.pending) == 0 {
			switch {
			case r.head != nil:
				r.pending, r.head = r.head, nil
			case r.k < r.warm+r.n:
				if r.k == r.warm {
					r.start()
				}
				r.pending = r.steps[r.k%len(r.steps)]
				r.k++
			default:
				if done == 0 {
					return 0, io.EOF
				}
				return done, nil
			}
		}
		c := copy(p[done:], r.pending)
		r.pending = r.pending[c:]
		done += c
	}
	return done, nil
}

// BenchmarkVecStep measures a vector's step through the server, every
// request written ahead (serve-env's own cost, as BenchmarkRequestsAhead
// for single environments; the answers go to io.Discard), after 2000
// steps that warm the memos, with actions as a JSON list and as base64,
// stepped by one goroutine and shared with helpers (parallelFrom), at
// sizes of vector. An op is one vector step:
//
//	go test ./serveenv -run '^$' -bench VecStep -benchmem
func BenchmarkVecStep(b *testing.B) {
	for _, n := range []int{16, 64, 256, 1024} {
		for _, form := range []string{"list", "base64"} {
			for _, parallel := range []bool{false, true} {
				b.Run(fmt.Sprintf("n=%d/%s/parallel=%v", n, form, parallel), func(b *testing.B) {
					old := parallelFrom
					defer func() { parallelFrom = old }()
					parallelFrom = n + 1
					if parallel {
						parallelFrom = n
					}
					r := &stepRequests{
						head:  []byte(hello + "\n" + `{"type":"make","file":"` + blocker + `","num_envs":` + fmt.Sprint(n) + "}\n" + `{"type":"reset","env":1,"episode_seed":1}` + "\n"),
						warm:  2000,
						n:     b.N,
						start: b.ResetTimer,
					}
					rng := random.New(1, 1)
					actions := make([]byte, n)
					for range 64 {
						for i := range actions {
							actions[i] = byte(rng.IntN(3))
						}
						if form == "base64" {
							r.steps = append(r.steps, []byte(`{"type":"step","env":1,"actions":"`+base64.StdEncoding.EncodeToString(actions)+"\"}\n"))
							continue
						}
						list := make([]string, n)
						for i, a := range actions {
							list[i] = fmt.Sprint(a)
						}
						r.steps = append(r.steps, []byte(`{"type":"step","env":1,"actions":[`+strings.Join(list, ",")+"]}\n"))
					}
					b.ReportAllocs()
					if err := New(io.Discard, options).Serve(r); err != nil {
						b.Fatal(err)
					}
					b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "steps/s")
				})
			}
		}
	}
}

// The step lines the fast path reads get the answers the decoder's path
// gives them, byte for byte, and so do the lines it leaves to the decoder
// (every oddity of JSON it does not take), good or bad, in one session.
func TestFastStepAnswersAsTheDecoder(t *testing.T) {
	lines := []string{hello,
		`{"type":"make","file":"` + blocker + `","steps":3,"num_envs":2}`,
		`{"type":"make","file":"` + blocker + `","steps":3}`,
		`{"type":"reset","env":1,"episode_seed":7}`,
		`{"type":"reset","env":2,"episode_seed":7}`,
	}
	lines = append(lines,
		`{"type":"step","env":1,"actions":[2,1]}`,
		`{ "type" : "step" , "env" : 1 , "actions" : [ 0 , 2 ] } `,
		`{"actions":"AQA=","env":1,"type":"step"}`,
		`{"type": "step", "env": 1, "actions": "AgI="}`,
		`{"type":"step","env":1,"actions":[1,]}`,
		`{"type":"step","env":1,"actions":[01,1]}`,
		`{"type":"step","env":1,"actions":[1 1]}`,
		`{"type":"step","env":1,"actions":[-0,1]}`,
		`{"type":"step","env":1,"actions":[1,-1]}`,
		`{"type":"step","env":1,"actions":[[1],1]}`,
		`{"type":"step","env":1,"actions":[1,2,0]}`,
		`{"type":"step","env":1,"actions":[]}`,
		`{"type":"step","env":1,"actions":"AQ"}`,
		`{"type":"step","env":1,"actions":"AQA=","actions":"AAA="}`,
		`{"type":"step","env":1,"Actions":"AQA="}`,
		`{"type":"step","env":1,"actions":"AQA=","extra":1}`,
		`{"type":"st\u0065p","env":1,"actions":"AQA="}`,
		`{"type":"step","env":1.0,"actions":"AQA="}`,
		`{"type":"step","env":01,"actions":"AQA="}`,
		`{"type":"step","env":"1","actions":"AQA="}`,
		`{"type":"step","env":1,"actions":"AQA="} x`,
		`{"type":"step","env":1,"actions":"AQA="`,
		`{"type":"step","env":2,"actions":"AQ=="}`,
		`{"type":"step","env":3,"actions":"AQA="}`,
		`{"type":"step","env":1,"actions":[2,2]}`,
		`{"type":"step","env":1,"actions":[0,1]}`,
	)
	fast, err := serveRaw(lines)
	if err != nil {
		t.Fatal(err)
	}
	fastSteps = false
	defer func() { fastSteps = true }()
	slow, err := serveRaw(lines)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(slow, "\n"), strings.Split(fast, "\n")); diff != "" {
		t.Errorf("answers (-decoder +fast path):\n%s", diff)
	}
	if strings.Count(fast, `"type":"observations"`) < 8 {
		t.Errorf("too few steps were answered for the comparison to mean much:\n%s", fast)
	}
}

// serveRaw runs a server on the request lines and returns its answers as
// written.
func serveRaw(lines []string) (string, error) {
	var out strings.Builder
	err := New(&out, options).Serve(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	return out.String(), err
}

// Example_vector serves a vector of two copies: made, reset with the
// episode seed 7 (copy i plays stream 7+i) and stepped once with an action
// for each; the observations, rewards and truncations are base64 of
// little-endian bytes.
func Example_vector() {
	requests := strings.Join([]string{
		`{"type":"hello","protocol":"anynt/1.1"}`,
		`{"type":"make","file":"../corpus/thesis/omega1-blocker.anynt","steps":3,"num_envs":2}`,
		`{"type":"reset","env":1,"episode_seed":7}`,
		`{"type":"step","env":1,"actions":[2,1]}`,
	}, "\n") + "\n"
	var answers strings.Builder
	if err := New(&answers, Options{Version: "0.2.0-dev", Load: load}).Serve(strings.NewReader(requests)); err != nil {
		fmt.Println(err)
	}
	for l := range strings.Lines(answers.String()) {
		fmt.Print(l)
	}
	// Output:
	// {"type":"hello","protocol":"anynt/1.1","tool":"anynt 0.2.0-dev"}
	// {"type":"made","env":1,"name":"../corpus/thesis/omega1-blocker.anynt","actions":3,"action_names":["s","l","r"],"symbols":12,"cells":6,"steps":3,"seed":1,"num_envs":2,"autoreset":"next_step","length":13}
	// {"type":"observations","env":1,"observations":"CwgDCAIHCAUBCAYICAgHCAUBCAsGCAIIAwg=","rewards":"AAAAAAAAAAAAAAAAAAAAAA==","truncated":"AAA=","num_envs":2,"length":13,"seed":1,"episode_seeds":[7,8],"episodes":[0,0],"steps":[0,0],"alphabet":["s","S","⊖","⊕","l","π","R","L",":","r","⊙","ω1"]}
	// {"type":"observations","env":1,"observations":"CwgIAwgCBwgFAQgGCAcIBQEIBggLCAIIAwg=","rewards":"AAAAAAAAwL8AAAAAAAAAAA==","truncated":"AAA="}
}

// BenchmarkVecReset measures a reset of 512 copies (each starts an
// episode), by one goroutine and shared with helpers
// (parallelResetFrom):
//
//	go test ./serveenv -run '^$' -bench VecReset -benchmem
func BenchmarkVecReset(b *testing.B) {
	e, err := load(blocker)
	if err != nil {
		b.Fatal(err)
	}
	for _, parallel := range []bool{false, true} {
		b.Run(fmt.Sprintf("parallel=%v", parallel), func(b *testing.B) {
			old, oldReset := parallelFrom, parallelResetFrom
			defer func() { parallelFrom, parallelResetFrom = old, oldReset }()
			parallelResetFrom = 1 << 30
			if parallel {
				parallelResetFrom = 2
			}
			v := newVector(e, blocker, 1000, 1, 512, nextStep)
			defer v.close()
			if err := v.reset(vecReset{}); err != nil { // each copy's first episode
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := v.reset(vecReset{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// Over a pipe, where the server polls for the next request after a vector
// step (await), a client that waits for each answer, quick or slow, gets
// the answers the same requests get all at once, and the end of its
// requests ends the server.
func TestVectorOverAPipeAnswersAsAtOnce(t *testing.T) {
	lines := []string{hello, `{"type":"make","file":"` + blocker + `","steps":3,"num_envs":3}`, `{"type":"reset","env":1,"episode_seed":5}`}
	for k := range 12 {
		lines = append(lines, fmt.Sprintf(`{"type":"step","env":1,"actions":[%d,%d,%d]}`, k%3, (k+1)%3, (k+2)%3))
	}
	lines = append(lines, `{"type":"step","env":1,"actions":[0,9,0]}`, `{"type":"close","env":1}`)
	want, err := serveRaw(lines)
	if err != nil {
		t.Fatal(err)
	}
	requests, toServer, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer requests.Close()
	var out syncBuffer
	done := make(chan error)
	go func() { done <- New(&out, options).Serve(requests) }()
	for k, l := range lines {
		if _, err := io.WriteString(toServer, l+"\n"); err != nil {
			t.Fatal(err)
		}
		for out.lines() < k+1 { // the answer, then the next request: quick
			runtime.Gosched()
		}
		if k%4 == 3 { // and now and then a client slower than the window
			time.Sleep(2 * pollWindow)
		}
	}
	toServer.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(out.String(), "\n")); diff != "" {
		t.Errorf("answers (-all at once +over a pipe):\n%s", diff)
	}
}

// syncBuffer is a strings.Builder written by the server's goroutine and
// read by the test's.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuffer) lines() int { return strings.Count(b.String(), "\n") }

// A step names what is wrong first: an environment that is not open is
// that, whatever the step carries; "actions": null is no actions.
func TestStepOfNoEnvironment(t *testing.T) {
	answers, err := serve(t, hello, `{"type":"make","file":"`+blocker+`","steps":3}`, `{"type":"reset","env":1}`,
		`{"type":"step","env":9,"actions":"AA=="}`,
		`{"type":"step","env":1,"action":1,"actions":null}`,
		`{"type":"step","env":1,"actions":[1]}`)
	if err != nil {
		t.Fatal(err)
	}
	if answers[3]["message"] != "step: no environment 9 is open" {
		t.Errorf("a vector step of no environment: %v", answers[3])
	}
	if answers[4]["type"] != "observation" {
		t.Errorf(`a step with "actions": null: %v`, answers[4])
	}
	if msg, _ := answers[5]["message"].(string); !strings.Contains(msg, `"actions" is for a vector environment`) {
		t.Errorf("a single environment given actions: %v", answers[5])
	}
}
