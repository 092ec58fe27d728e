package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/anynt/anynt/internal/version"
)

// Ceilings of the flags that size a run (docs/output.md): beyond them a
// run would take days or exhaust memory (a score is kept per episode), so
// they are usage errors, not crashes.
const (
	maxEpisodes        = 1_000_000
	maxSteps           = 10_000_000     // scored interactions an episode
	maxRunInteractions = 10_000_000_000 // episodes × steps of one run
	maxInteractions    = 10_000_000     // of the complexity command's Kt^max run
)

// checkBound refuses a flag value outside [lo, hi] as a usage error.
func checkBound(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return usage(fmt.Errorf("%s is %d; it must be from %d to %d", flag, v, lo, hi))
	}
	return nil
}

// checkedWriter is standard output as every command sees it: it keeps the
// first error of a write (a full disk, a closed terminal) and fails every
// later write with it, so that run can exit with exitIO, naming the
// failure, whether the command looked at the error or not, and a command
// that does look stops at the first.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// versionString is the version every JSON result carries.
func versionString() string { return version.String() }

// writeJSON writes one result as one line of JSON, symbols unescaped.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// progress shows a long job's progress on one line of a terminal: done and
// total, the rate and the time left. It redraws at most ten times a second
// and clears its line before anything else is printed (clear), so that it
// never runs into output lines. A nil *progress shows nothing.
type progress struct {
	w     io.Writer
	what  string
	total int
	start time.Time
	drawn time.Time
	now   func() time.Time
}

// newProgress returns a progress line on w when w is a terminal, else nil.
func newProgress(w io.Writer, what string, total int) *progress {
	if !isTerminal(w) {
		return nil
	}
	return startProgress(w, what, total, time.Now)
}

func startProgress(w io.Writer, what string, total int, now func() time.Time) *progress {
	t := now()
	return &progress{w: w, what: what, total: total, start: t, now: now}
}

// update redraws the line after done of total units.
func (p *progress) update(done int) {
	if p == nil {
		return
	}
	t := p.now()
	if done < p.total && t.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = t
	line := fmt.Sprintf("%d/%d %s", done, p.total, p.what)
	// A rate over less than half a second says more about the clock than
	// about the job, so the first draws show the count alone.
	if elapsed := t.Sub(p.start).Seconds(); elapsed >= 0.5 && done > 0 {
		rate := float64(done) / elapsed
		left := time.Duration(float64(p.total-done) / rate * float64(time.Second)).Round(time.Second)
		line += fmt.Sprintf(", %.1f/s, %s left", rate, left)
	}
	fmt.Fprint(p.w, "\r\x1b[K"+line)
}

// clear erases the line, leaving the cursor at its start.
func (p *progress) clear() {
	if p == nil {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
}

// isTerminal reports whether w is a terminal, where progress is shown.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// ci is a 95% interval for JSON: null when it is unavailable (one episode
// gives no estimate of the spread).
func ci(lo, hi float64, n int) *[2]float64 {
	if n < 2 {
		return nil
	}
	return &[2]float64{lo, hi}
}

// ciText prints a 95% interval, or "n/a" when it is unavailable.
func ciText(lo, hi float64, n int) string {
	if n < 2 {
		return "n/a (one episode)"
	}
	return fmt.Sprintf("[%+.4f, %+.4f]", lo, hi)
}

// count spells n things, "1 episode" or "2 episodes".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
