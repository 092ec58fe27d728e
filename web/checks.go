package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/anynt/anynt/study"
)

const (
	// cookieName is the cookie that holds a session's secret token.
	cookieName = "anynt_session"
	// bodyLimit bounds a request's body: a move is under 100 bytes.
	bodyLimit = 4 << 10
	// replyRoom is what one answer to an intro question may take in a
	// body: study bounds a reply, and JSON may write a byte as six
	// (\u0001).
	replyRoom = 6 * study.MaxReply
	// maxTokenLength bounds the cookie's value before the study looks it
	// up; a token is 32 hexadecimal digits.
	maxTokenLength = 64
)

// startLimit bounds the body of /api/start: 4 KiB, and room for the
// answer to each question, so that a study with several questions does
// not refuse honest long answers.
func startLimit(questions int) int64 {
	return bodyLimit + int64(questions)*replyRoom
}

// loopbackHost says a request that came over loopback names a loopback
// host. Another site's page can make its own name resolve to 127.0.0.1
// (DNS rebinding) and then talk to this server as its own origin, Origin
// and all; only the Host it sends gives it away.
func loopbackHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok || !local.IP.IsLoopback() {
		return true
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = strings.TrimSuffix(strings.TrimPrefix(r.Host, "["), "]") // no port
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// checkSameOrigin refuses a request another site made the browser send
// (cross-site request forgery). Sec-Fetch-Site, which browsers send with
// every request and no page can set, decides when it is there: the
// request must come from this origin or from the user (typing the
// address). The browser knows the page's origin, whatever stands between
// it and this server: behind a reverse proxy that serves HTTPS, the page
// is https://HOST while this server sees plain HTTP, so the Origin header
// cannot be matched against this server's own scheme. Without
// Sec-Fetch-Site (an older browser), the Origin header, which browsers
// send with every POST and every cross-origin request, must be this
// server's scheme://host. Requests without either header (curl, tests)
// pass: they carry no victim's cookie. The cookie's SameSite=Strict is the
// second line of the same defence.
func checkSameOrigin(r *http.Request) (status int, msg string) {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return 0, ""
	case "":
	default:
		return http.StatusForbidden, "cross-site request refused"
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		if origin != scheme+"://"+r.Host {
			return http.StatusForbidden, "cross-origin request refused"
		}
	}
	return 0, ""
}

// decode reads a POST's JSON body into v: of type application/json (a
// form or text/plain body is what a cross-site form can send without a
// preflight), at most limit bytes, one object with no unknown field and
// nothing after it. It answers the refusal itself and returns false.
func (s *server) decode(w http.ResponseWriter, r *http.Request, limit int64, v any) bool {
	mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mediaType != "application/json" {
		s.refuse(w, r, http.StatusForbidden, "the body must be application/json")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, limit))
	dec.DisallowUnknownFields()
	err = dec.Decode(v)
	if err == nil {
		// What follows the object must be white space to the end; reading
		// it runs into the limit when the padding is long, which is a body
		// too large, not a second value.
		switch err = dec.Decode(&struct{}{}); {
		case err == io.EOF:
			return true
		case err == nil:
			err = errors.New("more than one JSON value")
		}
	}
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		s.refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes", limit))
		return false
	}
	s.refuse(w, r, http.StatusBadRequest, "malformed request: "+err.Error())
	return false
}

// token is the session's token from the cookie; without one (or with one
// no study could have made) it refuses the request.
func (s *server) token(w http.ResponseWriter, r *http.Request) (string, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" || len(c.Value) > maxTokenLength {
		s.refuse(w, r, http.StatusForbidden, "no session: start the test first")
		return "", false
	}
	return c.Value, true
}

// statuses maps the study's refusals to HTTP statuses.
var statuses = []struct {
	err    error
	status int
}{
	{study.ErrNoSession, http.StatusForbidden},
	{study.ErrOtherSession, http.StatusForbidden},
	{study.ErrIntro, http.StatusBadRequest},
	{study.ErrOutOfRange, http.StatusBadRequest},
	{study.ErrNotAccessible, http.StatusUnprocessableEntity},
	{study.ErrStale, http.StatusConflict},
	{study.ErrOver, http.StatusConflict},
}

// fail answers an error of the study: a refusal with its status and the
// study's message, anything else as the server's fault, logged and not
// shown (it may name files).
func (s *server) fail(w http.ResponseWriter, r *http.Request, err error) {
	for _, m := range statuses {
		if errors.Is(err, m.err) {
			s.refuse(w, r, m.status, err.Error())
			return
		}
	}
	s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	writeJSON(w, http.StatusInternalServerError, errorJSON{"the server failed; try again"})
}

// errorJSON is the body of every refusal.
type errorJSON struct {
	Error string `json:"error"`
}

// refuse answers a refusal.
func (s *server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	s.log.Debug("refused", "method", r.Method, "path", r.URL.Path, "status", status, "msg", msg)
	writeJSON(w, status, errorJSON{msg})
}

// writeJSON writes v with the status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		// Only the server's own types are written: a fault of the build.
		http.Error(w, `{"error":"the server failed"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
