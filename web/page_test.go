package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/study"
	"github.com/anynt/anynt/web"
)

// securityHeaders are the headers every response must carry.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"X-Frame-Options":        "DENY",
}

// TestPageAndAssets fetches the page and its assets and checks their
// types, their caching, the security headers, and that the page has what
// the browser tests and the papers' interface need.
func TestPageAndAssets(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	for _, c := range []struct {
		path, contentType string
		contains          []string
	}{
		{"/", "text/html; charset=utf-8", []string{
			`<title>ANYNT test</title>`, `id="intro"`, `id="start"`, `id="consent"`, `id="code"`,
			`id="cells"`, `id="reward"`, `id="step"`, `id="exercise-list"`, `id="continue"`, `id="over"`,
			`aria-live="polite"`, `role="alert"`, `<script src="/assets/app.js" defer></script>`,
			`<link rel="stylesheet" href="/assets/style.css">`, `<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">`,
		}},
		{"/assets/icon.svg", "image/svg+xml", []string{"<svg", "</svg>"}},
		{"/assets/app.js", "text/javascript; charset=utf-8", []string{
			`"/api/view"`, `"/api/move"`, `"/api/start"`, `"/api/intro"`, "performance.now()", "client_ms",
			`"aria-label"`, "reachable", "gained", "nothing", "lost", "ArrowRight",
			// every glyph the study may name
			"diamond:", "pentagon:", "triangle:", "star:", "parallelogram:", "hexagon:", "rook:", "bowtie:", "club:", "spade:",
		}},
		{"/assets/style.css", "text/css; charset=utf-8", []string{
			".cell.accessible", ":hover", ":focus-visible", "double", `#reward[data-sign="1"]`,
			`#reward[data-sign="0"]`, `#reward[data-sign="-1"]`,
		}},
	} {
		t.Run(c.path, func(t *testing.T) {
			r := b.do("GET", c.path, nil, nil)
			if r.status != http.StatusOK {
				t.Fatalf("status %d", r.status)
			}
			if got := r.header.Get("Content-Type"); got != c.contentType {
				t.Errorf("Content-Type %q, want %q", got, c.contentType)
			}
			for k, v := range securityHeaders {
				if got := r.header.Get(k); got != v {
					t.Errorf("%s: %q, want %q", k, got, v)
				}
			}
			for _, s := range c.contains {
				if !strings.Contains(string(r.body), s) {
					t.Errorf("does not contain %s", s)
				}
			}
		})
	}
	js := string(b.do("GET", "/assets/app.js", nil, nil).body)
	for _, bound := range []string{fmt.Sprintf("const MAX_CODE = %d;", study.MaxCode), fmt.Sprintf("const MAX_REPLY = %d;", study.MaxReply)} {
		if !strings.Contains(js, bound) {
			t.Errorf("app.js does not hold the study's bound %q", bound)
		}
	}
	for _, name := range study.Glyphs {
		r := b.do("GET", "/assets/app.js", nil, nil)
		if !regexp.MustCompile(`\b` + name + `: "[^"]+"`).Match(r.body) {
			t.Errorf("app.js draws no symbol for the study's glyph %q", name)
		}
	}
}

// TestHeadersEverywhere checks the security headers on API answers and
// refusals too, and that API answers are never cached.
func TestHeadersEverywhere(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	for _, path := range []string{"/api/intro", "/api/view", "/nowhere", "/api/nowhere"} {
		r := b.do("GET", path, nil, nil)
		for k, v := range securityHeaders {
			if got := r.header.Get(k); got != v {
				t.Errorf("%s: %s %q, want %q", path, k, got, v)
			}
		}
		if got := r.header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s: Cache-Control %q", path, got)
		}
	}
}

// external finds what would make the page fetch something from elsewhere:
// an absolute or scheme-relative URL in an attribute, CSS url() or import,
// or a fetch.
var external = regexp.MustCompile(`(?i)(src|href|action)\s*=\s*["']?\s*(https?:)?//|url\(\s*["']?\s*(https?:)?//|@import|fetch\(\s*["'` + "`" + `](https?:)?//`)

// TestNothingExternal checks that no asset references another origin and
// that the page has no inline script, style or event handler, which the
// Content-Security-Policy would block.
func TestNothingExternal(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	for _, path := range []string{"/", "/assets/app.js", "/assets/style.css"} {
		body := b.do("GET", path, nil, nil).body
		if m := external.Find(body); m != nil {
			t.Errorf("%s references another origin: %s", path, m)
		}
		if m := regexp.MustCompile(`https?://`).Find(body); m != nil {
			t.Errorf("%s holds a URL: %s", path, m)
		}
	}
	page := string(b.do("GET", "/", nil, nil).body)
	scripts := regexp.MustCompile(`<script([^>]*)>([^<]*)</script>`).FindAllStringSubmatch(page, -1)
	if len(scripts) != strings.Count(page, "<script") {
		t.Errorf("a script element is not <script …></script>")
	}
	for _, m := range scripts {
		if !strings.Contains(m[1], `src="/assets/`) || m[2] != "" {
			t.Errorf("the page has an inline script: %s", m[0])
		}
	}
	for _, inline := range []*regexp.Regexp{
		regexp.MustCompile(`<style`),
		regexp.MustCompile(`\sstyle\s*=`),
		regexp.MustCompile(`\son[a-z]+\s*=`),
		regexp.MustCompile(`javascript:`),
	} {
		if m := inline.FindString(page); m != "" {
			t.Errorf("the page has inline code or style: %s", m)
		}
	}
	if strings.Contains(string(b.do("GET", "/assets/app.js", nil, nil).body), "innerHTML") {
		t.Errorf("app.js writes HTML: the server's strings must go in as text")
	}
}

// TestTitle checks that Options.Title names the page, escaped.
func TestTitle(t *testing.T) {
	srv := httptest.NewServer(web.New(openStudy(t, study.Intro{}), web.Options{Title: "Study <A> & B"}))
	defer srv.Close()
	body := string(newBrowser(t, srv).do("GET", "/", nil, nil).body)
	if !strings.Contains(body, "<title>Study &lt;A&gt; &amp; B</title>") {
		t.Fatalf("title not set or not escaped: %s", body[:200])
	}
}

// TestHead answers HEAD for the page, without a body.
func TestHead(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	r := b.do("HEAD", "/assets/style.css", nil, nil)
	if r.status != http.StatusOK || len(r.body) != 0 || r.header.Get("Content-Type") != "text/css; charset=utf-8" {
		t.Fatalf("HEAD: %d %q %q", r.status, r.header.Get("Content-Type"), r.body)
	}
}

// TestGlyphsCarryNoMeaning reads the symbols the page draws for the study's
// glyphs: Insa-Cabrera et al. (2011) want symbols without implicit meaning,
// and in this page some would have one. A glyph drawn as a reward's sign (■
// is "nothing") or as a sign of gain or loss (a plus or a minus: the papers'
// own ⊕ and ⊖ without their circles) would tell a person which of Good and
// Evil it is, which an agent is not told. Every glyph is drawn, each as its
// own symbol, none as a circle: the participant is ○, and a filled disc
// beside it is too easily taken for it.
func TestGlyphsCarryNoMeaning(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	r := b.do("GET", "/assets/app.js", nil, nil)
	if r.status != http.StatusOK {
		t.Fatalf("app.js: status %d", r.status)
	}
	js := string(r.body)
	block := regexp.MustCompile(`(?s)const GLYPHS = \{(.*?)\};`).FindStringSubmatch(js)
	if block == nil {
		t.Fatal("app.js has no GLYPHS table")
	}
	symbols := map[string]string{}
	for _, m := range regexp.MustCompile(`(\w+): "([^"]+)"`).FindAllStringSubmatch(block[1], -1) {
		symbols[m[1]] = m[2]
	}
	meaningful := map[string]string{"○": "the participant"}
	for _, m := range regexp.MustCompile(`icon: "([^"]+)"`).FindAllStringSubmatch(js, -1) {
		meaningful[m[1]] = "a reward's sign"
	}
	if len(meaningful) != 4 {
		t.Fatalf("app.js draws %d reward signs; want 3", len(meaningful)-1)
	}
	for _, s := range []string{"+", "-", "−", "➕", "➖", "✚", "✛", "✜", "╋", "▬", "━", "⊕", "⊖", "↑", "↓"} {
		meaningful[s] = "a sign of gain or loss"
	}
	for _, s := range []string{"●", "⬤", "◯", "⚫", "⚪", "◉", "◎", "⦿", "⊙", "❍", "🔴"} {
		meaningful[s] = "a circle, which a glance confuses with the participant's ○"
	}
	drawn := map[string]string{}
	for _, name := range study.Glyphs {
		s, ok := symbols[name]
		switch {
		case !ok:
			t.Errorf("glyph %s: the page has no symbol for it", name)
		case meaningful[s] != "":
			t.Errorf("glyph %s is drawn as %s, %s", name, s, meaningful[s])
		case drawn[s] != "":
			t.Errorf("glyphs %s and %s are both drawn as %s", drawn[s], name, s)
		}
		drawn[s] = name
	}
}

// TestScreensBetweenExercisesAreAnnounced checks what a screen reader is
// given when the page leaves the cells: the live region that announces
// each step's reward is inside the test section, which the pause and the
// end hide. Between exercises the focus goes to Continue, which must be
// described by the last step's reward and the next exercise (or the
// reward of each exercise's last step would never be heard); at the end
// the focus goes to the heading that says the test is over.
func TestScreensBetweenExercisesAreAnnounced(t *testing.T) {
	b := newBrowser(t, serve(t, openStudy(t, study.Intro{})))
	page := string(b.do("GET", "/", nil, nil).body)
	js := string(b.do("GET", "/assets/app.js", nil, nil).body)
	tag := func(id string) string {
		return regexp.MustCompile(`<[a-z0-9]+ id="` + id + `"[^>]*>`).FindString(page)
	}
	cont := tag("continue")
	described := regexp.MustCompile(`aria-describedby="([^"]*)"`).FindStringSubmatch(cont)
	if described == nil {
		t.Errorf("the Continue button %s is described by nothing", cont)
	} else {
		ids := strings.Fields(described[1])
		for _, id := range []string{"pause-last", "pause-next"} {
			if !slices.Contains(ids, id) || tag(id) == "" {
				t.Errorf("the Continue button is described by %q; want #%s, on the page", ids, id)
			}
		}
	}
	if !strings.Contains(js, `$("continue").focus()`) {
		t.Error("app.js does not focus Continue on the pause screen")
	}
	if over := tag("over-title"); !strings.Contains(over, `tabindex="-1"`) || !strings.Contains(js, `$("over-title").focus()`) {
		t.Errorf("the end's heading %s does not take the focus", over)
	}
}
