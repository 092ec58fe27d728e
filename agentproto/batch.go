package agentproto

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"
)

// batch is a Process's round in batches (Options.Batch): the start and
// end lines waiting to go out with the next observe, the observe's
// columns as the slots add their observations, and those slots. Its
// buffers are kept from round to round, so that a round allocates
// nothing.
type batch struct {
	size    int    // the items the agent accepted at once
	pending []byte // start and end lines, written with the next observe

	// The observe's columns, and the slots it holds in their order.
	slots, steps, observations, rewards []byte
	waiting                             []*SlotEpisode
	actions                             []int
}

// reset readies the batch of a new handshake: a new process has nothing
// pending.
func (b *batch) reset(size int) {
	b.size = size
	b.pending = b.pending[:0]
	b.clearRound()
}

func (b *batch) clearRound() {
	b.slots, b.steps, b.observations, b.rewards = b.slots[:0], b.steps[:0], b.observations[:0], b.rewards[:0]
	clear(b.waiting)
	b.waiting = b.waiting[:0]
}

// Batched reports whether the process speaks batches (Options.Batch
// above 1): it is then played through SlotEpisode and Round.
func (p *Process) Batched() bool { return p.opts.Batch > 1 }

// Batch is the number of items the agent takes at once: the batch it
// accepted at its last handshake when batches were offered, else 1.
func (p *Process) Batch() int {
	if !p.Batched() {
		return 1
	}
	return p.batch.size
}

// SlotEpisode is an env.Agent that plays one episode in a slot of a batch
// (docs/protocol.md, Batches): Start and End queue the slot's start and
// end lines, which go out with the next observe; Observe adds the slot's
// observation to the round's observe, which Process.Round sends, and
// Action is then the slot's action. Each answer is timed as the round's:
// every slot of a round is charged its whole round trip. A fault of the
// round is every slot's: each keeps it (Fault), with its own place.
type SlotEpisode struct {
	p       *Process
	slot    int
	x       Exercise
	actions int
	perm    []int
	step    int
	rewards float64
	action  int
	took    time.Duration
	times   Times
	fault   *Fault
}

// SlotEpisode readies episode x.Episode of exercise x in slot, from 0 to
// Batch()−1; the env.Player starts it (Start). A slot plays one episode
// at a time. It is a *SlotEpisode.
func (p *Process) SlotEpisode(slot int, x Exercise) exam.Slot {
	return &SlotEpisode{p: p, slot: slot, x: x}
}

// Start queues the slot's start, as Episode.Start sends it, with the slot.
func (e *SlotEpisode) Start(en *env.Env, rng *random.Rand) {
	e.actions = len(en.Actions)
	e.perm = env.ObservationAlphabet(en, e.x.Seed).Index
	if e.p.failed != nil {
		e.fault = e.own(e.p.failed, true, 1)
		return
	}
	if e.p.opts.TestTimeout > 0 && e.p.end.IsZero() { // the test's time begins
		e.p.end = time.Now().Add(e.p.opts.TestTimeout)
	}
	slot := e.slot
	e.p.batch.pending = e.p.queue(e.p.batch.pending, start{Type: "start", Slot: &slot, Exercise: e.x.Name, Episode: e.x.Episode,
		Actions: e.actions, Symbols: len(en.BaseSymbols()), Length: observationLength(en), Steps: e.x.Steps, Seed: rng.Uint64()})
}

// queue appends a message's line to b.
func (p *Process) queue(b []byte, msg any) []byte {
	line, _ := json.Marshal(msg) // our own messages always marshal
	return append(append(b, line...), '\n')
}

// Observe adds the slot's observation and the reward of its last action
// to the round's observe; after a fault, nothing.
func (e *SlotEpisode) Observe(v *env.View) {
	if e.fault != nil {
		return
	}
	e.step++
	e.rewards += v.Reward
	b := &e.p.batch
	if len(b.waiting) > 0 {
		b.slots, b.steps, b.observations, b.rewards = append(b.slots, ','), append(b.steps, ','), append(b.observations, ','), append(b.rewards, ',')
	}
	b.waiting = append(b.waiting, e)
	b.slots = strconv.AppendInt(b.slots, int64(e.slot), 10)
	b.steps = strconv.AppendInt(b.steps, int64(e.step), 10)
	b.observations = append(b.observations, '[')
	for i, c := range v.Observation() {
		if i > 0 {
			b.observations = append(b.observations, ',')
		}
		b.observations = strconv.AppendInt(b.observations, int64(e.perm[c]), 10)
	}
	b.observations = append(b.observations, ']')
	b.rewards = strconv.AppendFloat(b.rewards, v.Reward, 'g', -1, 64)
}

// Round sends the observe of the slots observed since the last round, in
// one write with the start and end lines queued before it, reads the
// act, and gives each slot its action, in the observe's order. A fault
// (no answer in time, a crash, a malformed line, a wrong number of
// actions, an action out of range, a line when none was expected) is
// every observed slot's: the process is killed, and each slot keeps the
// fault at its own exercise, episode and step, the agent's standard
// error quoted at the first alone.
func (p *Process) Round() {
	b := &p.batch
	defer b.clearRound()
	if len(b.waiting) == 0 {
		return
	}
	first := b.waiting[0]
	p.at = location{first.x.Name, first.x.Episode, first.step}
	out := append(b.pending, `{"type":"observe","slots":[`...)
	observe := len(out)
	out = append(append(out, b.slots...), `],"steps":[`...)
	out = append(append(out, b.steps...), `],"observations":[`...)
	out = append(append(out, b.observations...), `],"rewards":[`...)
	out = append(append(out, b.rewards...), "]}\n"...)
	observe = len(out) - observe + len(`{"type":"observe","slots":[`)
	b.pending = out[:0]
	f := p.failed
	if f == nil {
		f = p.quiet()
	}
	var line []byte
	var took time.Duration
	if f == nil {
		sent := time.Now()
		if f = p.put(out); f == nil {
			line, f = p.read()
			took = time.Since(sent)
		}
	}
	if f == nil && p.inQueue.bytes() >= observe { // the observe is still in the pipe, all of it
		f = p.unexpected(line, p.at)
	}
	if f == nil {
		p.last = answered
		var ok bool
		if b.actions, ok = quickActs(line, b.actions); !ok || !b.inRange() {
			if pr := b.parseActs(line); pr != nil {
				f = p.fault(pr.kind, pr.detail, string(line))
			}
		}
	}
	for i, e := range b.waiting {
		if f != nil {
			e.fault, e.action = e.own(f, i == 0, len(b.waiting)), 0
			continue
		}
		e.action, e.took = b.actions[i], took
		e.times.Add(took)
	}
}

// inRange reports whether the actions read are one for each slot
// observed, each in its slot's range.
func (b *batch) inRange() bool {
	if len(b.actions) != len(b.waiting) {
		return false
	}
	for i, e := range b.waiting {
		if b.actions[i] >= e.actions {
			return false
		}
	}
	return true
}

// parseActs reads a batch's act by the JSON decoder, into b.actions, and
// says what is wrong with it.
func (b *batch) parseActs(line []byte) *problem {
	r, pr := parseReply(line, "act")
	if pr != nil {
		return pr
	}
	text := string(r.Actions)
	if text == "" || text == "null" {
		if len(r.Action) > 0 {
			return &problem{ErrMalformed, `an act with an "action" in a batch: a batch's act gives "actions", one for each slot of the observe`}
		}
		return &problem{ErrMalformed, `an act without "actions"`}
	}
	var raws []json.RawMessage
	if err := json.Unmarshal(r.Actions, &raws); err != nil {
		return &problem{ErrMalformed, `"actions" is not a list: ` + err.Error()}
	}
	if len(raws) != len(b.waiting) {
		return &problem{ErrMalformed, fmt.Sprintf(`"actions" has %d elements, the observe %d slots: "actions" gives one for each slot, in the observe's order`, len(raws), len(b.waiting))}
	}
	b.actions = b.actions[:0]
	for i, raw := range raws {
		a, pr := reply{Action: raw}.action(b.waiting[i].actions)
		if pr != nil {
			pr.detail = fmt.Sprintf("slot %d: %s", b.waiting[i].slot, pr.detail)
			return pr
		}
		b.actions = append(b.actions, a)
	}
	return nil
}

// own is the fault f of a round of n slots as this slot's: at its own
// exercise, episode and step. The agent's standard error is quoted once,
// at the first slot of the round.
func (e *SlotEpisode) own(f *Fault, first bool, n int) *Fault {
	c := *f
	c.Exercise, c.Episode, c.Step, c.Slot, c.Batch = e.x.Name, e.x.Episode, e.step, e.slot, n
	if !first {
		c.Stderr = nil
	}
	return &c
}

// Action is the slot's action after Round; 0 after a fault.
func (e *SlotEpisode) Action() int { return e.action }

// Act observes and plays the round at once, for a driver that steps its
// slots one by one (env.Player's Interact): a batch of the slots observed
// so far and this one.
func (e *SlotEpisode) Act(v *env.View) int {
	e.Observe(v)
	e.p.Round()
	return e.action
}

// End queues the slot's end, as Episode.End sends it, with the slot.
func (e *SlotEpisode) End(reward float64) {
	if e.fault != nil {
		return
	}
	e.rewards += reward
	slot := e.slot
	e.p.batch.pending = e.p.queue(e.p.batch.pending, end{Type: "end", Slot: &slot, Reward: reward, Score: endScore(e.rewards, e.step)})
}

// Took is the time of the slot's last round, in seconds.
func (e *SlotEpisode) Took() float64 { return e.took.Seconds() }

// Times are the response times of the slot's answers in this episode.
func (e *SlotEpisode) Times() Times { return e.times }

// Fault is the slot's fault in this episode, nil while the agent behaves.
func (e *SlotEpisode) Fault() error {
	if e.fault == nil {
		return nil
	}
	return e.fault
}
