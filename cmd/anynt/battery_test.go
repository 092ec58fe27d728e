package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/spf13/pflag"
)

// batteryFlagsOf parses a command line's battery flags as the test command
// does.
func batteryFlagsOf(t *testing.T, args ...string) batteryFlags {
	t.Helper()
	f := pflag.NewFlagSet("test", pflag.ContinueOnError)
	var fl batteryFlags
	fl.register(defsOf(f))
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	return fl
}

func itemNames(items []exam.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Name)
	}
	return out
}

// Files and folders make a list battery by default: every environment in
// the order given, a folder's in sorted order, each with --steps.
func TestBatteryFromFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"b.anynt", "a.anynt"} {
		writeFileAt(t, filepath.Join(dir, name), "actions s l r\nspace table {\n\t1 3 2\n\t2 1 3\n\t3 2 1\n}\ngoodevil pattern l r\n")
	}
	example5 := corpusDir + "paper/example5.anynt"
	items, err := batteryItems([]string{example5, dir}, batteryFlagsOf(t, "--steps", "25"), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{example5, filepath.Join(dir, "a.anynt"), filepath.Join(dir, "b.anynt")}
	if got := itemNames(items); !slices.Equal(got, want) {
		t.Errorf("the battery is %q; want %q", got, want)
	}
	for _, it := range items {
		if it.Steps != 25 {
			t.Errorf("%s has %d steps; want 25", it.Name, it.Steps)
		}
	}
}

// If any file fails, the battery does not start: the error holds every
// error of every file, printed positioned with its line, and exits 1; a
// rule file among them makes it 2, the usage error run and dot give for it,
// the other files' errors printed still.
func TestBatteryReportsEveryFileError(t *testing.T) {
	syntax := writeFile(t, "syntax.anynt", "actions s l r\ngoodevil pattern (\n")
	rules := writeFile(t, "rules.anynt", "a -> b\n")
	good := corpusDir + "paper/example5.anynt"
	if _, err := batteryItems([]string{good, syntax}, batteryFlagsOf(t), 1); exitCode(err) != exitFile {
		t.Fatalf("status %d (%v); want exit %d", exitCode(err), err, exitFile)
	}
	_, err := batteryItems([]string{good, syntax, rules}, batteryFlagsOf(t), 1)
	if exitCode(err) != exitUsage {
		t.Fatalf("status %d (%v); want exit %d", exitCode(err), err, exitUsage)
	}
	var b bytes.Buffer
	printError(&b, err)
	for _, want := range []string{syntax + ":2:", rules + ":1:1: a rule file", "\ta -> b\n\t^"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the errors\n%s\nlack %q", b.String(), want)
		}
	}
	if strings.Contains(b.String(), good) {
		t.Errorf("the good file is among the errors:\n%s", b.String())
	}
	// A folder's rule files are passed over, its environments kept: the
	// corpus's folders hold both kinds.
	items, err := batteryItems([]string{corpusDir + "thesis"}, batteryFlagsOf(t), 1)
	if err != nil || len(items) != 1 || items[0].Name != corpusDir+"thesis/omega1-blocker.anynt" {
		t.Errorf("corpus/thesis, which holds four rule files and one environment: %v, %v", items, err)
	}
	// A folder with a broken file fails like a named one.
	dir := t.TempDir()
	writeFileAt(t, filepath.Join(dir, "a.anynt"), "actions s l r\ngoodevil pattern (\n")
	if _, err := batteryItems([]string{dir}, batteryFlagsOf(t), 1); exitCode(err) != exitFile {
		t.Errorf("a folder holding a file that does not parse: %v, want exit %d", err, exitFile)
	}
}

func TestBatteryUsageErrors(t *testing.T) {
	env := corpusDir + "paper/example5.anynt"
	for _, c := range []struct {
		name  string
		args  []string
		flags []string
		code  int
	}{
		{"nothing to draw from", nil, nil, exitUsage},
		{"a missing file", []string{filepath.Join(t.TempDir(), "missing.anynt")}, nil, exitIO},
		{"a folder without environments", []string{t.TempDir()}, nil, exitUsage},
		{"files and the generator", []string{env}, []string{"--generate", "50"}, exitUsage},
		{"--pool without --generate", []string{env}, []string{"--pool", "5"}, exitUsage},
		{"--filters without --generate", []string{env}, []string{"--filters=false"}, exitUsage},
		{"no such weighting", []string{env}, []string{"--weighting", "zipf"}, exitUsage},
		{"a width for another weighting", []string{env}, []string{"--stratum-width", "2"}, exitUsage},
		{"a zero width", []string{env}, []string{"--weighting", "stratum", "--stratum-width", "0"}, exitUsage},
		{"no steps", []string{env}, []string{"--steps", "0"}, exitUsage},
		{"a sample larger than the pool", []string{env}, []string{"--sample", "2"}, exitUsage},
		{"a negative sample", []string{env}, []string{"--sample", "-1"}, exitUsage},
		{"a zero bound", nil, []string{"--generate", "0"}, exitUsage},
		{"a NaN bound", nil, []string{"--generate", "NaN"}, exitUsage},
		{"an empty generated pool", nil, []string{"--generate", "50", "--pool", "0"}, exitUsage},
	} {
		_, err := batteryItems(c.args, batteryFlagsOf(t, c.flags...), 1)
		if exitCode(err) != c.code {
			t.Errorf("%s: %v; want exit %d", c.name, err, c.code)
		}
	}
}

// --generate draws from the generator's first --pool environments; the
// same seed gives the same battery, another seed another.
func TestBatteryFromTheGenerator(t *testing.T) {
	fl := batteryFlagsOf(t, "--generate", "60", "--pool", "40", "--weighting", "stratum", "--sample", "8", "--steps", "10")
	a, err := batteryItems(nil, fl, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := batteryItems(nil, fl, 7)
	c, _ := batteryItems(nil, fl, 8)
	if len(a) != 8 || !slices.Equal(itemNames(a), itemNames(b)) || a[3].Seed != b[3].Seed {
		t.Errorf("seed 7 gave %q, then %q", itemNames(a), itemNames(b))
	}
	if slices.Equal(itemNames(a), itemNames(c)) {
		t.Errorf("seeds 7 and 8 gave the same battery %q", itemNames(a))
	}
	for _, it := range a {
		if !strings.HasPrefix(it.Name, "enumerate:") || it.Steps != 10 {
			t.Errorf("item %+v", it)
		}
	}
	all, err := batteryItems(nil, batteryFlagsOf(t, "--generate", "60", "--pool", "3", "--filters=false"), 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := itemNames(all); !slices.Equal(got, []string{"enumerate:0", "enumerate:1", "enumerate:2"}) {
		t.Errorf("unfiltered, the pool is %q; want the enumeration's first three", got)
	}
}

func writeFileAt(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The command gives a battery of a corpus folder, its rule files passed
// over, and the report calls its complexity bits.
func TestTestBattery(t *testing.T) {
	out, errw, code := anynt(t, "", "test", "--protocol", "battery", "--agent", "random,oracle", "--steps", "50", "--seed", "2", corpusDir+"paper")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errw)
	}
	for _, want := range []string{"test battery, seed 2", "; battery: files " + corpusDir + "paper; weighting list; sample all; steps 50",
		corpusDir + "paper/example5.anynt", corpusDir + "paper/fig3-torus.anynt", "paired differences against random"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "example2-environment") {
		t.Errorf("a rule file of the folder became an item:\n%s", out)
	}
	_, errw, code = anynt(t, "", "test", "--protocol", "battery", writeFile(t, "bad.anynt", "actions s l r\ngoodevil pattern (\n"))
	if code != exitFile || !strings.Contains(errw, "bad.anynt:2:") {
		t.Errorf("a broken file: status %d, %q; want %d and its position", code, errw, exitFile)
	}
}
