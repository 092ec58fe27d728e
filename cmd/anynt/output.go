package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/anynt/anynt/internal/version"
)

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
