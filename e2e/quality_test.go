package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anynt/anynt/study"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// contrastProblem is an element whose text is too faint on its background.
type contrastProblem struct {
	Where    string  `json:"where"`
	Text     string  `json:"text"`
	Color    string  `json:"color"`
	Back     string  `json:"back"`
	Ratio    float64 `json:"ratio"`
	Required float64 `json:"required"`
}

// checkContrast measures, in the page as Chromium draws it, the contrast
// of every visible element that holds text against the background it is
// drawn on (the nearest opaque background up the tree, the translucent
// ones composed over it), as WCAG 2.1 defines it (§1.4.3, relative
// luminance): 4.5:1 for text, 3:1 for large text (24 px, or 18.66 px
// bold) and for signs that are graphics (role=img, or hidden from screen
// readers and holding no letter or digit: §1.4.11). A cell's number is
// hidden from screen readers (the cell's label says it) but is text a
// person reads, and is held to 4.5:1.
// Disabled controls are exempt, as WCAG exempts inactive components. A
// colour the script cannot read is a problem too, so that the check
// cannot pass by reading nothing.
const checkContrast = `(() => {
	const parse = (c) => {
		const m = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(c);
		return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : null;
	};
	const lum = (c) => {
		const [r, g, b] = c.slice(0, 3).map((v) => {
			v /= 255;
			return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
		});
		return 0.2126 * r + 0.7152 * g + 0.0722 * b;
	};
	const over = (top, below) => top.slice(0, 3).map((v, i) => v * top[3] + below[i] * (1 - top[3])).concat(1);
	const background = (el) => {
		const layers = [];
		for (let e = el; e; e = e.parentElement) {
			const c = parse(getComputedStyle(e).backgroundColor);
			if (!c) return null;
			if (c[3] > 0) layers.push(c);
			if (c[3] === 1) break;
		}
		let back = [255, 255, 255, 1]; // the canvas
		for (let i = layers.length - 1; i >= 0; i--) back = over(layers[i], back);
		return back;
	};
	const problems = [];
	let checked = 0;
	for (const el of document.querySelectorAll('body *')) {
		const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent).join('').trim();
		if (!text || el.closest('[hidden], .visually-hidden, noscript, button:disabled')) continue;
		const style = getComputedStyle(el);
		if (style.visibility !== 'visible' || el.getClientRects().length === 0) continue;
		checked++;
		const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
		const graphic = el.closest('[role="img"]') !== null ||
			(el.closest('[aria-hidden="true"]') !== null && !/[\p{L}\p{N}]/u.test(text));
		const required = graphic || size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
		const where = el.id ? '#' + el.id : el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '');
		const fg = parse(style.color), back = background(el);
		if (!fg || !back) {
			problems.push({ where, text, color: style.color, back: '?', ratio: 0, required });
			continue;
		}
		const ink = over(fg, back);
		const [hi, lo] = [lum(ink), lum(back)].sort((a, b) => b - a);
		const ratio = Math.round((hi + 0.05) / (lo + 0.05) * 100) / 100;
		if (ratio < required) {
			problems.push({ where, text: text.slice(0, 40), color: style.color, back: 'rgb(' + back.slice(0, 3).join(',') + ')', ratio, required });
		}
	}
	return { checked, problems };
})()`

// contrastReport is what checkContrast returns.
type contrastReport struct {
	Checked  int               `json:"checked"`
	Problems []contrastProblem `json:"problems"`
}

// wantContrast fails the test for every element of the screen on show
// whose text is too faint.
func wantContrast(t *testing.T, tab context.Context, screen string) {
	t.Helper()
	r, err := chromedp.Run(tab, chromedp.Evaluate[contrastReport](checkContrast))
	if err != nil {
		t.Fatalf("measuring the contrast of the %s: %v", screen, err)
	}
	if r.Checked == 0 {
		t.Fatalf("the %s shows no text to measure", screen)
	}
	for _, p := range r.Problems {
		t.Errorf("the %s: %s %q is %s on %s, contrast %.2f:1; at least %.1f:1 is needed", screen, p.Where, p.Text, p.Color, p.Back, p.Ratio, p.Required)
	}
}

// TestBrowserTextContrast measures the contrast of every text on every
// screen a participant sees: the intro with all its fields (and with a
// field over its bound, its count a warning), the pause
// after an exercise, an exercise with one done (the list of exercises
// marks it), and the end.
func TestBrowserTextContrast(t *testing.T) {
	f := newFixture(t, study.Intro{Consent: "I agree to take part.", AskCode: true, Questions: []string{"Your age?"}})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	if err := chromedp.Do(tab, chromedp.Navigate(f.url)); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "intro")
	wantContrast(t, tab, "intro")
	// A code over its bound in bytes (é is two): its count turns to a warning.
	if err := chromedp.Do(tab, chromedp.SendKeys(chromedp.ID("code"), strings.Repeat("é", 40))); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.WaitVisible(chromedp.CSS(`#code[aria-invalid="true"]`))); err != nil {
		t.Fatal(err)
	}
	wantContrast(t, tab, "intro with a code too long")
	start(t, tab, f, "", "C-1", "30")
	wantContrast(t, tab, "first step")

	// The moves of the first exercise, made through the study as the
	// page would make them; the page, reloaded, shows the pause.
	tok := token(t, tab)
	play := func(until func(study.View) bool) {
		t.Helper()
		v, err := f.study.View(tok)
		if err != nil {
			t.Fatal(err)
		}
		for !until(v) {
			if v, err = f.study.Move(tok, study.Move{Seq: v.Seq, Cell: accessibleCells(v.Cells)[0], ClientMillis: 300}); err != nil {
				t.Fatal(err)
			}
		}
	}
	play(func(v study.View) bool { return v.Exercise == 2 })
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "pause")
	wantContrast(t, tab, "pause")
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("continue"))); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll('#exercise-list .done').length`)); err != nil || n != 1 {
		t.Fatalf("the list marks %d exercises done (%v); want 1", n, err)
	}
	wantContrast(t, tab, "second exercise")

	play(func(v study.View) bool { return v.Over })
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "over")
	wantContrast(t, tab, "end")
}

// TestBrowserFirstVisitIsClean opens the page as a new participant does
// and starts the test, watching the network and the console from the
// tab's first message: no request may fail (no 403 for the view a first
// visit has not got, no 404 for an icon), and nothing may be logged as an
// error.
func TestBrowserFirstVisitIsClean(t *testing.T) {
	f := newFixture(t, study.Intro{})
	var mu sync.Mutex
	var problems []string
	var icon bool
	urls := map[network.RequestID]string{}
	watch := func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			urls[ev.RequestID] = ev.Request.URL
		case *network.EventResponseReceived:
			if ev.Response.Status >= 400 {
				problems = append(problems, ev.Response.URL+" answered "+ev.Response.StatusText)
			}
			if strings.HasSuffix(ev.Response.URL, "/assets/icon.svg") && ev.Response.Status == 200 {
				icon = true
			}
		case *network.EventLoadingFailed:
			problems = append(problems, "the request of "+urls[ev.RequestID]+" failed: "+ev.ErrorText)
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				problems = append(problems, "the console says: "+ev.Entry.Text+" ("+ev.Entry.URL+")")
			}
		}
	}
	tab, closeTab := chromedp.NewContext(newBrowser(t), chromedp.WithListener(watch))
	defer closeTab()
	tab, cancel := context.WithTimeout(tab, browserTimeout)
	defer cancel()
	start(t, tab, f, "", "")
	// The icon is asked for after the page has loaded: wait for it.
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		done := icon
		mu.Unlock()
		if done || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	if !icon {
		t.Error("the browser was not given the page's icon")
	}
}

// TestBrowserStepTimes checks the times the database records for what a
// participant does in Chromium: a step whose page was reloaded mid-step
// counts the whole think, from the step's first view (the page's clock
// restarted with the reload, so the server's counts); the first step
// after the pause between exercises counts the page's time, without the
// pause, which the server's bound includes.
func TestBrowserStepTimes(t *testing.T) {
	const wait = 800 * time.Millisecond
	f := newFixture(t, study.Intro{})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	// click clicks the first reachable cell the page shows, and waits
	// for the answer to be drawn.
	click := func() {
		t.Helper()
		p := readPageState(t, tab)
		for _, c := range p.Cells {
			if c.Accessible {
				if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(`.cell[data-cell="`+strconv.Itoa(c.Number)+`"]`))); err != nil {
					t.Fatal(err)
				}
				waitMoved(t, tab, p.Step)
				return
			}
		}
		t.Fatalf("the page shows no reachable cell: %+v", p)
	}
	start(t, tab, f, "", "")
	tok := token(t, tab)

	time.Sleep(wait)
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	click()
	r := records(t, f.study)[0]
	if r.ServerMillis < float64(wait.Milliseconds()) || r.TookMillis != r.ServerMillis {
		t.Errorf("a step thought over for %v and reloaded: client_ms %v, server_ms %v, took_ms %v; want the server's time, the whole think", wait, r.ClientMillis, r.ServerMillis, r.TookMillis)
	}

	// The rest of exercise 1 but its last step through the study; the
	// last step and the first of exercise 2 in the page.
	v, err := f.study.View(tok)
	if err != nil {
		t.Fatal(err)
	}
	for v.Step < v.Exercises[0].Steps-1 {
		if v, err = f.study.Move(tok, study.Move{Seq: v.Seq, Cell: accessibleCells(v.Cells)[0], ClientMillis: 300}); err != nil {
			t.Fatal(err)
		}
	}
	if err := chromedp.Do(tab, chromedp.Reload()); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	click()
	waitSection(t, tab, "pause")
	time.Sleep(wait)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("continue"))); err != nil {
		t.Fatal(err)
	}
	waitSection(t, tab, "test")
	click()
	rs := records(t, f.study)
	first := rs[len(rs)-1]
	if first.Exercise != 2 || first.Step != 1 {
		t.Fatalf("the last record is %+v; want exercise 2, step 1", first)
	}
	if first.ServerMillis < float64(wait.Milliseconds()) || first.TookMillis >= float64(wait.Milliseconds()) || first.TookMillis != first.ClientMillis {
		t.Errorf("the first step after a pause of %v: client_ms %v, server_ms %v, took_ms %v; want the page's time, without the pause, within the server's", wait, first.ClientMillis, first.ServerMillis, first.TookMillis)
	}
}

// TestBrowserCellNumbersInEveryState measures in Chromium the contrast of
// every text on the screen, a reachable cell's number among them, with
// that cell in each colour of the style sheet's palette, as drawn, under
// the keyboard's focus and under the pointer: axe leaves the focused and
// hovered states "incomplete", so they are measured here. Motion is
// reduced, so that a background is measured where its transition ends.
func TestBrowserCellNumbersInEveryState(t *testing.T) {
	f := newFixture(t, study.Intro{})
	tab, closeTab := newTab(t, newBrowser(t))
	defer closeTab()
	start(t, tab, f, "", "")
	reduce := emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}
	if _, err := chromedp.Call(tab, emulation.SetEmulatedMedia, reduce); err != nil {
		t.Fatal(err)
	}
	colours, err := chromedp.Run(tab, chromedp.Evaluate[int](`[...document.styleSheets].flatMap((s) => [...s.cssRules])
		.filter((r) => /^\.cell\[data-color="\d+"\]$/.test(r.selectorText)).length`))
	if err != nil || colours < 2 {
		t.Fatalf("the style sheet has %d cell colours (%v)", colours, err)
	}
	type state struct {
		Matches    bool    `json:"matches"`
		Background string  `json:"background"`
		X          float64 `json:"x"`
		Y          float64 `json:"y"`
	}
	// paint gives the first reachable cell colour k, focuses it from the
	// keyboard (the page's Home key) or takes the focus away, and says
	// whether the cell matches the state and how it is drawn.
	paint := func(k int, focus bool, matches string) state {
		t.Helper()
		set := fmt.Sprintf(`(() => {
			const c = document.querySelector('.cell.accessible');
			c.dataset.color = "%d";
			if (%t) c.focus(); else c.blur();
			return true;
		})()`, k, focus)
		if _, err := chromedp.Run(tab, chromedp.Evaluate[bool](set)); err != nil {
			t.Fatal(err)
		}
		if focus {
			if err := chromedp.Do(tab, chromedp.KeyEvent(kb.Home)); err != nil {
				t.Fatal(err)
			}
		}
		st, err := chromedp.Run(tab, chromedp.Evaluate[state](fmt.Sprintf(`(() => {
			const c = document.querySelector('.cell.accessible');
			const r = c.getBoundingClientRect();
			return { matches: c.matches(%q), background: getComputedStyle(c).backgroundColor,
				x: r.left + r.width / 2, y: r.top + r.height / 2 };
		})()`, matches)))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	for k := 1; k <= colours; k++ {
		drawn := paint(k, false, ".cell")
		wantContrast(t, tab, fmt.Sprintf("cell of colour %d as drawn", k))
		if st := paint(k, true, ":focus-visible"); !st.Matches || st.Background == drawn.Background {
			t.Fatalf("colour %d: the focused cell matches :focus-visible %t, background %s (as drawn %s); the state is not measured",
				k, st.Matches, st.Background, drawn.Background)
		}
		wantContrast(t, tab, fmt.Sprintf("cell of colour %d under the keyboard's focus", k))
		paint(k, false, ".cell")
		if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, drawn.X, drawn.Y)); err != nil {
			t.Fatal(err)
		}
		if st := paint(k, false, ":hover"); !st.Matches || st.Background == drawn.Background {
			t.Fatalf("colour %d: the cell under the pointer matches :hover %t, background %s (as drawn %s); the state is not measured",
				k, st.Matches, st.Background, drawn.Background)
		}
		wantContrast(t, tab, fmt.Sprintf("cell of colour %d under the pointer", k))
		if err := chromedp.Do(tab, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
}
