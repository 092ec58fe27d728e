package exam

import (
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
)

// hasty acts at random as fast as the clock allows, far faster than the pace:
// it uses up MaxAdaptiveInteractions before its environment's time.
type hasty struct{ agent.Random }

func (*hasty) Delay(float64, float64) float64 { return MinDelay }

// An environment whose interactions run out before its time is scored at
// its time, the time its step is labelled with, as Take reads an item at
// τ: under v̌‖τ the idle time after the last interaction counts.
func TestAdaptiveReadsAnEnvironmentAtItsTime(t *testing.T) {
	s := DefaultAdaptive
	s.Tau, s.First, s.Growth, s.Longest = 20, 20, 0, 20
	s.Pace = Pace{Model: "constant", A: 2e-5}
	const seed = 7
	x := Examinee{Name: "hasty", New: func() env.Agent { return &hasty{} }}
	rs, err := TakeAdaptive([]Examinee{x}, s, seed)
	if err != nil {
		t.Fatal(err)
	}
	st := rs[0].Steps[0]
	if st.Interactions != MaxAdaptiveInteractions || st.Time != 20 {
		t.Fatalf("%d interactions in %v s; want all %d in 20 s", st.Interactions, st.Time, MaxAdaptiveInteractions)
	}
	rung, err := s.ladder().Rung(seed, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	run, end, _ := play(env.NewPlayer(rung.Env), x.New(), AdaptiveEpisodeSeed(seed, 1, 1), MaxAdaptiveInteractions, st.Time, s.Pace, s.Score, s.Lambda, nil)
	atTime, atEnd := s.Score.Of(values(run, st.Time, s.Lambda)), s.Score.Of(values(run, end, s.Lambda))
	if atTime == atEnd {
		t.Fatalf("v̌‖τ is %v both at the time and at the end %v s: the test tells nothing", atTime, end)
	}
	if st.Score != atTime {
		t.Errorf("the environment scored %v; want %v, v̌‖τ at its %v s (at its end, %v s: %v)", st.Score, atTime, st.Time, end, atEnd)
	}
}
