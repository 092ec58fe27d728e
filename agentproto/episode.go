package agentproto

import (
	"strconv"
	"time"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"
)

// Exercise is what an episode belongs to, as the agent is told: package
// exam's EpisodeInfo, since a Process is an exam.Outside.
type Exercise = exam.EpisodeInfo

// Times sums the response times of an episode's actions, measured on the
// monotonic clock from writing an observe to reading its act: exam's.
type Times = exam.Times

// A Process is what exam.Take needs of an agent outside anynt.
var _ exam.Outside = (*Process)(nil)

// Episode is an env.Agent that plays one episode through the process: it
// sends start, an observe for each action and end, reads each act, and
// times each answer. A fault does not panic: it is kept (Fault), the
// process is killed, and every later action is 0 and counts for nothing.
type Episode struct {
	p       *Process
	x       Exercise
	actions int
	perm    []int // observation code → the index the agent sees
	step    int
	rewards float64 // every reward the agent was given, for end's score
	took    time.Duration
	times   Times
	fault   *Fault
}

// Episode readies episode x.Episode of exercise x; the env.Player starts
// it (Start). It is an *Episode.
func (p *Process) Episode(x Exercise) exam.Timed { return &Episode{p: p, x: x} }

// Start sends start: the number of actions, the size of the alphabet (the
// environment's base symbols, permuted by the exercise's seed), the
// observations' length, the steps and a seed for the agent's own random
// choices, drawn from its stream.
func (e *Episode) Start(en *env.Env, rng *random.Rand) {
	e.actions = len(en.Actions)
	symbols := len(en.BaseSymbols())
	e.perm = env.ObservationAlphabet(en, e.x.Seed).Index // as serve-env shows it
	if e.p.failed == nil {                               // a line after the last episode's end is a fault there
		if e.fault = e.p.quiet(); e.fault != nil {
			return
		}
	}
	e.p.at = location{exercise: e.x.Name, episode: e.x.Episode}
	if e.p.opts.TestTimeout > 0 && e.p.end.IsZero() { // the test's time begins
		e.p.end = time.Now().Add(e.p.opts.TestTimeout)
	}
	e.fault = e.p.send(start{Type: "start", Exercise: e.x.Name, Episode: e.x.Episode, Actions: e.actions,
		Symbols: symbols, Length: observationLength(en), Steps: e.x.Steps, Seed: rng.Uint64()})
	e.p.last = started
}

// Act sends observe and returns the agent's action; after a fault, 0.
func (e *Episode) Act(v *env.View) int {
	if e.fault != nil {
		return 0
	}
	if e.fault = e.p.quiet(); e.fault != nil { // where the last step was
		return 0
	}
	e.step++
	e.p.at.step = e.step
	e.rewards += v.Reward
	b := append(e.p.buf[:0], `{"type":"observe","step":`...)
	b = strconv.AppendInt(b, int64(e.step), 10)
	b = append(b, `,"observation":[`...)
	for i, c := range v.Observation() {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(e.perm[c]), 10)
	}
	b = append(b, `],"reward":`...)
	b = strconv.AppendFloat(b, v.Reward, 'g', -1, 64)
	b = append(b, "}\n"...)
	e.p.buf = b
	sent := time.Now()
	if e.fault = e.p.put(b); e.fault != nil {
		return 0
	}
	line, f := e.p.read()
	e.took = time.Since(sent)
	if e.fault = f; f != nil {
		return 0
	}
	if e.p.inQueue.bytes() >= len(b) { // the observe is still in the pipe, all of it
		e.fault = e.p.unexpected(line, location{e.x.Name, e.x.Episode, e.step - 1})
		return 0
	}
	e.p.last = answered
	if a, ok := quickAct(line); ok && a < e.actions {
		e.times.Add(e.took)
		return a
	}
	r, pr := parseReply(line, "act")
	if pr == nil {
		var a int
		if a, pr = r.action(e.actions); pr == nil {
			e.times.Add(e.took)
			return a
		}
	}
	e.fault = e.p.fault(pr.kind, pr.detail, string(line))
	return 0
}

// End sends end: the last action's reward and the mean reward of the
// episode's actions.
func (e *Episode) End(reward float64) {
	if e.fault != nil {
		return
	}
	e.rewards += reward
	e.fault = e.p.send(end{Type: "end", Reward: reward, Score: endScore(e.rewards, e.step)})
	e.p.last = ended
}

// endScore is end's score: the mean reward of an episode's actions, 0
// when it had none.
func endScore(rewards float64, actions int) float64 {
	if actions == 0 {
		return 0
	}
	return rewards / float64(actions)
}

// Took is the time the agent took to answer the last observe, in seconds.
func (e *Episode) Took() float64 { return e.took.Seconds() }

// Times are the response times of the episode's answers.
func (e *Episode) Times() Times { return e.times }

// Fault is the agent's fault in this episode, nil while it behaves.
func (e *Episode) Fault() error {
	if e.fault == nil {
		return nil
	}
	return e.fault
}

// observationLength is the length of every observation of en ([P] §4.3):
// a ':' for each cell, π, ⊕ and ⊖, each other object, and one marker for
// each action, since every action leads to one cell. Only the order
// changes as the objects move.
func observationLength(en *env.Env) int {
	return en.Space.Cells() + 3 + len(en.Objects) + len(en.Actions)
}
