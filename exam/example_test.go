package exam_test

import (
	"fmt"
	"time"

	"github.com/anynt/anynt/exam"
)

// The seven exercises of the Λ_one test of seed 1: every examinee given
// this seed takes these environments.
func ExampleLambdaOne() {
	for _, x := range exam.LambdaOne(1) {
		fmt.Printf("exercise %d: %d cells, %d actions, %d interactions, pattern of %d actions\n",
			x.Number, x.Cells, x.Actions, x.Steps, len(x.Pattern))
	}
	// Output:
	// exercise 1: 3 cells, 2 actions, 20 interactions, pattern of 2 actions
	// exercise 2: 4 cells, 4 actions, 30 interactions, pattern of 2 actions
	// exercise 3: 5 cells, 5 actions, 40 interactions, pattern of 5 actions
	// exercise 4: 6 cells, 6 actions, 50 interactions, pattern of 8 actions
	// exercise 5: 7 cells, 3 actions, 60 interactions, pattern of 8 actions
	// exercise 6: 8 cells, 8 actions, 70 interactions, pattern of 13 actions
	// exercise 7: 9 cells, 7 actions, 80 interactions, pattern of 10 actions
}

// Times sums an agent's response times, episode after episode, as Take
// sums them over an item's episodes.
func ExampleTimes() {
	var item, episode exam.Times
	episode.Add(2 * time.Millisecond)
	episode.Add(4 * time.Millisecond)
	item.Merge(episode)
	item.Merge(exam.Times{Actions: 1, Total: 9 * time.Millisecond, Max: 9 * time.Millisecond})
	fmt.Println(item.Actions, item.Mean(), item.Max)
	// Output: 3 5ms 9ms
}
