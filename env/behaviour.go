package env

import (
	"time"

	"github.com/anynt/anynt/vm"
)

// objectAction runs object i's behaviour on its observation: its action is
// the rightmost action symbol of the output (none: stay).
func (ep *Episode) objectAction(i int) int {
	return ep.decide(&ep.objects[i], ep.pos[3+i]).result
}

// goodEvilDest works out where Good and Evil intend to go: each follows
// the whole action sequence its run writes (none: stay), or the pattern's
// next action.
func (ep *Episode) goodEvilDest() (good, evil int) {
	dest := ep.env.Space.Dest
	if p := ep.env.GoodEvil.Pattern; p != nil {
		a := p[ep.patternAt%len(p)]
		return dest[ep.pos[Good]][a], dest[ep.pos[Evil]][a]
	}
	follow := func(who int, r *behaviourRunner) int {
		d := ep.decide(r, ep.pos[1+who])
		if d.level >= 0 {
			ep.level[who] = d.level
		}
		return d.result
	}
	return follow(0, &ep.good), follow(1, &ep.evil)
}

// decision is what one run of a behaviour decides: an object's action, or
// the cell Good or Evil intends to reach and the reward level it chose last
// (-1: none).
type decision struct{ result, level int }

// decide reads the output of a run from cell from: an object's rightmost
// action, or the cell Good's or Evil's actions lead to and its last level.
func (ep *Episode) decision(r *behaviourRunner, from int, out []byte) decision {
	t := &ep.env.symbols
	if !r.goodEvil {
		for j := len(out) - 1; j >= 0; j-- {
			if a := t.actionOf(out[j]); a >= 0 {
				return decision{a, -1}
			}
		}
		return decision{0, -1}
	}
	dest := ep.env.Space.Dest
	d := decision{from, -1}
	for _, sym := range out {
		if a := t.actionOf(sym); a >= 0 {
			d.result = dest[d.result][a]
		} else if l := t.levelOf(sym); l >= 0 {
			d.level = l
		}
	}
	return d
}

// decide runs behaviour r for an object in cell from and returns what it
// decides, or answers from the memo. A run depends only on the program,
// the memory and the observation, and the observation of an object other
// than π only on where π, the objects and (as one ⊙ each) Good and Evil
// are and on the cell it looks from: the memo is keyed by that state and
// the memory's id, so a run met again costs neither the observation nor
// the VM. The machine's memory register is brought up to date only when a
// run misses.
func (ep *Episode) decide(r *behaviourRunner, from int) decision {
	m := r.memo
	if m == nil || r.mem == noMemory {
		d := ep.runVM(r, from)
		if m != nil {
			r.mem = m.intern(r.machine.Memory())
		}
		return d
	}
	packed := m.key(ep.pos, r.mem, from)
	var hit *memoRun
	if m.packs {
		hit = m.small.get(packed)
	} else {
		hit = m.large[string(m.keyBuf)]
	}
	if hit != nil {
		r.mem, r.loaded = hit.next, false
		ep.steps += int(hit.steps)
		ep.Bounds[r.count].add(hit.halt)
		return decision{int(hit.result), int(hit.level)}
	}
	if !r.loaded {
		r.machine.SetMemory(m.memories[r.mem])
	}
	steps := ep.steps
	d := ep.runVM(r, from)
	r.mem, r.loaded = m.intern(r.machine.Memory()), true
	if r.mem == noMemory {
		return d
	}
	size := 8 + len(m.keyBuf) + memoRunSize
	if m.runs >= memoRuns || m.bytes+size > memoBytes {
		m.forgetRuns()
	}
	m.runs++
	m.bytes += size
	m.runBytes += size
	run := memoRun{result: int32(d.result), level: int32(d.level), next: r.mem, steps: int32(ep.steps - steps), halt: ep.lastHalt}
	if m.packs {
		m.small.put(packed, run)
	} else {
		m.large[string(m.keyBuf)] = &run
	}
	return d
}

// runVM builds the observation from cell from and runs behaviour r on it
// under its bounds; at a bound, the output is the string so far ([P]
// §6.2: "executed for a fixed period of time").
func (ep *Episode) runVM(r *behaviourRunner, from int) decision {
	pieces := ep.observation(from, false)
	var start time.Time
	if ep.clocked {
		start = time.Now()
	}
	out, res := r.machine.RunPieces(pieces, r.opts)
	if ep.clocked {
		ep.vmTime += time.Since(start)
	}
	ep.steps += res.Steps
	ep.lastHalt = res.Halt
	ep.Bounds[r.count].add(res.Halt)
	return ep.decision(r, from, out)
}

// behaviours are the machines that run an environment's programs, one for
// each object and one each for Good and Evil, with their memos. Evaluate
// hands them from one episode to the next: a memo stays exact from episode
// to episode, since a run depends only on the program, the memory and the
// observation, so later episodes find most runs done, and building the
// machines, which analyses every rule, is paid once.
type behaviours struct {
	objects    []behaviourRunner
	good, evil behaviourRunner
	// clocked says to add the time spent inside the VM to vmTime, for the
	// benchmarks that tell the behaviours' runs from the machine's work.
	clocked bool
	vmTime  time.Duration
}

func newBehaviours(e *Env) *behaviours {
	b := &behaviours{}
	for i, o := range e.Objects {
		b.objects = append(b.objects, newRunner(o.Program, e.Settings, newMemo(e), i, false))
	}
	if p := e.GoodEvil.Program; p != nil {
		shared, count := newMemo(e), len(e.Objects)
		b.good, b.evil = newRunner(p, e.Settings, shared, count, true), newRunner(p, e.Settings, shared, count, true)
	}
	return b
}

// reset empties every memory register, for a new episode.
func (b *behaviours) reset() {
	for i := range b.objects {
		b.objects[i].reset()
	}
	for _, r := range []*behaviourRunner{&b.good, &b.evil} {
		if r.machine != nil {
			r.reset()
		}
	}
}

// behaviourRunner is one object's machine, with its own memory, and the
// memo of the program it runs.
type behaviourRunner struct {
	machine  *vm.Machine
	opts     vm.Options
	memo     *memo // nil: every run runs (the plain path, for tests)
	count    int   // the index of its BoundCount in Episode.Bounds
	goodEvil bool  // it is Good's or Evil's: its run decides a cell
	// mem is the id of the memory register's contents in the memo, or
	// noMemory when the memo has no room for it; the machine's register
	// holds it only when loaded is set (a memo hit moves mem alone).
	mem    uint32
	loaded bool
}

func newRunner(p *vm.Program, s Settings, m *memo, count int, goodEvil bool) behaviourRunner {
	opts := vm.Options{MaxSteps: s.MaxSteps, MaxLen: s.MaxLen, MaxWork: s.MaxWork}
	return behaviourRunner{machine: vm.New(p), opts: opts, memo: m, count: count, goodEvil: goodEvil, loaded: true}
}

// reset empties the memory register: the empty memory is id 0.
func (r *behaviourRunner) reset() {
	r.machine.Reset()
	r.mem, r.loaded = 0, true
}
