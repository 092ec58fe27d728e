package exam

import (
	"errors"
	"time"

	"github.com/anynt/anynt/env"
)

// Outside is what Take needs of an agent outside anynt (Examinee.Process):
// one process that takes the items in the test's order and is timed for
// real, one episode at a time or a batch of items at once. Package
// agentproto's *Process is one, for any program that speaks
// docs/protocol.md; Take knows nothing of the protocol, so a test of
// another kind of outside agent needs only these methods.
type Outside interface {
	// Episode readies episode x.Episode of item x.Name, one at a time.
	Episode(x EpisodeInfo) Timed
	// Batched reports whether the agent is played in batches, through
	// SlotEpisode and Round, rather than through Episode.
	Batched() bool
	// Batch is the number of items the agent takes at once.
	Batch() int
	// SlotEpisode readies episode x.Episode of item x.Name in slot, from 0
	// to Batch()−1; a slot plays one episode at a time.
	SlotEpisode(slot int, x EpisodeInfo) Slot
	// Round sends the observations of the slots observed since the last
	// round and reads their actions.
	Round()
	// Restart starts the agent again after a fault (ContinueAfterFault).
	Restart() error
	// Close ends the agent. Take does not: whoever started it does, once
	// the test is over.
	Close()
}

// Timed is an episode of an agent outside anynt: an env.Agent whose every
// answer is timed, and which keeps its fault rather than panicking (after
// a fault every action is 0 and counts for nothing).
type Timed interface {
	env.Agent
	// Took is the time the agent took to answer the last observation, in
	// seconds (for a slot, its round's).
	Took() float64
	// Fault is the agent's fault in this episode, nil while it behaves.
	Fault() error
	// Times are the response times of the episode's answers.
	Times() Times
}

// Slot is an episode played in a slot of a batch: Observe adds the slot's
// observation to the next round, and Action is the slot's action after
// Outside.Round.
type Slot interface {
	Timed
	Observe(v *env.View)
	Action() int
}

// EpisodeInfo is an episode as an agent outside anynt is told of it: the
// exercise (the item) it belongs to, its number and its steps.
type EpisodeInfo struct {
	Name    string // lambda-one:1/3, or a file's name
	Episode int    // from 0
	Steps   int
	// Seed is the exercise's seed, which draws the permutation of its
	// alphabet: the same for every episode of the exercise.
	Seed uint64
}

// Times sums the response times of an agent's actions, measured on the
// monotonic clock from sending an observation to reading its action.
type Times struct {
	Actions    int
	Total, Max time.Duration
}

// Add counts one more response time.
func (t *Times) Add(d time.Duration) {
	t.Actions++
	t.Total += d
	t.Max = max(t.Max, d)
}

// Merge counts the times of u too.
func (t *Times) Merge(u Times) {
	t.Actions += u.Actions
	t.Total += u.Total
	t.Max = max(t.Max, u.Max)
}

// Mean is the mean response time, 0 for no action.
func (t Times) Mean() time.Duration {
	if t.Actions == 0 {
		return 0
	}
	return t.Total / time.Duration(t.Actions)
}

// The faults of an agent outside anynt after which Take gives it no
// further item, whatever ContinueAfterFault says; an Outside's faults
// wrap them (errors.Is).
var (
	// ErrTestTimeout: the test's time for the agent is over.
	ErrTestTimeout = errors.New("the test's time for the agent is over")
	// ErrInterrupted is not the agent's fault but anynt's end: it
	// received a signal and ended the agent where the test was. The
	// built-in agents then still take the items the agent took.
	ErrInterrupted = errors.New("anynt was interrupted")
)
