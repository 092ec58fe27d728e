// Package web serves a study (package study) to people as a web page: the
// page, its script and style, embedded in the binary so that nothing is
// fetched at run time, and the small JSON API the page speaks. The study
// decides and records every move; this package carries requests to it and
// refuses those that no honest page of this server would send.
//
// # Routes
//
//	GET  /            the page (index.html, its title from Options.Title)
//	GET  /assets/…    app.js, style.css and icon.svg, nothing else (no listing)
//	GET  /api/intro   {"version","consent","ask_code","questions"}
//	POST /api/start   {"consent","code","replies"} → sets the cookie → view
//	GET  /api/view    → view (204 without a session cookie: none started yet)
//	POST /api/move    {"participant","seq","cell","client_ms"} → view
//
// A view is {"participant","test","exercises":[{"number","steps","done"}],
// "exercise","step","seq","cells":[{"number","objects","accessible"}],
// "last":{"exercise","step","value","sign"}|null,"over"}: study.View in
// snake_case, its lists never null. Every refusal is {"error":"message"}.
//
// # Sessions
//
// POST /api/start opens a session and sets the cookie anynt_session to its
// secret token (128 random bits chosen by the study): HttpOnly, so that no
// script reads it; SameSite=Strict, so that no other site's page makes the
// browser send it; Path=/; Secure when the request came over TLS. It is a
// session cookie: it lasts until the browser is closed, so a closed tab or a
// reloaded page resumes the test (GET /api/view), and the next participant
// on a shared computer, after the browser is closed, gets a new session.
// The page never sees the token. GET /api/view without the cookie is
// answered 204, no content: no session yet, the page's first request on
// a first visit, and so no refusal for the browser to log. Any other
// request without the cookie, and one with a cookie the study does not
// know, is refused with 403; on either the page shows the intro.
//
// # Checks
//
// The refusals, by status; the server's own checks come before the study
// is asked:
//
//   - 403, DNS rebinding: a request that came over loopback must name a
//     loopback host (localhost, 127.0.0.0/8, [::1]) in its Host header, on
//     every route. Another site's page can make its own name resolve to
//     127.0.0.1 and then talk to this server as its own origin (Origin and
//     Host agree, so the check below passes); it would reach no one's
//     session (the cookie is not sent to its name) but could start and
//     play sessions of its own, polluting the study. Requests from other
//     machines, when the server is bound elsewhere, are not checked so.
//   - 405: a route's one method (GET for the page and assets, which also
//     answer HEAD), with Allow.
//   - 403, cross-site request forgery, on every /api request: a
//     Sec-Fetch-Site that is not same-origin or none (browsers send it with
//     every request since 2023, and no page can set it); from a browser
//     that does not send it, an Origin header (sent with every POST and
//     cross-origin request) that is not this server's scheme://host; and a
//     POST body that is not application/json, which a cross-site form
//     cannot send without the browser asking the server first (a
//     preflight this server does not grant). Requests without these
//     headers (curl, tests) pass: they carry no one's cookie. Sec-Fetch-Site
//     decides when it is there because the browser knows the page's
//     origin, proxies or not: behind a reverse proxy that serves HTTPS the
//     page's Origin is https://HOST while this server sees plain HTTP
//     (there only an older browser's Origin check fails). On loopback, the
//     rule above still wants a loopback name in Host: a proxy on the same
//     machine must send one (as nginx's proxy_pass http://127.0.0.1:PORT
//     does by default), not the public name.
//   - 413: a body over 4 KiB, white space after the object included
//     (http.MaxBytesReader); /api/start has 6000
//     bytes more for each intro question, room for a 1000-byte reply
//     however JSON escapes it.
//   - 400: a body that is not one JSON object of the route's fields
//     (unknown fields are refused, so a misspelt field is not silently
//     zero), a move without participant, seq or cell, a participant below
//     1 (which would skip the study's check of it), a cell that does not
//     exist (study.ErrOutOfRange), an intro not answered as asked
//     (study.ErrIntro: the bounds on the code and replies are the study's).
//   - 403: a move whose participant is not the cookie's session's
//     (study.ErrOtherSession: another tab's stale page after a new session
//     was started, or a forged body), or no such session
//     (study.ErrNoSession).
//   - 409: a move whose seq is not the view's (study.ErrStale: a replayed,
//     doubled or reordered request, which changes nothing) or after the end
//     (study.ErrOver).
//   - 422: a cell that cannot be reached (study.ErrNotAccessible).
//   - 429: a start beyond Options.Starts (DefaultStartLimit: a burst of
//     100, then 10 a second, for the whole server, since a start needs no
//     session and opens one in the database), with Retry-After in whole
//     seconds; the page shows the message. Views and moves of sessions
//     started are not limited.
//   - 500: anything else from the study (the database failed, or a
//     session's recorded moves no longer replay: study.ErrReplay), logged
//     to Options.Logger and not shown.
//
// Study errors are mapped with errors.Is, never by their text.
//
// # Headers
//
// Every response has a Content-Security-Policy that lets the page run its
// own script and style only (default-src 'none'; no inline script or
// style, nothing from another origin, no framing, no form posting), with
// X-Content-Type-Options nosniff, Referrer-Policy no-referrer,
// X-Frame-Options DENY and same-origin opener and resource policies. API
// answers are Cache-Control no-store (a view must never come from a
// cache); the page and assets no-cache.
//
// # Timing
//
// The study times each move twice: the page sends client_ms, measured with
// performance.now() from drawing the view to the click (the participant's
// own time, without the network), and the study measures from the first
// time it served the step's view to receiving the move: a view asked for
// again (a reload, GET /api/view) does not restart the study's timer, so
// that a page cannot make a long think look short, and the study then
// counts its own time, since the page's clock restarted with the page.
// After the pause between exercises the page draws the next exercise from
// the view that came with the last move's answer, without asking again,
// so that its own time, which counts, leaves the pause out; the study's,
// which bounds it, does not. A client_ms shorter than the study's time less
// study.NetworkAllowance (500 ms) is cut to that bound, and the record says
// so. The study keeps a client_ms from 0 to a day, and any other
// (negative, 1e308) as 0, unknown (package study, "Timing").
//
// The caller owns the http.Server and its limits. This package expects,
// and cmd/anynt sets: ReadHeaderTimeout and ReadTimeout of seconds (bodies
// are tiny), a WriteTimeout of seconds (answers are small, a move is one
// database commit), an IdleTimeout for keep-alive connections, and
// MaxHeaderBytes of a few KiB. A study is safe for concurrent use, and so
// is the handler: many participants move at once.
//
// # The page
//
// The page (assets/) follows the ANYNT prototype's interface (Insa-Cabrera et
// al. 2011, "Comparing humans and AI agents", §4.2, Fig. 2; Insa-Cabrera et
// al. 2012, "The ANYNT Project Intelligence Test Λ_one", Fig. 4):
// instructions that say only what the participant must know; the exercises in
// order with their step counts; the cells as coloured squares from a fixed
// palette, numbered in a corner, its hues at least 40° from the reward icons'
// green and red; the participant always ○; the other objects as neutral
// symbols (study.Glyphs: ◆ ⬟ ▲ ★ ▰ ⬢ ♜ ⧓ ♣ ♠; none a reward's sign, a plus or
// a minus, which would say which is Good, nor a circle like ○) that the study
// draws afresh for each exercise; cells that can be reached with a thick
// border, and under the pointer or the keyboard's focus a double border and a
// more saturated background; the reward of the last step as an up arrow in a
// green circle, a small square in a grey one or a down arrow in a red one; a
// pause screen between exercises and a thank-you screen at the end. Nothing
// else is shown. The intro counts the code's and each answer's bytes of UTF-8
// (TextEncoder), as the study bounds them (study.MaxCode, study.MaxReply),
// shows the count under each field and sends nothing while one is over.
//
// So that no group of people is favoured, the page can be used without a
// mouse and with a screen reader: the cells are buttons in order (Tab,
// Enter or Space; the arrow keys, Home and End move among the reachable
// ones; unreachable cells are disabled), each labelled like "Cell 3: you,
// star; reachable"; a live region announces each step's reward (gained,
// nothing, lost) and the next step; after a move the focus stays on the
// participant's cell; between exercises it goes to Continue, which the
// last step's reward and the next exercise describe (the live region is
// hidden with the cells), and at the end to the heading that says so.
// The page ignores clicks while a move is in flight, and on 409 (or 403,
// 422) shows the server's view again with a line asking the participant
// to choose again.
//
// Stable ids and classes for tests and styling: #intro, #consent (the
// checkbox), #code, #start, #test, #exercise-list, #step, #reward
// (data-sign 1, 0, −1, or empty), #cells, .cell[data-cell=N], .accessible,
// #live, #pause, #continue, #over, #error.
package web
