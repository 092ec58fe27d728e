// Package corpus holds the example programs of the project: the papers'
// algorithms and environments, each file with a header that cites its source
// and any erratum corrected, and the classic rule files of the literature
// with their inputs and expected outputs (classic/*.in, *.out). Its tests run
// every fixture end to end; the fuzz targets are seeded from these files.
//
// Files embeds the corpus so that tests and tools elsewhere can read it.
package corpus

import "embed"

// Files is the corpus: paper/, thesis/ and classic/.
//
//go:embed paper thesis classic
var Files embed.FS
