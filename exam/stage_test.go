package exam
import ("testing";"runtime";"time";"sort";"fmt";"github.com/anynt/anynt/internal/cores";"github.com/anynt/anynt/agent";"github.com/anynt/anynt/internal/heapgoal")
func TestStageTimes(t *testing.T) {
	heapgoal.Start()
	xs, err := Examinees([]string{"random","qlearning"}, agent.DefaultSettings)
	if err != nil { t.Fatal(err) }
	for _, tests := range []int{20} {
	for _, p := range []int{1,2,1,2,1,2} {
		runtime.GOMAXPROCS(p)
		var d1, d2, d3 []float64
		for r := 0; r < 200; r++ {
			t0 := time.Now()
			drawn := make([][]Exercise, tests)
			cores.Do(tests, func(k int) { drawn[k] = LambdaOne(1 + uint64(k)) }, nil)
			t1 := time.Now()
			items, err := LambdaOneItems(1, tests, "v")
			if err != nil { t.Fatal(err) }
			t2 := time.Now()
			_, err = Take(items, xs, DefaultSettings, nil)
			if err != nil { t.Fatal(err) }
			t3 := time.Now()
			d1 = append(d1, float64(t1.Sub(t0).Microseconds())); d2 = append(d2, float64(t2.Sub(t1).Microseconds())); d3 = append(d3, float64(t3.Sub(t2).Microseconds()))
		}
		med := func(x []float64) float64 { sort.Float64s(x); return x[len(x)/2] }
		fmt.Printf("tests %d procs %d: draw %.0f µs, items(incl draw) %.0f µs, take %.0f µs\n", tests, p, med(d1), med(d2), med(d3))
	}
	}
}
