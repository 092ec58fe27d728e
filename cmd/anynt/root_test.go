package main

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// Every command this package defines (a func newXCmd in a file named
// after it) is one of the subcommands: a command written but left out of
// the list would never run.
func TestEveryCommandIsASubcommand(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	defined := regexp.MustCompile(`(?m)^func (new\w+Cmd)\(io \*stdio\) \*cobra\.Command`)
	listed := map[string]bool{}
	for _, c := range subcommands {
		name := runtime.FuncForPC(reflect.ValueOf(c.make).Pointer()).Name()
		listed[name[strings.LastIndexByte(name, '.')+1:]] = true
	}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range defined.FindAllStringSubmatch(string(src), -1) {
			n++
			if !listed[m[1]] {
				t.Errorf("%s: %s is not among the subcommands", f, m[1])
			}
		}
	}
	if n != len(subcommands) {
		t.Errorf("%d commands defined, %d subcommands", n, len(subcommands))
	}
}
