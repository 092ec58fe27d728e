// Command write prints a generated rule file of the size given in bytes,
// for measuring the CLI on large files (README, performance):
//
//	go run ./internal/bigsource/write 5000000 > big.anynt
//	go run ./internal/bigsource/write -dense 5000000 > dense.anynt
//
// The default is the corpus's rule forms (bigsource.Rules); -dense writes
// rules of the form ab -> ca (bigsource.Dense).
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"

	"github.com/anynt/anynt/internal/bigsource"
)

func main() {
	dense := flag.Bool("dense", false, "write rules of the form ab -> ca")
	flag.Parse()
	size, err := strconv.Atoi(flag.Arg(0))
	if flag.NArg() != 1 || err != nil || size < 0 {
		fmt.Fprintln(os.Stderr, "usage: write [-dense] BYTES")
		os.Exit(2)
	}
	write := bigsource.Rules
	if *dense {
		write = bigsource.Dense
	}
	if _, err := os.Stdout.Write(write(size)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
