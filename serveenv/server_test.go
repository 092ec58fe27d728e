package serveenv

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/anynt/anynt/agentproto"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

const (
	hello    = `{"type":"hello","protocol":"anynt/1"}`
	blocker  = "../corpus/thesis/omega1-blocker.anynt"
	fixtureB = "../corpus/lambda-one/fixture-b.anynt"
)

// load reads an environment file as anynt's commands do, without their
// bounds on the file's size (the tests' files are small).
func load(path string) (*env.Env, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := lang.Parse(path, src)
	if err != nil {
		return nil, err
	}
	return env.Load(f)
}

// options are the tests' server options.
var options = Options{Version: "test", Load: load}

// serve runs a server on the request lines and returns its answers,
// decoded, and Serve's error.
func serve(t testing.TB, lines ...string) ([]map[string]any, error) {
	t.Helper()
	var out strings.Builder
	err := New(&out, options).Serve(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	var answers []map[string]any
	for l := range strings.Lines(out.String()) {
		var a map[string]any
		if jerr := json.Unmarshal([]byte(l), &a); jerr != nil {
			t.Fatalf("answer %q is not a JSON object: %v", l, jerr)
		}
		answers = append(answers, a)
	}
	return answers, err
}

// The hello's answer names the version both directions speak and the
// tool's version from the options; an environment is made by the loader
// of the options, and a file's errors come as that loader gives them.
func TestHelloAndMake(t *testing.T) {
	bad := t.TempDir() + "/bad.anynt"
	if err := os.WriteFile(bad, []byte("actions s l r\nspace thesis lr+:l-r+:l-r\ngoodevil pattern 1 2\nplace π 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	answers, err := serve(t, hello, `{"type":"make","file":"`+blocker+`"}`, `{"type":"make","file":"`+bad+`"}`)
	if err != nil || len(answers) != 3 {
		t.Fatalf("%d answers, %v", len(answers), err)
	}
	if answers[0]["protocol"] != "anynt/1.1" || answers[0]["tool"] != "anynt test" {
		t.Errorf("hello: %v", answers[0])
	}
	if answers[1]["type"] != "made" || answers[1]["cells"] != float64(6) || answers[1]["seed"] != float64(DefaultFileSeed) || answers[1]["steps"] != float64(DefaultFileSteps) {
		t.Errorf("make: %v", answers[1])
	}
	if errs, _ := answers[2]["errors"].([]any); len(errs) != 1 || !strings.HasPrefix(errs[0].(string), bad+":4:1: ") {
		t.Errorf("make of a file with errors: %v", answers[2])
	}
}

// A hello of another major version ends Serve with agentproto's version
// error; a reader that fails ends it with ErrIO.
func TestServeEnds(t *testing.T) {
	if _, err := serve(t, `{"type":"hello","protocol":"anynt/2"}`, hello); !errors.Is(err, agentproto.ErrVersion) {
		t.Errorf("another major version: %v", err)
	}
	r, w := io.Pipe()
	w.CloseWithError(fmt.Errorf("gone"))
	if err := New(io.Discard, options).Serve(r); !errors.Is(err, ErrIO) || !strings.Contains(err.Error(), "reading requests: gone") {
		t.Errorf("a failed read: %v", err)
	}
}

// BenchmarkRequestsAhead measures serve-env's own cost per step:
// every request is written ahead, so no step waits for a client, as with
// a client that steps many environments at once:
//
//	go test ./serveenv -run '^$' -bench . -benchmem
func BenchmarkRequestsAhead(b *testing.B) {
	const steps = 100_000
	var in strings.Builder
	in.WriteString(hello + "\n" + `{"type":"make","file":"` + blocker + `","steps":10000000}` + "\n" + `{"type":"reset","env":1,"seed":1}` + "\n")
	for i := range steps {
		fmt.Fprintf(&in, "{\"type\": \"step\", \"env\": 1, \"action\": %d}\n", i%3)
	}
	requests := in.String()
	b.ReportAllocs()
	for b.Loop() {
		if err := New(io.Discard, options).Serve(strings.NewReader(requests)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkSteps measures steps a second through serve-env with a
// trivial client in the process that sends a step, waits for its answer
// and sends the next (as a Gymnasium loop does), over pipes:
//
//	go test ./serveenv -run '^$' -bench . -benchmem
func BenchmarkSteps(b *testing.B) {
	for _, file := range []string{blocker, fixtureB} {
		b.Run(strings.TrimSuffix(file[strings.LastIndex(file, "/")+1:], ".anynt"), func(b *testing.B) {
			requests, toServer := io.Pipe()
			fromServer, answers := io.Pipe()
			done := make(chan error)
			go func() {
				done <- New(answers, options).Serve(requests)
				answers.Close()
			}()
			r := bufio.NewReader(fromServer)
			ask := func(req string) string {
				if _, err := io.WriteString(toServer, req); err != nil {
					b.Fatal(err)
				}
				line, err := r.ReadString('\n')
				if err != nil {
					b.Fatal(err)
				}
				return line
			}
			ask(hello + "\n")
			ask(`{"type":"make","file":"` + file + `","steps":10000000}` + "\n")
			ask(`{"type":"reset","env":1,"seed":1}` + "\n")
			steps := []string{`{"type":"step","env":1,"action":0}` + "\n", `{"type":"step","env":1,"action":1}` + "\n", `{"type":"step","env":1,"action":2}` + "\n"}
			for i := range 10_000 { // warms the memos
				ask(steps[i%3])
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				ask(steps[i%3])
			}
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			toServer.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		})
	}
}

// Example serves a session: hello, make an environment of three steps,
// reset it with a seed and step it once.
func Example() {
	requests := strings.Join([]string{
		`{"type":"hello","protocol":"anynt/1"}`,
		`{"type":"make","file":"../corpus/thesis/omega1-blocker.anynt","steps":3}`,
		`{"type":"reset","env":1,"seed":7}`,
		`{"type":"step","env":1,"action":2}`,
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
	// {"type":"made","env":1,"name":"../corpus/thesis/omega1-blocker.anynt","actions":3,"action_names":["s","l","r"],"symbols":12,"cells":6,"steps":3,"seed":1}
	// {"type":"observation","env":1,"step":0,"observation":[1,0,11,0,8,2,0,3,4,0,7,0,0],"reward":0,"truncated":false,"seed":7,"episode_seed":7,"episode":0,"alphabet":[":","ω1","L","π","S","⊙","s","R","⊖","l","r","⊕"]}
	// {"type":"observation","env":1,"step":1,"observation":[1,0,0,11,0,8,2,0,3,4,0,7,0],"reward":-0.125,"truncated":false}
}
