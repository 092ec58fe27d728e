package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// anyntBin is the anynt binary TestMain builds for the tests that run it.
var anyntBin string

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "anynt-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	anyntBin = filepath.Join(dir, "anynt")
	build := exec.Command("go", "build", "-o", anyntBin, "../cmd/anynt")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	code := 1
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building anynt:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is an anynt serve process.
type server struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT
	stdout *bufio.Reader
	stderr bytes.Buffer
	rest   bytes.Buffer  // what it printed after its first line, read once it exited
	exited chan struct{} // closed when the process has exited, with err its exit
	err    error
}

// wait waits for the process to exit and returns how it exited.
func (s *server) wait() error {
	<-s.exited
	return s.err
}

var servingAt = regexp.MustCompile(`at (http://[^ /]+)/`)

// startServer runs anynt serve on a free loopback port and waits for the
// line that says where it listens.
func startServer(t *testing.T, args ...string) *server {
	t.Helper()
	s := &server{cmd: exec.Command(anyntBin, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...), exited: make(chan struct{})}
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.wait() })
	s.stdout = bufio.NewReader(out)
	line := make(chan string, 1)
	go func() {
		l, _ := s.stdout.ReadString('\n')
		line <- l
		io.Copy(&s.rest, s.stdout) // a full pipe must not block the server
		s.err = s.cmd.Wait()
		close(s.exited)
	}()
	select {
	case l := <-line:
		m := servingAt.FindStringSubmatch(l)
		if m == nil {
			s.wait()
			t.Fatalf("anynt serve %s printed %q, stderr %q", strings.Join(args, " "), l, s.stderr.String())
		}
		s.url = m[1]
	case <-time.After(30 * time.Second):
		t.Fatalf("anynt serve said nothing in 30 s; stderr %q", s.stderr.String())
	}
	return s
}

// client is a participant's browser as the page's script uses it: a
// cookie jar and JSON requests.
type client struct {
	http *http.Client
	base string
}

func newClient(t *testing.T) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &client{http: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// view is the API's view, the part these tests read.
type view struct {
	Participant int `json:"participant"`
	Exercise    int `json:"exercise"`
	Step        int `json:"step"`
	Seq         int `json:"seq"`
	Cells       []struct {
		Number     int      `json:"number"`
		Objects    []string `json:"objects"`
		Accessible bool     `json:"accessible"`
	} `json:"cells"`
	Last *struct {
		Value float64 `json:"value"`
		Sign  int     `json:"sign"`
	} `json:"last"`
	Over bool `json:"over"`
}

// call sends a request as the page does and decodes a 200's view; it
// returns the status.
func (c *client) call(t *testing.T, method, path string, body any, v *view) int {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode == http.StatusOK && v != nil {
		*v = view{}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s %s answered %q: %v", method, path, data, err)
		}
	}
	return res.StatusCode
}

// move clicks an accessible cell of v: the i-th, round.
func (c *client) move(t *testing.T, v *view, i int) (cell int) {
	t.Helper()
	var reach []int
	for _, x := range v.Cells {
		if x.Accessible {
			reach = append(reach, x.Number)
		}
	}
	cell = reach[i%len(reach)]
	body := map[string]any{"participant": v.Participant, "seq": v.Seq, "cell": cell, "client_ms": 300 + i}
	if st := c.call(t, "POST", "/api/move", body, v); st != http.StatusOK {
		t.Fatalf("move %d on cell %d: status %d", i, cell, st)
	}
	return cell
}

// exported is one interaction as anynt results --interactions --json
// writes it.
type exported struct {
	Participant  int     `json:"participant"`
	Exercise     int     `json:"exercise"`
	Step         int     `json:"step"`
	Seq          int     `json:"seq"`
	Cell         int     `json:"cell"`
	Reward       float64 `json:"reward"`
	TookMillis   float64 `json:"took_ms"`
	ServerMillis float64 `json:"server_ms"`
	Version      string  `json:"version"`
}

func interactions(t *testing.T, db string) []exported {
	t.Helper()
	out, err := exec.Command(anyntBin, "results", "--db", db, "--interactions", "--json").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("anynt results --interactions: %v: %s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var rs []exported
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var r exported
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return rs
}

// TestKillAndRestartLosesNothing plays moves over HTTP against anynt
// serve, kills it with SIGKILL mid-exercise (no chance to flush or close
// anything), starts it again on the same database with no flag but --db,
// and checks that every answered move is recorded, that the participant's
// cookie resumes the session at the same view, that a replay of the last
// answered move is refused, and that the next move goes on; then that a
// move sent across another restart, without the view, is played.
func TestKillAndRestartLosesNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	first := startServer(t, "--db", db, "--tests", "2", "--seed", "5")
	c := newClient(t)
	c.base = first.url
	var v view
	if st := c.call(t, "POST", "/api/start", map[string]any{"consent": false, "code": "", "replies": []string{}}, &v); st != http.StatusOK {
		t.Fatalf("start: status %d", st)
	}
	const moves = 7 // exercise 1 has 20 steps: the kill comes mid-exercise
	var cells []int
	var rewards []float64
	for i := range moves {
		cells = append(cells, c.move(t, &v, i))
		rewards = append(rewards, v.Last.Value)
	}
	stale := map[string]any{"participant": v.Participant, "seq": v.Seq - 1, "cell": cells[moves-1], "client_ms": 1}
	if err := first.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	first.wait()

	rs := interactions(t, db)
	if len(rs) != moves {
		t.Fatalf("after SIGKILL the database holds %d interactions; %d moves were answered", len(rs), moves)
	}
	for i, r := range rs {
		if r.Seq != i || r.Exercise != 1 || r.Step != i+1 || r.Cell != cells[i] || r.Reward != rewards[i] || r.TookMillis <= 0 {
			t.Errorf("interaction %d is recorded as %+v; the move clicked cell %d and was answered with reward %g", i, r, cells[i], rewards[i])
		}
	}

	second := startServer(t, "--db", db)
	c.base = second.url // the same cookie jar: cookies do not depend on the port
	var resumed view
	if st := c.call(t, "GET", "/api/view", nil, &resumed); st != http.StatusOK {
		t.Fatalf("view after the restart: status %d", st)
	}
	if resumed.Seq != moves || resumed.Exercise != 1 || resumed.Step != moves || !sameViewCells(resumed, v) {
		t.Fatalf("after the restart the session is at %+v; before the kill it was at %+v", resumed, v)
	}
	if st := c.call(t, "POST", "/api/move", stale, nil); st != http.StatusConflict {
		t.Fatalf("the last answered move sent again is answered %d; want 409", st)
	}
	c.move(t, &resumed, 0)
	if got := interactions(t, db); len(got) != moves+1 || got[moves].Seq != moves {
		t.Fatalf("after one more move the database holds %d interactions", len(got))
	}
	if err := second.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := second.wait(); err != nil {
		t.Fatalf("anynt serve stopped by SIGTERM: %v; stderr %q", err, second.stderr.String())
	}
	if !strings.Contains(second.rest.String(), "stopped") {
		t.Errorf("anynt serve stopped by SIGTERM printed %q; want it to say it stopped", second.rest.String())
	}

	// A page left open across the restart sends its move without asking
	// for the view again: it is played, and timed by the page alone.
	third := startServer(t, "--db", db)
	c.base = third.url
	c.move(t, &resumed, 1) // client_ms 301
	got := interactions(t, db)
	if last := got[len(got)-1]; len(got) != moves+2 || last.ServerMillis != 0 || last.TookMillis != 301 {
		t.Fatalf("the move across the restart is recorded as %+v; want server_ms 0 and took_ms 301, the page's", last)
	}
}

func sameViewCells(a, b view) bool {
	return slices.EqualFunc(a.Cells, b.Cells, func(x, y struct {
		Number     int      `json:"number"`
		Objects    []string `json:"objects"`
		Accessible bool     `json:"accessible"`
	}) bool {
		return x.Number == y.Number && x.Accessible == y.Accessible && slices.Equal(x.Objects, y.Objects)
	})
}

// TestServeRefusesAnotherStudy starts anynt serve on a database that holds
// a study with flags that describe another: it must exit 2 and name the
// difference, leaving the database as it was; the flags that made the
// study serve it again.
func TestServeRefusesAnotherStudy(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	s := startServer(t, "--db", db, "--tests", "2", "--seed", "5")
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := s.wait(); err != nil {
		t.Fatalf("SIGTERM: %v", err)
	}
	cmd := exec.Command(anyntBin, "serve", "--db", db, "--tests", "2", "--seed", "6", "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "another study") {
		t.Fatalf("serve on another study's database: %v, stderr %q; want exit 2 naming the difference", err, stderr.String())
	}
	t.Logf("refused with: %s", strings.TrimSpace(stderr.String()))
	// the flags that made it describe it: serve goes on with it
	again := startServer(t, "--db", db, "--tests", "2", "--seed", "5")
	if err := again.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := again.wait(); err != nil {
		t.Fatalf("serve with the study's own flags: %v, stderr %q", err, again.stderr.String())
	}
}

// TestServeTitle starts anynt serve with --title: the page names itself
// so, escaped as HTML text, and without it keeps the default title.
func TestServeTitle(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"default", nil, "<title>ANYNT test</title>"},
		{"given", []string{"--title", "Puzzles & <cells>"}, "<title>Puzzles &amp; &lt;cells&gt;</title>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "study.db")
			s := startServer(t, append([]string{"--db", db, "--tests", "1"}, tt.args...)...)
			res, err := http.Get(s.url + "/")
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(body), tt.want) {
				t.Fatalf("the page does not hold %q:\n%.400s", tt.want, body)
			}
		})
	}
}

// TestASecondServerIsRefused starts anynt serve twice on one database:
// the second, through the same name or a hard link, must refuse at
// start-up, exit 4 and say another process holds the database, instead of
// listening and colliding with the first on every move (through a hard
// link, losing its moves with a write-ahead log of its own); anynt results
// reads the database meanwhile; once the first stops, the database serves
// again.
func TestASecondServerIsRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	first := startServer(t, "--db", db, "--tests", "1", "--seed", "5")
	c := newClient(t)
	c.base = first.url
	var v view
	if st := c.call(t, "POST", "/api/start", map[string]any{"consent": false, "code": "", "replies": []string{}}, &v); st != http.StatusOK {
		t.Fatalf("start: status %d", st)
	}
	c.move(t, &v, 0)

	// The same file through a hard link (another name, another write-ahead
	// log) is the same database.
	link := filepath.Join(filepath.Dir(db), "link.db")
	if err := os.Link(db, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{db, link} {
		// A time limit: a second server that is not refused listens forever.
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		cmd := exec.CommandContext(ctx, anyntBin, "serve", "--db", path, "--addr", "127.0.0.1:0")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		cancel()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 4 || !strings.Contains(stderr.String(), "another process holds the database") {
			t.Fatalf("a second anynt serve on the database as %s: %v, stderr %q; want exit 4 saying another process holds it", path, err, stderr.String())
		}
		t.Logf("refused with: %s", strings.TrimSpace(stderr.String()))
	}
	os.Remove(link)
	if rs := interactions(t, db); len(rs) != 1 {
		t.Fatalf("anynt results beside the server reads %d interactions; want 1", len(rs))
	}
	c.move(t, &v, 1) // the first server goes on

	if err := first.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := first.wait(); err != nil {
		t.Fatalf("SIGTERM: %v; stderr %q", err, first.stderr.String())
	}
	again := startServer(t, "--db", db)
	c.base = again.url
	c.move(t, &v, 2)
	if rs := interactions(t, db); len(rs) != 3 {
		t.Fatalf("after the restart the database holds %d interactions; want 3", len(rs))
	}
}

// TestASecondSignalStillClosesTheDatabase stops anynt serve while a
// request is under way (its body half sent, so the server waits for it),
// and sends a second SIGTERM while it waits: the second cuts the request
// short, and serve still closes the database before it says it stopped,
// so that nothing is left beside it (no -wal, -shm or lock file) and
// every answered move is in the file.
func TestASecondSignalStillClosesTheDatabase(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	s := startServer(t, "--db", db, "--tests", "1", "--seed", "5")
	c := newClient(t)
	c.base = s.url
	var v view
	if st := c.call(t, "POST", "/api/start", map[string]any{"consent": false, "code": "", "replies": []string{}}, &v); st != http.StatusOK {
		t.Fatalf("start: status %d", st)
	}
	for i := range 3 {
		c.move(t, &v, i)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	host := strings.TrimPrefix(s.url, "http://")
	if _, err := fmt.Fprintf(conn, "POST /api/move HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"seq\":", host); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // the server reads the request's head
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // it waits for the request under way
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = s.wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Errorf("anynt serve stopped by two signals: %v; want exit 4 (a request was cut short); stderr %q", err, s.stderr.String())
	}
	if !strings.Contains(s.rest.String(), "stopped; every answered move is in") {
		t.Errorf("anynt serve printed %q after its first line; want it to say it stopped", s.rest.String())
	}
	for _, suffix := range []string{"-wal", "-shm", ".lock"} {
		if _, err := os.Stat(db + suffix); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s%s is left after anynt serve stopped (%v)", filepath.Base(db), suffix, err)
		}
	}
	if rs := interactions(t, db); len(rs) != 3 {
		t.Errorf("the database holds %d interactions; 3 moves were answered", len(rs))
	}
}

// TestServeBoundsTheHeaders sends requests whose line and headers are
// 15,000 and 20,000 bytes: the first is served, the second refused with
// 431, as the 16 KiB bound of docs/people.md says.
func TestServeBoundsTheHeaders(t *testing.T) {
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "study.db"), "--tests", "1")
	host := strings.TrimPrefix(s.url, "http://")
	for _, c := range []struct {
		size, status int
	}{{15_000, http.StatusOK}, {20_000, http.StatusRequestHeaderFieldsTooLarge}} {
		head := fmt.Sprintf("GET / HTTP/1.1\r\nHost: %s\r\nConnection: close\r\nX-Pad: ", host)
		pad := c.size - len(head) - len("\r\n\r\n")
		req := head + strings.Repeat("a", pad) + "\r\n\r\n"
		conn, err := net.Dial("tcp", host)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatal(err)
		}
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("a head of %d bytes: %v", len(req), err)
		}
		res.Body.Close()
		conn.Close()
		if res.StatusCode != c.status {
			t.Errorf("a request whose line and headers are %d bytes: status %d; want %d", len(req), res.StatusCode, c.status)
		}
	}
}
