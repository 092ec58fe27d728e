// Package e2e holds the end-to-end tests of the test for people: a real
// browser on the real page, and the real anynt binary killed and started
// again. It has no code of its own; its tests are the specification of
// what a participant and a researcher see (docs/people.md).
//
// The browser tests drive Debian's Chromium (/usr/bin/chromium, headless,
// without its sandbox, background networking or GPU) through the
// DevTools protocol with chromedp. They start a real server (package web
// over a real study in a SQLite file) on loopback, answer the intro, click
// through a whole exercise, checking at every step that the page shows the
// server's accessible cells, the reward the database recorded and the move
// the server made; they close the tab mid-exercise and open it again, and
// make a move with the keyboard alone. One more takes the whole Λ_one test
// (350 moves, 7 exercises) in the browser from the anynt binary, as on a
// fresh clone, and reads the report of anynt results on it. Two more
// measure the page as Chromium draws it: the contrast of every text on
// every screen (WCAG 2.1: 4.5:1, 3:1 for large text and signs), and a
// first visit watched from the tab's first message, which must fail no
// request and log no error. Chromium is never downloaded: when it is
// missing the browser tests skip and say to install it (apt-get install
// chromium), so that go test ./... needs only Go and python3; with
// ANYNT_E2E=1, which .ci/run sets, they fail instead, so that CI cannot
// pass them untested. That skip, of a browser absent and not asked for,
// is the one the project allows.
//
// The restart tests build cmd/anynt, run anynt serve on a database in a
// temporary folder, play moves over HTTP as the page does, kill the server
// with SIGKILL mid-exercise, start it again on the same database and check
// that every recorded interaction is still there and the session resumes
// where it stood; that SIGTERM stops it cleanly, and a second SIGTERM
// while it waits for a request still closes the database before it says
// so, leaving no -wal, -shm or lock file; that a second anynt serve on
// the database is refused at start-up while anynt results reads it; and
// that a request's head over 16 KiB is refused.
//
// go test ./e2e -run Browser -update-screenshots writes the page's screenshots in
// docs/img/ (people-*.png) from a real run.
package e2e
