package report_test

import (
	"io"
	"testing"

	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
)

// Building a report of 20 Λ_one tests × 7 items × 2 agents: the figures
// alone, then each form written.
func BenchmarkReport(b *testing.B) {
	in := input(b, 20, exam.DefaultSettings, "random", "qlearning")
	b.Run("figures", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := report.New(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	r := build(b, in)
	for _, form := range []struct {
		name  string
		write func(*report.Report, io.Writer) error
	}{{"text", (*report.Report).WriteText}, {"csv", (*report.Report).WriteCSV},
		{"json", (*report.Report).WriteJSON}, {"html", (*report.Report).WriteHTML}} {
		b.Run(form.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := form.write(r, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
