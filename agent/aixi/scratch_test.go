package aixi

import (
	"fmt"
	"os"
	"testing"
	"time"

	
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

func load0(t testing.TB, path string) *env.Env {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := lang.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestScratch(t *testing.T) {
	st := DefaultSettings
	fmt.Sscan(os.Getenv("D"), &st.Depth)
	fmt.Sscan(os.Getenv("S"), &st.Simulations)
	fmt.Sscan(os.Getenv("H"), &st.Horizon)
	n := 100
	fmt.Sscan(os.Getenv("N"), &n)
	for _, p := range []string{os.Getenv("P")} {
		e := load(t, p)
		for seed := uint64(1); seed <= 5; seed++ {
			t0 := time.Now()
			s := env.NewEpisode(e, New(st), seed).Run(n, nil)
			d := time.Since(t0)
			r := &random{}
			rs := env.NewEpisode(e, r, seed).Run(n, nil)
			fmt.Println(p, seed, s, rs, d)
		}
	}
}
