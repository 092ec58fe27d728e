package e2e

import (
	"context"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "write the page's screenshots in docs/img/")

// chromium is Debian's Chromium: the tests use the system's browser and
// never download one.
const chromium = "/usr/bin/chromium"

// askBrowser is the environment variable that asks for the browser tests:
// with ANYNT_E2E=1, as CI (.ci/run) sets it, a missing Chromium fails
// them; unset (or 0), they run when Chromium is there and skip, saying
// why, when it is not, so that go test ./... needs only Go and python3.
const askBrowser = "ANYNT_E2E"

// needChromium says whether the browser tests can run with the browser at
// path, given askBrowser's value: they run (both empty), skip (skip says
// why), or fail (err: asked for and absent, or a value that is neither 1,
// 0 nor empty).
func needChromium(path, asked string) (skip string, err error) {
	if asked != "" && asked != "0" && asked != "1" {
		return "", fmt.Errorf("%s is %q; it must be 1 (the browser tests must run, and fail without Chromium) or 0 or unset (they run when Chromium is there)", askBrowser, asked)
	}
	_, statErr := os.Stat(path)
	switch {
	case statErr == nil:
		return "", nil
	case asked == "1":
		return "", fmt.Errorf("%s=1 asks for the browser tests, and they need Debian's Chromium at %s: apt-get install chromium (.ci/run does): %v", askBrowser, path, statErr)
	}
	return fmt.Sprintf("skipped: no Chromium at %s (%v). The browser tests run when it is there (apt-get install chromium; never a download), and %s=1, as CI sets, makes its absence a failure; a browser absent and not asked for is the one skip the project allows", path, statErr, askBrowser), nil
}

// browserTimeout bounds one test's browser work, so that a page that never
// shows what a test waits for fails the test instead of hanging it.
const browserTimeout = 2 * time.Minute

// newBrowser starts a headless Chromium for the test and returns the
// context of its first tab. Without Chromium the test skips, saying how to
// install it, unless askBrowser asks for it (CI does, so that a browser
// test cannot pass CI untested): then it fails.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	switch skip, err := needChromium(chromium, os.Getenv(askBrowser)); {
	case err != nil:
		t.Fatal(err)
	case skip != "":
		t.Skip(skip)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1000, 760),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil { // starts the browser, with no timeout of its own
		t.Fatalf("starting %s: %v", chromium, err)
	}
	return browser
}

// newTab opens a tab in the browser of ctx, bounded by browserTimeout; the
// returned function closes it, as a participant closes a tab.
func newTab(t *testing.T, browser context.Context) (context.Context, context.CancelFunc) {
	t.Helper()
	tab, closeTab := chromedp.NewContext(browser)
	timed, cancel := context.WithTimeout(tab, browserTimeout)
	return timed, func() { cancel(); closeTab() }
}

// fixture is a study of one Λ_one test in a SQLite file, served on
// loopback by the real server.
type fixture struct {
	study *study.Study
	url   string
}

func newFixture(t *testing.T, intro study.Intro) *fixture {
	t.Helper()
	items, err := exam.LambdaOneItems(1, 1, "e2e")
	if err != nil {
		t.Fatal(err)
	}
	d := study.Design{Version: "e2e", Protocol: "lambda-one", Complexity: "K_approx", Strata: "cells",
		Seed: 1, Tests: 1, Items: items, Intro: intro}
	s, err := study.Open(filepath.Join(t.TempDir(), "study.db"), &d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	srv := httptest.NewServer(web.New(s, web.Options{}))
	t.Cleanup(srv.Close) // before the study closes: cleanups run last first
	return &fixture{study: s, url: srv.URL + "/"}
}

// pageCell is a cell as the page shows it.
type pageCell struct {
	Number     int      `json:"number"`
	Accessible bool     `json:"accessible"`
	Disabled   bool     `json:"disabled"`
	Objects    []string `json:"objects"`
	Label      string   `json:"label"`
}

// page is what the page shows: the section on screen, the step line, the
// reward's sign, the cells and the element that has the keyboard focus.
type page struct {
	Section   string     `json:"section"`
	Step      string     `json:"step"`
	Sign      string     `json:"sign"`
	PauseSign string     `json:"pause_sign"`
	Cells     []pageCell `json:"cells"`
	Focused   int        `json:"focused"` // the focused cell's number, 0 for none
	Live      string     `json:"live"`
}

const readPage = `(() => {
	const $ = (id) => document.getElementById(id);
	const cells = [...document.querySelectorAll('#cells .cell')];
	const pauseSign = document.querySelector('#pause-last .sign');
	const focused = document.activeElement && document.activeElement.closest('#cells .cell');
	return {
		section: ['intro', 'test', 'pause', 'over'].find((id) => !$(id).hidden) || '',
		step: $('step').textContent,
		sign: $('reward').dataset.sign,
		pause_sign: pauseSign ? pauseSign.dataset.sign : '',
		cells: cells.map((c) => ({
			number: Number(c.dataset.cell),
			accessible: c.classList.contains('accessible'),
			disabled: c.disabled,
			objects: [...c.querySelectorAll('.glyph')].map((g) => g.dataset.object),
			label: c.getAttribute('aria-label'),
		})),
		focused: focused ? Number(focused.dataset.cell) : 0,
		live: $('live').textContent,
	};
})()`

func readPageState(t *testing.T, tab context.Context) page {
	t.Helper()
	p, err := chromedp.Run(tab, chromedp.Evaluate[page](readPage))
	if err != nil {
		t.Fatalf("reading the page: %v", err)
	}
	return p
}

// waitSection waits until the page shows the section id.
func waitSection(t *testing.T, tab context.Context, id string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.ID(id))); err != nil {
		t.Fatalf("waiting for #%s: %v (the page shows %+v)", id, err, readPageState(t, tab))
	}
}

// waitMoved waits until the page has drawn the answer to a move made on
// the step line before: a new step line, or another section.
func waitMoved(t *testing.T, tab context.Context, before string) {
	t.Helper()
	cond := fmt.Sprintf(`document.getElementById('test').hidden || document.getElementById('step').textContent !== %s`,
		strconv.Quote(before))
	if err := chromedp.Do(tab, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("waiting for the page to draw the move: %v (it shows %+v)", err, readPageState(t, tab))
	}
}

// token reads the session's token from the browser's cookie (HttpOnly,
// so only the browser itself can), and checks the cookie's attributes.
func token(t *testing.T, tab context.Context) string {
	t.Helper()
	res, err := chromedp.Call(tab, network.GetCookies, network.GetCookiesParams{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Cookies {
		if c.Name == "anynt_session" {
			if !c.HTTPOnly || c.SameSite != network.CookieSameSiteStrict || c.Path != "/" {
				t.Errorf("the session cookie is HttpOnly %t, SameSite %q, Path %q; want HttpOnly, Strict, /", c.HTTPOnly, c.SameSite, c.Path)
			}
			return c.Value
		}
	}
	t.Fatalf("no anynt_session cookie among %d", len(res.Cookies))
	return ""
}

// records are the interactions the database holds.
func records(t *testing.T, s *study.Study) []study.Record {
	t.Helper()
	var rs []study.Record
	if err := s.Records(func(r study.Record) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rs
}

// sameCells reports where the page's cells differ from the server's view:
// their number, what is in each, which are accessible (a thicker border,
// enabled) and what a screen reader says.
func sameCells(got []pageCell, want []study.Cell) error {
	if len(got) != len(want) {
		return fmt.Errorf("the page shows %d cells, the server %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		reach := "; reachable"
		if !w.Accessible {
			reach = "; not reachable"
		}
		switch {
		case g.Number != w.Number:
			return fmt.Errorf("cell %d of the page is numbered %d, the server's %d", i+1, g.Number, w.Number)
		case g.Accessible != w.Accessible || g.Disabled == w.Accessible:
			return fmt.Errorf("cell %d: accessible %t, disabled %t on the page; the server says accessible %t", w.Number, g.Accessible, g.Disabled, w.Accessible)
		case !slices.Equal(g.Objects, w.Objects):
			return fmt.Errorf("cell %d holds %v on the page, %v on the server", w.Number, g.Objects, w.Objects)
		case !strings.HasPrefix(g.Label, fmt.Sprintf("Cell %d: ", w.Number)) || !strings.HasSuffix(g.Label, reach):
			return fmt.Errorf("cell %d's label %q does not say its number and%s", w.Number, g.Label, reach)
		}
	}
	return nil
}

func accessibleCells(cells []study.Cell) []int {
	var out []int
	for _, c := range cells {
		if c.Accessible {
			out = append(out, c.Number)
		}
	}
	return out
}

func youCell(cells []study.Cell) int {
	for _, c := range cells {
		if slices.Contains(c.Objects, "you") {
			return c.Number
		}
	}
	return 0
}

func sign(x float64) string {
	switch {
	case x > 0:
		return "1"
	case x < 0:
		return "-1"
	}
	return "0"
}

// screenshot writes the page as docs/img/people-NAME.png with
// -update-screenshots; otherwise it still takes it, so that a page that
// cannot be drawn fails the test.
func screenshot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	if *updateScreenshots {
		// The cells' colour changes in 80 ms (style.css): the picture
		// shows where it ends.
		if err := chromedp.Do(tab, chromedp.Sleep(200*time.Millisecond)); err != nil {
			t.Fatal(err)
		}
	}
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100)) // 100: PNG
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if *updateScreenshots {
		if err := os.WriteFile(filepath.Join("..", "docs", "img", "people-"+name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// start answers the intro on the page: the consent box, the code and the
// questions when the study asks them; shot names the screenshot of the
// answered intro, "" for none.
func start(t *testing.T, tab context.Context, f *fixture, shot, code string, replies ...string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "intro")
	in := f.study.Design().Intro
	var steps []chromedp.Action[chromedp.Void]
	if in.Consent != "" {
		steps = append(steps, chromedp.Click(chromedp.ID("consent")))
	}
	if in.AskCode {
		steps = append(steps, chromedp.SendKeys(chromedp.ID("code"), code))
	}
	for i, r := range replies {
		steps = append(steps, chromedp.SendKeys(chromedp.ID(fmt.Sprintf("question-%d", i+1)), r))
	}
	if err := chromedp.Do(tab, steps...); err != nil {
		t.Fatalf("answering the intro: %v", err)
	}
	if shot != "" {
		screenshot(t, tab, shot)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("start"))); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
}

// TestBrowserWholeExercise answers the intro and clicks through the whole
// first exercise and into the second. At every step the page must show the
// server's cells (what is in each, which are accessible), and after every
// click the database must hold the click as the next interaction, the page
// must show the participant ○ in the cell the server moved it to and the
// reward's icon of the recorded reward.
func TestBrowserWholeExercise(t *testing.T) {
	f := newFixture(t, study.Intro{Consent: "I agree to take part in this study. I may stop at any time.",
		AskCode: true, Questions: []string{"How old are you, in years?"}})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	start(t, tab, f, "intro", "P-017", "34")

	ps, err := f.study.Participants()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Code != "P-017" || !slices.Equal(ps[0].Replies, []string{"34"}) {
		t.Fatalf("the database holds the participants %+v; want one, code P-017, replies [34]", ps)
	}
	tok := token(t, tab)
	steps := f.study.Design().Items[0].Steps
	gained := false
	for step := range steps {
		p := readPageState(t, tab)
		v, err := f.study.View(tok)
		if err != nil {
			t.Fatal(err)
		}
		if v.Exercise != 1 || v.Step != step || p.Section != "test" {
			t.Fatalf("step %d: the server is at exercise %d step %d, the page shows %q", step, v.Exercise, v.Step, p.Section)
		}
		if want := fmt.Sprintf("Exercise 1 of 7: step %d of %d", step+1, steps); p.Step != want {
			t.Errorf("step %d: the page says %q; want %q", step, p.Step, want)
		}
		if err := sameCells(p.Cells, v.Cells); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		reach := accessibleCells(v.Cells)
		cell := reach[step%len(reach)]
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-cell="%d"]`, cell)))); err != nil {
			t.Fatal(err)
		}
		waitMoved(t, tab, p.Step)

		rs := records(t, f.study)
		if len(rs) != step+1 {
			t.Fatalf("after click %d the database holds %d interactions", step+1, len(rs))
		}
		r := rs[step]
		if r.Seq != step || r.Exercise != 1 || r.Step != step+1 || r.Cell != cell || r.TookMillis <= 0 {
			t.Fatalf("click %d on cell %d is recorded as %+v", step+1, cell, r)
		}
		after := readPageState(t, tab)
		if step == steps-1 {
			if after.Section != "pause" || after.PauseSign != sign(r.Reward) {
				t.Fatalf("after the last step the page shows %q with sign %q; want the pause with sign %s", after.Section, after.PauseSign, sign(r.Reward))
			}
			break
		}
		if after.Sign != sign(r.Reward) {
			t.Errorf("step %d: the page shows the reward sign %q, the database the reward %g", step+1, after.Sign, r.Reward)
		}
		if !strings.Contains(after.Live, fmt.Sprintf("Step %d: ", step+1)) {
			t.Errorf("step %d: the screen reader's line %q does not announce it", step+1, after.Live)
		}
		now, err := f.study.View(tok)
		if err != nil {
			t.Fatal(err)
		}
		var onPage int
		for _, c := range after.Cells {
			if slices.Contains(c.Objects, "you") {
				onPage = c.Number
			}
		}
		if onPage != youCell(now.Cells) {
			t.Fatalf("step %d: the page shows ○ in cell %d, the server moved it to cell %d", step+1, onPage, youCell(now.Cells))
		}
		if after.Sign == "1" && !gained {
			// As Fig. 2 of Insa-Cabrera et al. (2011): a gain, the pointer
			// over the clicked cell.
			screenshot(t, tab, "step")
			gained = true
		}
	}
	screenshot(t, tab, "pause")
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("continue"))); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	p := readPageState(t, tab)
	v, err := f.study.View(tok)
	if err != nil {
		t.Fatal(err)
	}
	if v.Exercise != 2 || v.Step != 0 || p.Sign != "" || !strings.HasPrefix(p.Step, "Exercise 2 of 7: step 1 of") {
		t.Fatalf("after Continue the server is at exercise %d step %d, the page says %q with sign %q", v.Exercise, v.Step, p.Step, p.Sign)
	}
	if err := sameCells(p.Cells, v.Cells); err != nil {
		t.Fatal(err)
	}
	// The pointer is still where Continue was, over cell 1: moved away,
	// the screenshot shows the exercise as it starts.
	if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 900, 600)); err != nil {
		t.Fatal(err)
	}
	screenshot(t, tab, "exercise2")
}

// TestBrowserReopenResumes closes the tab mid-exercise and opens the page
// again in a new tab (the same browser, so the same cookie): the page must
// show the same step and cells, the database must hold every move, and the
// next move must go on from there.
func TestBrowserReopenResumes(t *testing.T) {
	f := newFixture(t, study.Intro{})
	browser := newBrowser(t)
	tab, closeTab := newTab(t, browser)
	start(t, tab, f, "", "")
	tok := token(t, tab)
	for range 4 {
		p := readPageState(t, tab)
		v, err := f.study.View(tok)
		if err != nil {
			t.Fatal(err)
		}
		reach := accessibleCells(v.Cells)
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-cell="%d"]`, reach[len(reach)-1])))); err != nil {
			t.Fatal(err)
		}
		waitMoved(t, tab, p.Step)
	}
	before := readPageState(t, tab)
	kept := records(t, f.study)
	closeTab()

	tab, closeTab = newTab(t, browser)
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	after := readPageState(t, tab)
	if after.Step != before.Step || after.Sign != before.Sign || !slices.EqualFunc(after.Cells, before.Cells, func(a, b pageCell) bool {
		return a.Number == b.Number && a.Accessible == b.Accessible && slices.Equal(a.Objects, b.Objects)
	}) {
		t.Fatalf("the reopened page shows\n%+v\nbefore closing it showed\n%+v", after, before)
	}
	if got := records(t, f.study); !slices.EqualFunc(got, kept, sameRecord) || len(got) != 4 {
		t.Fatalf("the database held %d interactions before the tab closed, %d after", len(kept), len(got))
	}
	v, err := f.study.View(tok)
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-cell="%d"]`, accessibleCells(v.Cells)[0])))); err != nil {
		t.Fatal(err)
	}
	waitMoved(t, tab, after.Step)
	if rs := records(t, f.study); len(rs) != 5 || rs[4].Seq != 4 || rs[4].Step != 5 {
		t.Fatalf("the move after reopening is recorded as %+v", rs[len(rs)-1])
	}
}

// sameRecord compares what a recorded interaction says, not when it was
// read.
func sameRecord(a, b study.Record) bool {
	return a.Participant == b.Participant && a.Seq == b.Seq && a.Exercise == b.Exercise && a.Step == b.Step &&
		a.Observation == b.Observation && a.Cell == b.Cell && a.Action == b.Action && a.Reward == b.Reward &&
		a.TookMillis == b.TookMillis && a.At.Equal(b.At)
}

// TestBrowserKeyboard makes moves with the keyboard alone: Tab to an
// accessible cell and Enter, then an arrow key and Space. Each must record
// the focused cell.
func TestBrowserKeyboard(t *testing.T) {
	f := newFixture(t, study.Intro{AskCode: true})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "intro")
	// The intro with the keyboard: the code field, then Enter submits.
	if err := chromedp.Do(tab, chromedp.Focus(chromedp.ID("code")), chromedp.KeyEvent("K-1"+kb.Enter)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")

	press := func(keys string) (moved int) {
		t.Helper()
		p := readPageState(t, tab)
		if p.Focused == 0 {
			t.Fatalf("no cell has the focus before %q: %+v", keys, p)
		}
		if err := chromedp.Do(tab, chromedp.KeyEvent(keys)); err != nil {
			t.Fatal(err)
		}
		waitMoved(t, tab, p.Step)
		return p.Focused
	}
	// Tab until an accessible cell has the focus (the page focuses ○'s
	// cell; Tab goes on to the next accessible one or leaves the cells).
	for range 20 {
		if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Tab)); err != nil {
			t.Fatal(err)
		}
		if readPageState(t, tab).Focused != 0 {
			break
		}
	}
	first := press(kb.Enter)
	if err := chromedp.Do(tab, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	second := press(" ")
	rs := records(t, f.study)
	if len(rs) != 2 || rs[0].Cell != first || rs[1].Cell != second {
		t.Fatalf("Enter on cell %d and Space on cell %d are recorded as %+v", first, second, rs)
	}
	if ps, err := f.study.Participants(); err != nil || len(ps) != 1 || ps[0].Code != "K-1" {
		t.Fatalf("the code typed is recorded as %+v (%v)", ps, err)
	}
}

// TestBrowserWholeTestFromServe is a participant taking the whole Λ_one
// test in Chromium from the anynt binary, as on a fresh clone: every
// exercise to the thank-you screen; then the researcher's anynt results
// reports the participant beside Q-learning on the same items.
func TestBrowserWholeTestFromServe(t *testing.T) {
	db := filepath.Join(t.TempDir(), "study.db")
	srv := startServer(t, "--db", db, "--tests", "1", "--seed", "9")
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.url+"/"), chromedp.WaitVisible(chromedp.ID("intro")),
		chromedp.Click(chromedp.ID("start")), chromedp.WaitVisible(chromedp.ID("test"))); err != nil {
		t.Fatal(err)
	}
	const where = `(() => {
		const $ = (id) => document.getElementById(id);
		return {
			section: ['intro', 'test', 'pause', 'over'].find((id) => !$(id).hidden) || '',
			step: $('step').textContent,
			reach: [...document.querySelectorAll('#cells .cell.accessible')].map((c) => Number(c.dataset.cell)),
		};
	})()`
	type state struct {
		Section, Step string
		Reach         []int
	}
	moves, pauses := 0, 0
	for moves+pauses <= 400 {
		p, err := chromedp.Run(tab, chromedp.Evaluate[state](where))
		if err != nil {
			t.Fatal(err)
		}
		switch p.Section {
		case "over":
			if moves != 350 || pauses != 6 {
				t.Fatalf("the test ended after %d moves and %d pauses; Λ_one has 350 steps in 7 exercises", moves, pauses)
			}
			screenshot(t, tab, "over")
			out, err := exec.Command(anyntBin, "results", "--db", db, "--agent", "qlearning").CombinedOutput()
			if err != nil || !strings.Contains(string(out), "people") || !strings.Contains(string(out), "paired differences against people") {
				t.Fatalf("anynt results: %v\n%s", err, out)
			}
			return
		case "pause":
			pauses++
			if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("continue")), chromedp.WaitVisible(chromedp.ID("test"))); err != nil {
				t.Fatal(err)
			}
			continue
		case "test":
		default:
			t.Fatalf("the page shows %q after %d moves", p.Section, moves)
		}
		cell := p.Reach[moves%len(p.Reach)]
		if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(fmt.Sprintf(`.cell[data-cell="%d"]`, cell)))); err != nil {
			t.Fatal(err)
		}
		waitMoved(t, tab, p.Step)
		moves++
	}
	t.Fatalf("the test did not end after %d moves", moves)
}

// TestBrowserIntroCountsBytes types a participant code and an answer
// that fit the fields' character counts but not the study's bounds, which
// are bytes of UTF-8 (€ is 3): the page must say so itself, under the
// field as the participant types and in its own message on Start, without
// sending anything (no session is made); shortened, they are accepted.
func TestBrowserIntroCountsBytes(t *testing.T) {
	f := newFixture(t, study.Intro{AskCode: true, Questions: []string{"Where do you live?"}})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "intro")
	type intro struct {
		Error      string `json:"error"`
		CodeLimit  string `json:"code_limit"`
		ReplyLimit string `json:"reply_limit"`
		Focused    string `json:"focused"`
		Section    string `json:"section"`
	}
	read := func() intro {
		t.Helper()
		in, err := chromedp.Run(tab, chromedp.Evaluate[intro](`(() => ({
			error: document.getElementById('error').hidden ? '' : document.getElementById('error').textContent,
			code_limit: document.getElementById('code-limit').textContent,
			reply_limit: document.getElementById('question-1-limit').textContent,
			focused: document.activeElement ? document.activeElement.id : '',
			section: ['intro', 'test', 'pause', 'over'].find((id) => !document.getElementById(id).hidden) || '',
		}))()`))
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	set := func(id, text string) {
		t.Helper()
		// SetValue, then an input event as typing gives: typing 400
		// characters one key at a time would only slow the test.
		err := chromedp.Do(tab, chromedp.SetValue(chromedp.ID(id), text),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('`+id+`').dispatchEvent(new Event('input'))`))
		if err != nil {
			t.Fatal(err)
		}
	}
	clickStart := func() {
		t.Helper()
		if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("start"))); err != nil {
			t.Fatal(err)
		}
	}
	noSession := func(when string) {
		t.Helper()
		if ps, err := f.study.Participants(); err != nil || len(ps) != 0 {
			t.Fatalf("%s: the database holds %+v (%v); want no session", when, ps, err)
		}
	}

	longCode := strings.Repeat("€", study.MaxCode/3+1) // 22 characters, 66 bytes
	set("code", longCode)
	set("question-1", "here")
	in := read()
	if want := fmt.Sprintf("%d of at most %d bytes", 3*(study.MaxCode/3+1), study.MaxCode); !strings.HasPrefix(in.CodeLimit, want) {
		t.Errorf("under the code the page says %q; want it to begin %q", in.CodeLimit, want)
	}
	clickStart()
	in = read()
	if want := fmt.Sprintf("The participant code is %d bytes long; it can be at most %d bytes", 3*(study.MaxCode/3+1), study.MaxCode); !strings.HasPrefix(in.Error, want) || in.Focused != "code" || in.Section != "intro" {
		t.Fatalf("Start with a code of 66 bytes: the page shows %+v; want its own message %q, the focus on the code", in, want)
	}
	noSession("a code too long")

	set("code", "P-1")
	longReply := strings.Repeat("€", study.MaxReply/3+1) // 334 characters, 1002 bytes
	set("question-1", longReply)
	if in := read(); !strings.HasPrefix(in.ReplyLimit, fmt.Sprintf("%d of at most %d bytes", 3*(study.MaxReply/3+1), study.MaxReply)) {
		t.Errorf("under the answer the page says %q", in.ReplyLimit)
	}
	clickStart()
	in = read()
	if want := fmt.Sprintf("Answer 1 is %d bytes long; it can be at most %d bytes", 3*(study.MaxReply/3+1), study.MaxReply); !strings.HasPrefix(in.Error, want) || in.Focused != "question-1" || in.Section != "intro" {
		t.Fatalf("Start with an answer of 1002 bytes: the page shows %+v; want its own message %q, the focus on the answer", in, want)
	}
	noSession("an answer too long")

	reply := strings.Repeat("€", study.MaxReply/3) // 999 bytes: accepted
	set("question-1", reply)
	clickStart()
	waitSection(t, tab, "test")
	if ps, err := f.study.Participants(); err != nil || len(ps) != 1 || ps[0].Code != "P-1" || !slices.Equal(ps[0].Replies, []string{reply}) {
		t.Fatalf("after shortening, the database holds %+v (%v); want code P-1 and the 999-byte answer", ps, err)
	}
}

// A missing browser skips the browser tests unless ANYNT_E2E=1 asks for
// them, which makes it a failure; a browser present runs them either
// way; any other value is refused, naming the variable.
func TestChromiumAbsentSkipsUnlessAsked(t *testing.T) {
	absent := filepath.Join(t.TempDir(), "chromium")
	present, err := os.Executable() // a file that exists, standing for the browser's
	if err != nil {
		t.Fatal(err)
	}
	for _, asked := range []string{"", "0"} {
		if skip, err := needChromium(absent, asked); err != nil || !strings.Contains(skip, "no Chromium at "+absent) || !strings.Contains(skip, "ANYNT_E2E=1") {
			t.Errorf("absent, ANYNT_E2E=%q: skip %q, error %v; want a skip naming the path and the variable", asked, skip, err)
		}
	}
	if skip, err := needChromium(absent, "1"); err == nil || skip != "" || !strings.Contains(err.Error(), "apt-get install chromium") {
		t.Errorf("absent, ANYNT_E2E=1: skip %q, error %v; want a failure saying how to install it", skip, err)
	}
	for _, asked := range []string{"", "0", "1"} {
		if skip, err := needChromium(present, asked); skip != "" || err != nil {
			t.Errorf("present, ANYNT_E2E=%q: skip %q, error %v; want the tests to run", asked, skip, err)
		}
	}
	for _, path := range []string{absent, present} {
		if _, err := needChromium(path, "yes"); err == nil || !strings.Contains(err.Error(), `ANYNT_E2E is "yes"`) {
			t.Errorf("ANYNT_E2E=yes: %v; want it refused, naming the variable", err)
		}
	}
}
