package aixi_test

import (
	"fmt"
	"os"

	"github.com/anynt/anynt/agent/aixi"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// MC-AIXI-CTW with a small budget plays 60 interactions of a two-cell
// world; it learns to reach Good's cell and stay there.
func ExampleNew() {
	src, _ := os.ReadFile("testdata/two-cells.anynt")
	f, _ := lang.Parse("two-cells.anynt", src)
	e, _ := env.Load(f)
	s := aixi.DefaultSettings
	s.Depth, s.Simulations, s.Horizon = 16, 16, 2
	if err := s.Check(); err != nil {
		fmt.Println(err)
		return
	}
	score := env.NewEpisode(e, aixi.New(s), 1).Run(60, nil)
	fmt.Printf("score %.2f\n", score)
	// Output: score 0.73
}
