package lsp

import (
	"os"
	"testing"
)

// BenchmarkDiagnose is the server's work on each change of a document: the
// checks of anynt check (parse, load, lint's short random run) on the
// whole text, for the thesis's worked environment and the Λ_one fixture.
func BenchmarkDiagnose(b *testing.B) {
	for _, name := range []string{"thesis/omega1-blocker.anynt", "lambda-one/fixture-b.anynt", "paper/example6.anynt"} {
		src, err := os.ReadFile("../corpus/" + name)
		if err != nil {
			b.Fatal(err)
		}
		t := newText(string(src))
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if d := diagnose(name, t); len(d) != 0 {
					b.Fatalf("diagnostics %+v", d)
				}
			}
		})
	}
}
