package env_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// lint loads an environment and returns its warnings, one a line.
func lint(t *testing.T, name, src string) string {
	t.Helper()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	var lines []string
	for _, w := range env.Lint(f, e) {
		lines = append(lines, w.Error())
	}
	return strings.Join(lines, "\n")
}

const lintHead = "actions s l r\nspace thesis lr+:l-r+:l-r+:l-r\n"

// Each behaviour that can never do anything useful gets a warning at the
// symbol or block that shows it; a sound one gets none. A want is the
// start of the warnings, "…" standing for any text.
func TestLintWarns(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"sound", lintHead + "object ω1 {\n\t->. l\n}\ngoodevil {\n\t->. r\n}\n", ""},
		{"Good/Evil writes a marker", lintHead + "goodevil {\n\t->. R\n}\n",
			"t.anynt:4:6: Good/Evil writes R, the observation marker of action r, and never an action: did you mean r?"},
		{"an object writes no action", lintHead + "object ω1 {\n\tπ -> ⊙\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:3:1: object ω1 writes no action (s, l, r): its output never holds one, so it always stays"},
		{"Good/Evil writes no action", lintHead + "object ω1 {\n\t->. l\n}\ngoodevil {\n\tπ -> ⊙\n}\n",
			"t.anynt:6:1: Good/Evil writes no action (s, l, r): its output never holds one, so Good and Evil never move"},
		{"an object ends writing a symbol of its own", lintHead + "object ω1 {\n\t->. x\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:4:2: object ω1 ends a run writing x and no action: the environment keeps only the actions (s, l, r) of an output"},
		{"beside an action elsewhere", lintHead + "object ω1 {\n\tπ ->. q\n\t->. s\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:4:2: object ω1 ends a run writing q and no action"},
		{"a terminating rule that erases is sound", lintHead + "object ω1 {\n\tπ ->.\n\t->. s\n}\ngoodevil {\n\t->. r\n}\n", ""},
		{"stopped by its work bound", lintHead + "set max-work 100\nobject ω1 {\n\tχ1 χ2 χ3 χ4 χ5 -> χ1 χ2 χ3 χ4 χ5\n\t->. s\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:4:1: object ω1 never halts on the … stopped at its work bound (max-work 100)"},
		{"an action written through a used block", lintHead + "block go {\n\t->. l\n}\nobject ω1 {\n\tuse go\n}\ngoodevil {\n\t->. r\n}\n", ""},
		{"never halts", lintHead + "set max-steps 50\ngoodevil {\n\tr -> r\n\t-> r\n}\n",
			"t.anynt:4:1: Good/Evil never halts on the … observations sampled from a random run: every run stopped at its step bound (max-steps 50)"},
		{"outgrows its length", lintHead + "set max-len 40\nobject ω1 {\n\t-> l\n}\ngoodevil {\n\t->. r\n}\n",
			"t.anynt:4:1: object ω1 never halts on the … stopped at its length bound (max-len 40)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := lint(t, "t.anynt", tc.src)
			if tc.want == "" && got != "" || !matches(got, tc.want) {
				t.Errorf("got warnings\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// No environment of the corpus draws a warning.
func TestLintCorpusIsQuiet(t *testing.T) {
	files, _ := fs.Glob(corpus.Files, "*/*.anynt")
	if len(files) == 0 {
		t.Fatal("no corpus files")
	}
	for _, file := range files {
		src, err := fs.ReadFile(corpus.Files, file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := lang.Parse(file, src)
		if err != nil || !env.IsEnvironment(f) {
			continue
		}
		if got := lint(t, file, string(src)); got != "" {
			t.Errorf("%s:\n%s", file, got)
		}
	}
}

// matches reports whether got starts with want's pieces, in order, "…"
// standing for any text between them.
func matches(got, want string) bool {
	for i, piece := range strings.Split(want, "…") {
		at := strings.Index(got, piece)
		if at < 0 || i == 0 && at != 0 {
			return false
		}
		got = got[at+len(piece):]
	}
	return true
}

// A file's kind is decided by its content: any environment statement makes
// it an environment, and a file of rules and blocks is a rule file.
func TestIsEnvironmentByContent(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"a -> b\n", false},
		{"alphabet a b\nblock f {\n\ta -> b\n}\nuse f\n", false},
		{"actions s r\n", true},
		{"space thesis r+:r+\n", true},
		{"object ω1 {\n\t->. s\n}\n", true},
		{"goodevil {\n\t->. s\n}\n", true},
		{"goodevil pattern 0\n", true},
		{"space generator {\n\t->. r+:r+\n}\n", true},
		{"reward 1/2\n", true},
		{"place π 1\n", true},
		{"set cycle off\n", true},
	}
	for _, tc := range tests {
		f, err := lang.Parse("t.anynt", []byte(tc.src))
		if err != nil {
			t.Fatalf("%q: %v", tc.src, err)
		}
		if got := env.IsEnvironment(f); got != tc.want {
			t.Errorf("%q: IsEnvironment %v, want %v", tc.src, got, tc.want)
		}
	}
}
