package main

import (
	"fmt"
	"io"
	"os"
	"time"
)

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
