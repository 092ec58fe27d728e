package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/serveenv"
	"github.com/google/go-cmp/cmp"
)

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

func (brokenPipe) Read([]byte) (int, error) { return 0, io.ErrClosedPipe }

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
