// Command anynt is the command-line tool of the anynt toolchain: it formats,
// expands, disassembles and runs Markov algorithms written in the notation
// of the ANYNT papers, and runs classic rule files.
//
// Exit status: 0 success; 1 errors in an input file; 2 usage errors;
// 3 a run stopped at a limit (its string is still printed).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
