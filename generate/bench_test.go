package generate_test

import (
	"fmt"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/generate"
	"github.com/anynt/anynt/lang"
)

// BenchmarkExamine measures candidates examined a second on one core:
// enumerated, written, parsed, compiled and checked for validity (the
// space included), without the filters that play episodes:
//
//	go test ./generate -run '^$' -bench 'Examine|Accept' -benchmem -cpu 1
func BenchmarkExamine(b *testing.B) {
	var sources []string
	generate.Enumerate(70, func(c generate.Candidate) bool {
		sources = append(sources, c.Source())
		return len(sources) < 100_000
	})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		f, err := lang.Parse("c.anynt", []byte(sources[i%len(sources)]))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := env.Load(f); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
}

// BenchmarkAccept measures candidates through every filter with the
// defaults: the sequential test, at most 200 episodes of 100 interactions
// of random and of the reference agents (the enumerated candidates stop at
// the first look, 16).
func BenchmarkAccept(b *testing.B) {
	var sources []string
	generate.Enumerate(70, func(c generate.Candidate) bool {
		sources = append(sources, c.Source())
		return len(sources) < 10_000
	})
	accepted := 0
	i := 0
	for b.Loop() {
		v, err := generate.Check("c.anynt", sources[i%len(sources)], generate.DefaultFilters)
		if err != nil {
			b.Fatal(err)
		}
		if v.Accepted {
			accepted++
		}
		i++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "candidates/s")
	b.ReportMetric(float64(accepted)/b.Elapsed().Seconds(), "accepted/s")
}

// BenchmarkEnumerateBound shows how the cost grows with the length bound:
// the whole stream up to each bound.
func BenchmarkEnumerateBound(b *testing.B) {
	for _, bound := range []float64{50, 55, 60, 65} {
		b.Run(fmt.Sprintf("max-bits=%g", bound), func(b *testing.B) {
			n := 0
			for b.Loop() {
				n = 0
				generate.Enumerate(bound, func(generate.Candidate) bool { n++; return true })
			}
			b.ReportMetric(float64(n), "environments")
		})
	}
}

// BenchmarkStream measures the enumeration with the filters, as anynt
// enumerate runs it (printing aside): candidates up to 70 bits through
// every filter with the defaults, an operation an accepted environment
// (the goal: 10,000 candidates a second on one core):
//
//	go test ./generate -run '^$' -bench '^BenchmarkStream$' -benchmem -cpu 1
func BenchmarkStream(b *testing.B) {
	b.ReportAllocs()
	s := generate.StreamSettings{MaxBits: 70, Limit: b.N, Shard: 1, Shards: 1, Filters: generate.DefaultFilters}
	b.ResetTimer()
	tally, err := generate.Stream(s, func(generate.Emitted) {}, nil, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(tally.Examined)/b.Elapsed().Seconds(), "candidates/s")
}

// BenchmarkShards runs the enumeration up to 65 bits with the default
// filters whole, then as 1,000 shards one after another: the shards seek
// to their parts (they do not walk the stream before them), so together
// they should cost what the whole run costs. Compare the two by their CPU
// time, each alone:
//
//	go test -c ./generate
//	/usr/bin/time ./generate.test -test.run '^$' -test.bench 'BenchmarkShards/whole' -test.benchtime 1x
//	/usr/bin/time ./generate.test -test.run '^$' -test.bench 'BenchmarkShards/1000' -test.benchtime 1x
func BenchmarkShards(b *testing.B) {
	const bits = 65
	run := func(b *testing.B, n int) {
		for b.Loop() {
			examined := 0
			for k := 1; k <= n; k++ {
				s := generate.StreamSettings{MaxBits: bits, Shard: k, Shards: n, Filters: generate.DefaultFilters}
				tally, err := generate.Stream(s, func(generate.Emitted) {}, nil, nil)
				if err != nil {
					b.Fatal(err)
				}
				examined += tally.Examined
			}
			b.ReportMetric(float64(examined), "candidates")
		}
	}
	b.Run("whole", func(b *testing.B) { run(b, 1) })
	b.Run("1000", func(b *testing.B) { run(b, 1000) })
}
