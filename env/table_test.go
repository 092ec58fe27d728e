package env

import (
	"testing"

	"github.com/anynt/anynt/random"
)

// The table answers as a map does, through its growths and through keys
// that share their home slot (multiples of a power of two above the
// shift's reach).
func TestTableAsMap(t *testing.T) {
	for _, tt := range []struct {
		name string
		key  func(i int, rng *random.Rand) uint64
	}{
		{"random", func(_ int, rng *random.Rand) uint64 { return rng.Uint64() }},
		{"dense", func(i int, _ *random.Rand) uint64 { return uint64(i) }},
		{"high bits", func(i int, _ *random.Rand) uint64 { return uint64(i) << 40 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := random.New(1, 2)
			tab, want := newTable(), map[uint64]memoRun{}
			for i := range 20_000 {
				k := tt.key(i, rng)
				if _, ok := want[k]; ok {
					continue
				}
				run := memoRun{result: int32(i), level: -1, next: uint32(i), steps: int32(i % 7)}
				tab.put(k, run)
				want[k] = run
			}
			for k, run := range want {
				if got := tab.get(k); got == nil || *got != run {
					t.Fatalf("get(%#x) = %v, want %v", k, got, run)
				}
			}
			for range 1000 {
				if k := rng.Uint64() | 1<<63; tab.get(k) != nil {
					if _, ok := want[k]; !ok {
						t.Fatalf("get(%#x) found a key never put", k)
					}
				}
			}
		})
	}
}
