// Package corpus holds the example programs of the project: the papers'
// algorithms and environments, each file with a header that cites its source
// and any erratum corrected; a gallery of environments written by hand, each
// with a header that says what ability it probes and why it is in the class
// (gallery/, docs/gallery.md); and the classic rule files of the literature
// with their inputs and expected outputs (classic/*.in, *.out). Its tests run
// every fixture end to end; the fuzz targets are seeded from these files.
//
// Files embeds the whole corpus, and it is the one way into it: tests and
// fuzz targets elsewhere read it through Files, never by a relative path,
// so that a new folder is seen by every test at once.
package corpus

import "embed"

// Files is the corpus: paper/, thesis/, lambda-one/, gallery/ and classic/.
//
//go:embed paper thesis lambda-one gallery classic
var Files embed.FS
