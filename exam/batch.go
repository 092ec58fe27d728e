package exam

import (
	"errors"

	"github.com/anynt/anynt/aggregate"
	"github.com/anynt/anynt/env"
)

// takeInBatches is takeInOrder for an agent outside anynt that takes
// several items at once (docs/protocol.md, Batches): each slot of the batch
// plays an item's episodes one after another, and when the item is over
// the slot takes the next item of the test, so that the items begun are
// always a prefix of the test. The slots are stepped in lockstep, on
// this goroutine: each round begins an interaction in every slot, sends
// their observations in one message, and finishes each slot's
// interaction with its action. Every slot of a round waits for the
// agent, so a round is the whole batch in flight; the last rounds are
// smaller, as the items run out. Each item is played and scored as
// takeItem plays it (itemPlay, answerTime): the same seeds, the same
// clock, the round's time as each slot's response time, so that a
// deterministic agent scores the same in batches as one item at a time.
//
// A fault is the round's, so every item in flight takes it and is over;
// the items over before it keep their outcomes. Then, as takeInOrder,
// the test stops, or goes on with a new process under
// ContinueAfterFault. It returns how many items were begun, and the
// faults in the items' order.
func takeInBatches(items []Item, x Examinee, s Settings, out []Outcome, done func()) (int, []error) {
	p := x.Process
	var slots []*slotPlay // kept with their buffers; empty between items
	var order []*slotPlay // the slots playing, in their items' order
	var faults []error
	var faulted []Outcome
	next := 0
	for {
		for len(slots) < p.Batch() {
			slots = append(slots, &slotPlay{p: p, slot: len(slots), w: newScratch()})
		}
		for _, sl := range slots[:p.Batch()] {
			if sl.item == nil && next < len(items) {
				ip := newItemPlay(items, next, x, s, sl.w)
				sl.item, sl.player = &ip, env.NewPlayer(ip.it.Env)
				sl.begin(0)
				order = append(order, sl)
				next++
			}
		}
		if len(order) == 0 {
			return len(items), faults
		}
		// The observe lists the slots in their items' order, so that the
		// first slot of a round, which quotes the agent's standard error
		// at a fault, is its first item.
		for _, sl := range order {
			v, _ := sl.ep.Begin() // every slot's interaction is finished before
			sl.agent.Observe(v)
		}
		p.Round()
		faulted = faulted[:0]
		playing := order[:0]
		for _, sl := range order {
			if !sl.step() {
				playing = append(playing, sl)
				continue
			}
			o := sl.item.finish()
			out[o.Item] = o
			done()
			if o.Fault != nil {
				faulted = append(faulted, o)
			}
			sl.item = nil
		}
		clear(order[len(playing):])
		order = playing
		if len(faulted) == 0 {
			continue
		}
		for _, o := range faulted {
			faults = append(faults, o.Fault)
		}
		f := faulted[0].Fault
		if !s.ContinueAfterFault || errors.Is(f, ErrTestTimeout) || errors.Is(f, ErrInterrupted) {
			return next, faults
		}
		if next < len(items) {
			if err := p.Restart(); err != nil {
				return next, append(faults, err)
			}
		}
	}
}

// slotPlay is a slot of a batch: the item it plays, its episode under
// way, and that episode's clock and run, as play keeps them.
type slotPlay struct {
	p      Outside
	slot   int
	w      *scratch
	item   *itemPlay
	player *env.Player // the item's
	e      int         // the episode, from 0
	ep     *env.Episode
	agent  Slot
	i      int   // the interactions played
	t      int64 // the clock, in ticks
	limit  int64
	end    float64
}

// begin starts episode e of the slot's item: its start is queued.
func (sl *slotPlay) begin(e int) {
	it := sl.item
	sl.e, sl.i, sl.t, sl.limit = e, 0, 0, ticks(it.tau)
	sl.end = seconds(sl.limit)
	sl.w.run = sl.w.run[:0]
	sl.agent = sl.p.SlotEpisode(sl.slot, it.exercise(e))
	sl.ep = sl.player.Episode(sl.agent, it.seed(e))
}

// step finishes the slot's interaction with the round's action and
// moves its clock, as play does for an agent outside anynt; at the end
// of an episode it records it and begins the next. It reports whether
// the item is over.
func (sl *slotPlay) step() bool {
	reward, _ := sl.ep.Finish(sl.agent.Action()) // the action is in range, or 0 after a fault
	how := allSteps
	switch dt, ok := answerTime(sl.agent.Took(), sl.t, sl.limit); {
	case sl.agent.Fault() != nil:
		how = faulted
	case !ok:
		how = cutByTau
	default:
		sl.t += dt
		sl.w.run = append(sl.w.run, aggregate.Interaction{T: seconds(sl.t), Reward: reward})
		if sl.i++; sl.i < sl.item.it.Steps {
			return false
		}
		sl.end = seconds(sl.t)
	}
	sl.ep.End()
	if sl.item.record(sl.e, sl.w.run, sl.end, how, sl.agent.Times(), sl.agent.Fault()) {
		return true
	}
	sl.begin(sl.e + 1)
	return false
}
