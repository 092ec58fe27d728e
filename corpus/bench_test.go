package corpus_test

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/anynt/anynt/compiler"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/internal/reference"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// workload is a corpus program and the input it is benchmarked on.
type workload struct {
	name, file string
	classic    bool
	input      []string
	leftmost   bool
}

var workloads = []workload{
	// 12 binary digits 1 become 4,095 strokes in 4,108 steps.
	{"binary-to-unary", "classic/binary-to-unary.markov", true, strings.Split(strings.Repeat("1", 12), ""), true},
	// ⊕'s view of the thesis's 6-cell line, ω1 out of reach: one
	// interaction a run, the pattern carried in memory from run to run.
	{"goodevil-6", "thesis/goodevil.anynt", false, strings.Fields("L : ⊙ S : π R : : ⊙ : ω1 :"), false},
	// The same on a 20-cell line.
	{"goodevil-20", "thesis/goodevil.anynt", false, strings.Fields(": : : : : : : : L : ⊙ S : π R : : : : : : : ⊙ : : : ω1 : :"), false},
}

func (w workload) compile(tb testing.TB) (*vm.Program, []lang.PlainRule) {
	src, err := fs.ReadFile(corpus.Files, w.file)
	if err != nil {
		tb.Fatal(err)
	}
	parse := lang.Parse
	if w.classic {
		parse = lang.ParseClassic
	}
	f, err := parse(w.file, src)
	if err != nil {
		tb.Fatal(err)
	}
	opts := compiler.Options{Extra: w.input}
	prog, err := compiler.Compile(f, opts)
	if err != nil {
		tb.Fatal(err)
	}
	plain, err := compiler.Expand(f, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return prog, plain
}

// BenchmarkMachines runs each workload on the VM and on the reference
// interpreter of its expansion, in the same run, and reports rewrite steps
// per second:
//
//	go test ./corpus -run '^$' -bench Machines -benchmem
func BenchmarkMachines(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name+"/vm", func(b *testing.B) { benchVM(b, w) })
		b.Run(w.name+"/reference", func(b *testing.B) { benchReference(b, w) })
	}
}

const limit = 1 << 20

// BenchmarkLongStrings runs the two sides of the VM's choice between its
// scanner and byte searches on strings longer than 64 symbols: Good/Evil
// over long observations (rightmost, rewrites near the end: the scanner
// serves) and binary-to-unary through 127 to 511 strokes (leftmost,
// rewrites near the start: byte searches serve):
//
//	go test ./corpus -run '^$' -bench LongStrings -benchmem
func BenchmarkLongStrings(b *testing.B) {
	for _, n := range []int{77, 120, 240, 400, 600} {
		in := strings.Repeat(": ", n-13) + "L : ⊙ S : π R : : ⊙ : ω1 :"
		w := workload{fmt.Sprint("goodevil-", n), "thesis/goodevil.anynt", false, strings.Fields(in), false}
		b.Run(w.name, func(b *testing.B) { benchVM(b, w) })
	}
	for _, n := range []int{7, 8, 9} {
		w := workload{fmt.Sprint("binary-to-unary-", n), "classic/binary-to-unary.markov", true, strings.Split(strings.Repeat("1", n), ""), true}
		b.Run(w.name, func(b *testing.B) { benchVM(b, w) })
	}
}

func benchVM(b *testing.B, w workload) {
	prog, _ := w.compile(b)
	input, err := prog.Encode(w.input)
	if err != nil {
		b.Fatal(err)
	}
	m := vm.New(prog)
	opts := vm.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit, MaxWork: vm.DefaultMaxWork}
	m.Run(input, opts) // grows the buffers
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		_, res := m.Run(input, opts)
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

func benchReference(b *testing.B, w workload) {
	_, plain := w.compile(b)
	in := reference.New(plain, reference.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit})
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		steps += in.Run(w.input).Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkSpeedup measures the VM against the reference interpreter of the
// expansion, on the same workloads, in the same run, and reports the ratio
// of their rates. The machines it runs on are shared and noisy, so each
// iteration is a round of about 50 ms on each side, alternating, and the
// metric is the median of the rounds' ratios (with the quartiles): noise
// that comes and goes falls on both sides of a round alike. The README's
// figure is 41 rounds:
//
//	go test ./corpus -run '^$' -bench Speedup -benchtime 41x -count 1
//
// The 6-cell Good/Evil run, whose steps cost the naive reference least, has
// the least margin (README "Performance"). A ratio is a measurement, not a
// property: no test asserts it, so that the tests pass on any machine and
// under the race detector.
func BenchmarkSpeedup(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			prog, plain := w.compile(b)
			input, _ := prog.Encode(w.input)
			machine := vm.New(prog)
			opts := vm.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit, MaxWork: vm.DefaultMaxWork}
			ref := reference.New(plain, reference.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit})
			var ratios []float64
			for b.Loop() {
				vmRate := stepsPerSecond(func() int { _, res := machine.Run(input, opts); return res.Steps })
				refRate := stepsPerSecond(func() int { return ref.Run(w.input).Steps })
				ratios = append(ratios, vmRate/refRate)
			}
			slices.Sort(ratios)
			n := len(ratios)
			b.ReportMetric(ratios[n/2], "vm/ref")
			b.ReportMetric(ratios[n/4], "vm/ref-q1")
			b.ReportMetric(ratios[3*n/4], "vm/ref-q3")
		})
	}
}

// The VM runs the workloads without allocating, once its buffers have grown
// and it has built its scanner, which a machine does when its searches have
// cost what building it would (vm/scan.go): within a hundred runs here, a
// few for Good/Evil's.
func TestVMAllocatesNothing(t *testing.T) {
	for _, w := range workloads {
		prog, _ := w.compile(t)
		input, _ := prog.Encode(w.input)
		machine := vm.New(prog)
		opts := vm.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit, MaxWork: vm.DefaultMaxWork}
		for range 100 {
			machine.Run(input, opts)
		}
		if allocs := testing.AllocsPerRun(20, func() { machine.Run(input, opts) }); allocs != 0 {
			t.Errorf("%s: the VM allocates %v times a run", w.name, allocs)
		}
	}
}

// stepsPerSecond runs f for about 50 ms and returns the steps it did a
// second.
func stepsPerSecond(f func() int) float64 {
	start, steps := time.Now(), 0
	for time.Since(start) < 50*time.Millisecond {
		steps += f()
	}
	return float64(steps) / time.Since(start).Seconds()
}

// Both machines give the same outputs on the workloads, run after run.
func TestWorkloadsAgree(t *testing.T) {
	for _, w := range workloads {
		prog, plain := w.compile(t)
		m := vm.New(prog)
		in := reference.New(plain, reference.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit})
		input, _ := prog.Encode(w.input)
		for run := range 8 {
			out, res := m.Run(input, vm.Options{Leftmost: w.leftmost, MaxSteps: limit, MaxLen: limit, MaxWork: vm.DefaultMaxWork})
			ref := in.Run(w.input)
			if got, want := prog.Text(out), strings.Join(ref.Output, ""); got != want || res.Steps != ref.Steps {
				t.Fatalf("%s run %d: vm %s in %d steps, reference %s in %d", w.name, run, got, res.Steps, want, ref.Steps)
			}
		}
	}
}
