package web

import (
	"bytes"
	"embed"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/anynt/anynt/study"
)

// Options configure the server.
type Options struct {
	// Title is the page's title, "ANYNT test" when empty. Participants see
	// it in the browser's tab: it should say nothing about the study's
	// hypothesis.
	Title string
	// Logger receives the requests the server could not answer for a fault
	// of its own (status 500) and, at debug level, every refusal; nil
	// discards them.
	Logger *slog.Logger
	// Starts bounds how fast sessions are started; the zero value is
	// DefaultStartLimit.
	Starts StartLimit
}

//go:embed assets
var assets embed.FS

// securityHeaders are sent with every response. The page runs only its own
// script and style (no inline code, nothing from elsewhere), may not be
// framed (clickjacking), sends no referrer and is not sniffed into another
// type.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Content-Type-Options":       "nosniff",
	"Referrer-Policy":              "no-referrer",
	"X-Frame-Options":              "DENY",
	"Cross-Origin-Opener-Policy":   "same-origin",
	"Cross-Origin-Resource-Policy": "same-origin",
}

// asset is an embedded file with its content type.
type asset struct {
	body        []byte
	contentType string
}

// server answers the page, its assets and the API over one study.
type server struct {
	study *study.Study
	log   *slog.Logger
	page  []byte
	files map[string]asset // by URL path
	// starts limits POST /api/start (StartLimit).
	starts *bucket
}

// New returns the handler of the study's page and API. It serves:
//
//	GET  /              the page
//	GET  /assets/NAME   the page's script, style and icon
//	GET  /api/intro     what the participant is shown and asked first
//	POST /api/start     a new session (sets the cookie), its first view
//	GET  /api/view      the session's current view
//	POST /api/move      a click, the next view
//
// The caller owns the http.Server and its timeouts (see the package
// documentation) and closes the study.
func New(s *study.Study, o Options) http.Handler {
	title := o.Title
	if title == "" {
		title = "ANYNT test"
	}
	logger := o.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &server{
		study:  s,
		log:    logger,
		page:   renderPage(title),
		files:  loadAssets(),
		starts: newBucket(o.Starts, time.Now),
	}
}

// renderPage fills the page's title in once; the rest of the page is built
// by its script from the API.
func renderPage(title string) []byte {
	text, err := assets.ReadFile("assets/index.html")
	if err != nil {
		panic(err) // the page is embedded at build time: missing is a build fault
	}
	t := template.Must(template.New("index.html").Parse(string(text)))
	var b bytes.Buffer
	if err := t.Execute(&b, struct{ Title string }{title}); err != nil {
		panic(err) // the template and its data are fixed at build time
	}
	return b.Bytes()
}

// loadAssets reads the embedded script, style and icon (the page names
// it, so that a browser does not ask for /favicon.ico and log its 404).
// Only these files are served, so no directory is ever listed.
func loadAssets() map[string]asset {
	files := make(map[string]asset)
	for name, contentType := range map[string]string{
		"app.js":    "text/javascript; charset=utf-8",
		"style.css": "text/css; charset=utf-8",
		"icon.svg":  "image/svg+xml",
	} {
		body, err := assets.ReadFile("assets/" + name)
		if err != nil {
			panic(err) // embedded at build time
		}
		files["/assets/"+name] = asset{body, contentType}
	}
	return files
}

// ServeHTTP routes a request. Routing is written out, not left to
// http.ServeMux, so that a wrong method gets the API's JSON error.
func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, v := range securityHeaders {
		h.Set(k, v)
	}
	if !loopbackHost(r) {
		h.Set("Cache-Control", "no-store")
		s.refuse(w, r, http.StatusForbidden, "a server on loopback answers only to a loopback name (localhost, 127.0.0.1, [::1])")
		return
	}
	path := r.URL.Path
	if path == "/" {
		s.serveFile(w, r, asset{s.page, "text/html; charset=utf-8"})
		return
	}
	if f, ok := s.files[path]; ok {
		s.serveFile(w, r, f)
		return
	}
	h.Set("Cache-Control", "no-store")
	route, ok := apiRoutes[path]
	if !ok {
		s.refuse(w, r, http.StatusNotFound, "no such page")
		return
	}
	if r.Method != route.method {
		h.Set("Allow", route.method)
		s.refuse(w, r, http.StatusMethodNotAllowed, "use "+route.method)
		return
	}
	if status, msg := checkSameOrigin(r); status != 0 {
		s.refuse(w, r, status, msg)
		return
	}
	route.handle(s, w, r)
}

// serveFile writes an embedded file to a GET or HEAD request.
func (s *server) serveFile(w http.ResponseWriter, r *http.Request, f asset) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.refuse(w, r, http.StatusMethodNotAllowed, "use GET")
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
}
