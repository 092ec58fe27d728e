package env

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/anynt/anynt/vm"
)

// Agent is the evaluated agent π, behind one interface for every kind of
// agent (package agent).
type Agent interface {
	// Start begins an episode of e; rng is the agent's own random stream.
	Start(e *Env, rng *rand.Rand)
	// Act chooses π's action, an index into Env.Actions.
	Act(v *View) int
	// End gives the reward of π's last action.
	End(reward float64)
}

// View is what an agent is given at each interaction: π's observation and
// the reward of its previous action. The privileged parts (where everything
// is, the cell rewards, where Good and Evil intend to go) are there for
// agents such as the thesis's oracle, which are allowed to cheat.
type View struct {
	ep     *Episode
	Reward float64 // of the previous action; 0 at the first
	obs    []byte
	built  bool
}

// Observation is π's observation ([P] §4.3), as codes of Env.Symbol. It is
// built when first asked for: an agent that does not look costs nothing.
// The slice is valid until the next interaction.
func (v *View) Observation() []byte {
	if !v.built {
		v.obs = v.ep.observe(v.obs[:0], v.ep.pos[Pi], true)
		v.built = true
	}
	return v.obs
}

// Text spells π's observation as the papers write it.
func (v *View) Text() string { return v.ep.env.Text(v.Observation()) }

// Cell is π's cell (from 0).
func (v *View) Cell() int { return v.ep.pos[Pi] }

// Dest is where each action leads from π's cell.
func (v *View) Dest() []int { return v.ep.env.Space.Dest[v.ep.pos[Pi]] }

// Positions gives the cell of π, ⊕, ⊖ and each object (privileged).
func (v *View) Positions() []int { return v.ep.pos }

// CellRewards gives the reward each cell holds now (privileged). The
// slice is valid until the next interaction.
func (v *View) CellRewards() []float64 {
	ep := v.ep
	ep.shownRewards = ep.shownRewards[:0]
	for c := range ep.cellReward {
		ep.shownRewards = append(ep.shownRewards, ep.rewardIn(c))
	}
	return ep.shownRewards
}

// Intended gives the cells Good and Evil will move to this interaction,
// before any collision between them is resolved (privileged).
func (v *View) Intended() (good, evil int) { return v.ep.intended[0], v.ep.intended[1] }

// Symbol names an observation code.
func (e *Env) Symbol(c byte) string { return e.symbols.names[c] }

// Text spells a string of observation codes.
func (e *Env) Text(codes []byte) string {
	var b []byte
	for _, c := range codes {
		b = append(b, e.symbols.names[c]...)
	}
	return string(b)
}

// Episode is one run of an environment with an agent: placement, an
// optional start-up garbage phase, then the scored interactions.
type Episode struct {
	env   *Env
	agent Agent
	act   func(*View) int // agent.Act, bound once
	last  float64         // π's last reward
	rng   *rand.Rand
	pos   []int // cells of π, ⊕, ⊖, ω1…
	// cellReward holds the reward each cell was given last, halvings the
	// interactions' halvings so far and halvedFrom, for each cell, their
	// number when it was given: every cell's reward halves each
	// interaction, and a reward is halved only when read (rewardIn), so an
	// interaction costs the same whatever the number of cells.
	cellReward   []float64
	halvedFrom   []uint64
	halvings     uint64
	shownRewards []float64 // CellRewards' scratch
	// lambdaCells are the cells given a reward in the last Λ_one
	// interaction, the only ones that are not 0.
	lambdaCells [2]int
	*behaviours
	patternAt int
	level     [2]int // the reward level Good and Evil chose last
	untilSwap int
	intended  [2]int
	begun     bool // Begin was called, Finish not yet
	view      View
	// shownObjects, shownArrows, shownText and shownPieces are
	// observation's scratch.
	shownObjects, shownArrows []placed
	shownText                 []byte
	shownPieces               []vm.Piece
	moves                     []int
	// MaxSteps is the most VM steps any interaction took, all its
	// behaviour runs together: the time part of Kt^max ([T] Def. 3.4.1).
	MaxSteps int
	steps    int           // of the interaction under way
	lastHalt vm.HaltReason // of the last run of the VM
	// Bounds counts, for each behaviour program, its runs and those that
	// ended at a bound (see Bounds).
	Bounds []BoundCount
	src    *rand.PCG // rng's source, which State copies (last: off the hot fields)
}

// BoundCount counts the runs of one behaviour and those that a bound
// stopped: the output of such a run is the string so far ([P] §6.2), which
// is legal but rarely what the author meant.
type BoundCount struct {
	Behaviour string // an object's name, or "Good/Evil"
	Runs      int
	// StepLimit counts the runs stopped by max-steps, LengthLimit those
	// stopped by max-len (an observation longer than max-len included),
	// WorkLimit those stopped by max-work.
	StepLimit, LengthLimit, WorkLimit int
}

// Hit reports whether any run ended at a bound.
func (c BoundCount) Hit() bool { return c.StepLimit+c.LengthLimit+c.WorkLimit > 0 }

// add counts a run that ended with h.
func (c *BoundCount) add(h vm.HaltReason) {
	c.Runs++
	switch h {
	case vm.StepLimit:
		c.StepLimit++
	case vm.LengthLimit, vm.InputTooLong:
		c.LengthLimit++
	case vm.WorkLimit:
		c.WorkLimit++
	}
}

// newBoundCounts names a count for each object, then Good/Evil when it
// runs a program: the order of behaviourRunner.count.
func newBoundCounts(e *Env) []BoundCount {
	var c []BoundCount
	for _, o := range e.Objects {
		c = append(c, BoundCount{Behaviour: o.Name})
	}
	if e.GoodEvil.Program != nil {
		c = append(c, BoundCount{Behaviour: "Good/Evil"})
	}
	return c
}

// NewEpisode places everything and readies the behaviours. The seed decides
// every random choice of the environment; the agent gets its own stream
// from the same seed.
func NewEpisode(e *Env, agent Agent, seed uint64) *Episode {
	return newEpisode(e, agent, seed, newBehaviours(e))
}

// NewPlainEpisode is NewEpisode without the memos: every run of a
// behaviour builds its observation and runs on the VM. It plays exactly as
// NewEpisode, only slower; the tests and the fuzzer compare the two.
func NewPlainEpisode(e *Env, agent Agent, seed uint64) *Episode {
	b := newBehaviours(e)
	for i := range b.objects {
		b.objects[i].memo = nil
	}
	b.good.memo, b.evil.memo = nil, nil
	return newEpisode(e, agent, seed, b)
}

// The second words of the PCG streams an episode draws from, the first
// being its seed: the environment's (placement, swaps, coins), the
// agent's, and the garbage phase's random agent's. They are part of what a
// seed means: changing one changes every recorded trajectory, and package
// generate's lean episodes draw from the same streams.
const (
	EnvironmentStream = 0x5eed_e11e
	AgentStream       = 0xa6e7
	GarbageStream     = 0x6a7ba6e
)

// newEpisode is NewEpisode with behaviours readied before, whose memories
// it empties.
func newEpisode(e *Env, agent Agent, seed uint64, b *behaviours) *Episode {
	b.reset()
	src := rand.NewPCG(seed, EnvironmentStream)
	ep := &Episode{
		env:        e,
		agent:      agent,
		rng:        rand.New(src),
		src:        src,
		pos:        make([]int, 3+len(e.Objects)),
		cellReward: make([]float64, e.Space.Cells()),
		halvedFrom: make([]uint64, e.Space.Cells()),
		moves:      make([]int, len(e.Objects)),
		behaviours: b,
		Bounds:     newBoundCounts(e),
	}
	ep.view.ep = ep
	ep.act = agent.Act
	ep.place()
	ep.untilSwap = ep.drawInterval()
	agent.Start(e, rand.New(rand.NewPCG(seed, AgentStream)))
	if e.Settings.Garbage {
		garbage := &randomAgent{rng: rand.New(rand.NewPCG(seed, GarbageStream))}
		for range ep.drawInterval() {
			ep.interact(garbage.act)
		}
	}
	return ep
}

// drawInterval draws n ~ U[1, CycleBound] ([P] §4.2).
func (ep *Episode) drawInterval() int { return 1 + ep.rng.IntN(ep.env.Settings.CycleBound) }

// place puts every object in its declared cell or, where none is
// declared, in a uniform random one; Evil never shares Good's cell: when it
// would, it gets a uniform draw among the other cells ([P] §6.2).
func (ep *Episode) place() {
	n := ep.env.Space.Cells()
	for i, c := range ep.env.Place {
		if c < 0 {
			c = ep.rng.IntN(n)
		}
		ep.pos[i] = c
	}
	if ep.pos[Good] == ep.pos[Evil] {
		c := ep.rng.IntN(n - 1)
		if c >= ep.pos[Good] {
			c++
		}
		if ep.env.Place[Evil] >= 0 { // Evil's cell is fixed: move Good
			ep.pos[Good] = c
		} else {
			ep.pos[Evil] = c
		}
	}
}

// Run plays n scored interactions, ends the episode and returns the score:
// the average reward, ρ/n ([P] §4.4 step 15).
func (ep *Episode) Run(n int, trace func(Step)) float64 {
	if _, ok := ep.agent.(Planner); ok {
		ep.Plan(MeanWeights(n))
	}
	total := 0.0
	for i := range n {
		if trace == nil {
			total += ep.Interact()
			continue
		}
		ep.view.Reward = ep.last
		var action int
		ep.last = ep.interact(func(v *View) int {
			v.Observation() // the trace shows what π saw, before the moves
			action = v.ep.agent.Act(v)
			return action
		})
		total += ep.last
		trace(ep.step(i+1, action, ep.last))
	}
	ep.End()
	if n == 0 {
		return 0
	}
	return total / float64(n)
}

// Interact plays one scored interaction: the agent sees π's observation and
// the reward of its previous action (0 before the first), acts, everything
// moves, and π's reward is returned. A caller that paces the interactions
// itself (a test in physical time) calls Interact, then End. Interact is
// Begin, the agent's Act and Finish in one, for an agent inside the
// process; it must not be called between Begin and Finish.
func (ep *Episode) Interact() float64 {
	ep.view.Reward = ep.last
	ep.last = ep.interact(ep.act)
	return ep.last
}

// ErrInteraction is the error of Begin and Finish called out of turn.
var ErrInteraction = errors.New("an interaction is begun and finished in turn")

// Begin plays the start of a scored interaction, up to π's choice: the
// cycle swap, the trace rewards, and the objects' and Good and Evil's
// decisions. It returns π's view (the observation and the reward of its
// previous action, 0 before the first), valid until Finish. Begin and
// Finish split Interact for an agent outside the process, which is given
// the view and answers later (anynt serve-env, a Gymnasium step); the
// episode's Agent is not asked to act. Begin while an interaction is under
// way returns ErrInteraction and changes nothing; Interact and Run, which
// cannot fail, must not be called then.
func (ep *Episode) Begin() (*View, error) {
	if ep.begun {
		return nil, fmt.Errorf("begin: the interaction under way is not finished: %w", ErrInteraction)
	}
	ep.view.Reward = ep.last
	ep.begin()
	ep.begun = true
	return &ep.view, nil
}

// Finish completes the interaction Begin started with π's action (an
// index into Env.Actions): everything moves, and π's reward is returned.
// Finish without Begin, or with an action out of range, returns an error
// and changes nothing; the interaction begun can then still be finished.
func (ep *Episode) Finish(action int) (float64, error) {
	if !ep.begun {
		return 0, fmt.Errorf("finish: no interaction is under way (Begin first): %w", ErrInteraction)
	}
	if n := len(ep.env.Actions); action < 0 || action >= n {
		return 0, fmt.Errorf("finish: action %d is out of range: there are %d actions, 0 to %d", action, n, n-1)
	}
	ep.begun = false
	ep.last = ep.finish(action)
	return ep.last, nil
}

// End gives the agent the reward of its last action: the episode is over.
func (ep *Episode) End() { ep.agent.End(ep.last) }

// Step describes one interaction for a trace.
type Step struct {
	Interaction int
	Observation string // what π saw
	Action      string
	Reward      float64
	Positions   []int // after the moves: π, ⊕, ⊖, ω1…, cells from 1
}

func (ep *Episode) step(i, action int, reward float64) Step {
	s := Step{Interaction: i, Observation: ep.view.Text(), Action: ep.env.Actions[action], Reward: reward}
	for _, c := range ep.pos {
		s.Positions = append(s.Positions, c+1)
	}
	return s
}

// interact plays one interaction ([P] §4.4 steps 7–13, or the Λ_one order)
// with act choosing π's action, and returns π's reward.
func (ep *Episode) interact(act func(*View) int) float64 {
	ep.begin()
	return ep.finish(act(&ep.view))
}

// begin plays an interaction up to π's choice: the cycle swap, the trace
// rewards, and the decisions of every object and of Good and Evil, which
// all come before the moves, so that π's move cannot change them.
func (ep *Episode) begin() {
	st := &ep.env.Settings
	ep.steps = 0
	if st.Cycle {
		if ep.untilSwap--; ep.untilSwap == 0 {
			ep.pos[Good], ep.pos[Evil] = ep.pos[Evil], ep.pos[Good]
			ep.untilSwap = ep.drawInterval()
		}
	}
	if st.Rewards == TraceRewards {
		if c := ep.pos[Good]; c != ep.pos[Pi] {
			ep.giveReward(c, ep.rewardValue(0))
		}
		if c := ep.pos[Evil]; c != ep.pos[Pi] {
			ep.giveReward(c, -ep.rewardValue(1))
		}
	}
	for i := range ep.objects {
		ep.moves[i] = ep.objectAction(i)
	}
	ep.intended[0], ep.intended[1] = ep.goodEvilDest()
	ep.view.built = false
	// Every behaviour run of the interaction is done: its VM steps count
	// towards Kt^max.
	ep.MaxSteps = max(ep.MaxSteps, ep.steps)
}

// finish completes the interaction begin started with π's action a: the
// moves, then the rewards; it returns π's reward.
func (ep *Episode) finish(a int) float64 {
	dest := ep.env.Space.Dest
	ep.pos[Pi] = dest[ep.pos[Pi]][a]
	for i, m := range ep.moves {
		ep.pos[3+i] = dest[ep.pos[3+i]][m]
	}
	ep.moveGoodEvil()
	ep.patternAt++
	if ep.env.Settings.Rewards == LambdaOneRewards {
		// Only last interaction's two cells hold a reward: clearing them
		// clears every cell.
		ep.cellReward[ep.lambdaCells[0]], ep.cellReward[ep.lambdaCells[1]] = 0, 0
		ep.lambdaCells = [2]int{ep.pos[Good], ep.pos[Evil]}
		ep.cellReward[ep.pos[Good]] = ep.rewardValue(0)
		ep.cellReward[ep.pos[Evil]] = -ep.rewardValue(1)
		return ep.cellReward[ep.pos[Pi]]
	}
	reward := ep.rewardIn(ep.pos[Pi])
	ep.giveReward(ep.pos[Pi], 0)
	ep.halvings++ // every cell's reward halves
	return reward
}

// giveReward sets cell c's reward to r.
func (ep *Episode) giveReward(c int, r float64) {
	ep.cellReward[c], ep.halvedFrom[c] = r, ep.halvings
}

// rewardIn is the reward cell c holds now: the reward it was given,
// halved once for each interaction since.
func (ep *Episode) rewardIn(c int) float64 {
	return halved(ep.cellReward[c], ep.halvings-ep.halvedFrom[c])
}

// halved is r halved k times, one rounding after another, as k divisions
// by 2 give it. While the result stays a normal number each halving is
// exact, so those are one subtraction from the exponent; below that
// (subnormals) each halving may round, and they are done one by one, at
// most 54 before any value reaches zero, on the significand as an integer:
// a division of a subnormal by 2 in floating point takes a hundred times
// longer on common processors (a microsecond for the 54), and a space of
// thousands of cells whose old rewards sank that low spent nearly all its
// planning time here.
func halved(r float64, k uint64) float64 {
	bits := math.Float64bits(r)
	exp := bits >> 52 & 0x7ff // biased: 1 is the smallest normal exponent
	switch {
	case k == 0 || r == 0 || exp == 0x7ff: // 0x7ff: infinite or NaN
		return r
	case k < exp: // the result is normal
		return math.Float64frombits(bits - k<<52)
	case exp > 1: // exactly down to the smallest normal exponent
		bits -= (exp - 1) << 52
		k -= exp - 1
	}
	// At exponent 1 and 0 (subnormal) alike, the bits but the sign are
	// the significand m, an integer, of the value m·2^-1074.
	sign, m := bits&(1<<63), bits&^(1<<63)
	for ; k > 0 && m != 0; k-- {
		half := m >> 1
		if m&1 == 1 && half&1 == 1 { // a tie: to even, as the division rounds
			half++
		}
		m = half
	}
	return math.Float64frombits(sign | m)
}

func (ep *Episode) rewardValue(who int) float64 {
	if levels := ep.env.Reward.Levels; len(levels) > 0 {
		return levels[ep.level[who]]
	}
	return ep.env.Reward.Value
}

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

// moveGoodEvil moves Good and Evil to their intended cells, but never into
// one cell: then the one that did not move keeps its cell and the other
// stays put, or, when both moved, a fair coin picks the one that moves
// ([P] §4.2).
func (ep *Episode) moveGoodEvil() {
	g, v := ep.intended[0], ep.intended[1]
	if g == v {
		switch {
		case g == ep.pos[Good]:
			v = ep.pos[Evil]
		case v == ep.pos[Evil]:
			g = ep.pos[Good]
		case ep.rng.IntN(2) == 0:
			v = ep.pos[Evil]
		default:
			g = ep.pos[Good]
		}
	}
	ep.pos[Good], ep.pos[Evil] = g, v
}

// observe appends the observation of an object in cell from ([P] §4.3),
// written whole: every run of ':' in the text.
func (ep *Episode) observe(buf []byte, from int, isPi bool) []byte {
	text, _ := ep.write(buf, from, isPi, math.MaxInt)
	return text
}

// observation returns the observation of an object in cell from in
// pieces, for the VM (vm.Machine.RunPieces). Between the few cells that
// show something, the observation is runs of ':', each one piece however
// long (when it is longRun or longer): the pieces are at most twice as
// many as the objects and actions, and their text at most longRun times,
// whatever the number of cells, and so is the work of writing them. The
// slice and the text it holds are valid until the next call.
func (ep *Episode) observation(from int, isPi bool) []vm.Piece {
	text, pieces := ep.write(ep.shownText[:0], from, isPi, longRun)
	ep.shownText = text
	return pieces
}

// longRun is the fewest empty cells that observation gives a piece of
// their own: shorter runs of ':' are written into the text around them,
// so that a small space's observation is one piece, written as fast as a
// walk over its cells.
const longRun = 16

// write appends the observation of an object in cell from ([P] §4.3) to
// text, but for the runs of ':' of long or more empty cells, and returns
// it with the pieces it makes, in order: the text, and those runs. The
// observation is, for each cell in order, its objects (π, then ⊕ and ⊖,
// then ω1…), then the markers of the actions leading there from cell
// from, then ':'. π sees ⊕ and ⊖; every other object sees both as ⊙.
func (ep *Episode) write(text []byte, from int, isPi bool, long int) ([]byte, []vm.Piece) {
	t := &ep.env.symbols
	good, evil := t.odot, t.odot
	if isPi {
		good, evil = t.good, t.evil
	}
	// What each cell shows, as (cell, code) pairs sorted stably by cell:
	// the objects in their order, then the arrows in action order.
	objects := append(ep.shownObjects[:0],
		placed{ep.pos[Pi], t.pi}, placed{ep.pos[Good], good}, placed{ep.pos[Evil], evil})
	for i, code := range t.object {
		objects = append(objects, placed{ep.pos[3+i], code})
	}
	arrows := ep.shownArrows[:0]
	for a, d := range ep.env.Space.Dest[from] {
		arrows = append(arrows, placed{d, t.marker[a]})
	}
	ep.shownObjects, ep.shownArrows = objects, arrows
	sortByCell(objects)
	sortByCell(arrows)
	pieces := ep.shownPieces[:0]
	// next is the first cell not shown yet, and text[done:] the text not
	// in a piece yet; the pieces take it before each run of ':' and at the
	// end (a slice taken then is right even if append moved text).
	next, done, n := 0, len(text), len(ep.cellReward)
	for len(objects) > 0 || len(arrows) > 0 {
		c := n
		if len(objects) > 0 {
			c = objects[0].cell
		}
		if len(arrows) > 0 {
			c = min(c, arrows[0].cell)
		}
		if c-next >= long {
			if done < len(text) {
				pieces = append(pieces, vm.Piece{Text: text[done:]})
			}
			pieces = append(pieces, vm.Piece{Symbol: t.colon, Repeat: c - next})
			next, done = c, len(text)
		}
		for ; next < c; next++ { // a short run of empty cells
			text = append(text, t.colon)
		}
		for len(objects) > 0 && objects[0].cell == c {
			text = append(text, objects[0].code)
			objects = objects[1:]
		}
		for len(arrows) > 0 && arrows[0].cell == c {
			text = append(text, arrows[0].code)
			arrows = arrows[1:]
		}
		text = append(text, t.colon)
		next = c + 1
	}
	if n-next < long {
		for ; next < n; next++ {
			text = append(text, t.colon)
		}
	}
	if done < len(text) {
		pieces = append(pieces, vm.Piece{Text: text[done:]})
	}
	if n > next {
		pieces = append(pieces, vm.Piece{Symbol: t.colon, Repeat: n - next})
	}
	ep.shownPieces = pieces
	return text, pieces
}

// placed is a symbol shown in a cell of an observation.
type placed struct {
	cell int
	code byte
}

// sortByCell sorts a few placed symbols by cell, keeping the order of those
// in one cell (an insertion sort: stable, and fastest on a handful).
func sortByCell(s []placed) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].cell < s[j-1].cell; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
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

// memoSize and memoBytes bound a memo, in runs and memories and in the
// bytes of its keys, runs and memories: past either, memories are no
// longer interned, and the runs are forgotten (forgetRuns) to make room
// for new ones. Without the second, long memories (max-len) would fill
// memory.
const (
	memoSize    = 1 << 16
	memoBytes   = 64 << 20
	memoRunSize = 32 // bytes of a memoRun, about
	noMemory    = math.MaxUint32
)

// memoRuns is the most runs a memo holds before it forgets them:
// memoSize, lowered by tests that make memos forget often.
var memoRuns = memoSize

// memo remembers the runs of one program, keyed by the id of the memory a
// run starts from and the state its observation is a function of; the
// objects that share the program (Good and Evil) share it. Memories are
// interned: each distinct memory is kept once, with an id.
type memo struct {
	// packs is set when a key fits in a uint64 (small): the memory id and
	// the positions as digits in base radix, the number of cells. Larger
	// spaces key by the bytes of their uvarints (large).
	packs    bool
	radix    uint64
	small    table
	large    map[string]*memoRun
	keyBuf   []byte
	runs     int
	ids      map[string]uint32 // memory -> id
	memories [][]byte          // id -> memory
	bytes    int               // held by keys, runs and memories
	runBytes int               // held by keys and runs
}

// forgetRuns empties a full memo of its runs, keeping its memories, so
// that it goes on remembering the runs met lately. In a large space a
// long episode meets far more states than a memo holds, but an agent
// moves a cell at a time, so the states it meets next are mostly near
// those it met last: a memo that stopped remembering when full would miss
// them all.
func (m *memo) forgetRuns() {
	if m.packs {
		m.small.clear()
	} else {
		clear(m.large)
	}
	m.bytes -= m.runBytes
	m.runs, m.runBytes = 0, 0
}

// memoRun is a remembered run: what it decided (decision's fields; a
// cell, an action and a level fit in 32 bits), the memory it left, and
// its step count (at most MaxBehaviourSteps) and halt, which Episode
// counts as if it had run. It is small, so that a table slot holds it
// with its key in one cache line.
type memoRun struct {
	result, level int32
	next          uint32
	steps         int32
	halt          vm.HaltReason
}

// newMemo makes a memo for e's behaviours; the empty memory is id 0.
func newMemo(e *Env) *memo {
	m := &memo{ids: map[string]uint32{"": 0}, memories: [][]byte{nil}}
	// A key's digits: the memory id (below memoSize), then π, Good and
	// Evil (the lower cell first), the objects, and the cell looked from.
	n, digits := uint64(e.Space.Cells()), 4+len(e.Objects)
	room := uint64(math.MaxUint64) / memoSize
	m.packs, m.radix = true, n
	for range digits {
		if room < n {
			m.packs = false
			break
		}
		room /= n
	}
	if m.packs {
		m.small = newTable()
	} else {
		m.large = map[string]*memoRun{}
	}
	return m
}

// key is the memo key of a run from cell from with memory mem when the
// positions are pos: packed, or in m.keyBuf. Good and Evil both show as ⊙
// to every observer but π, so the key holds their cells as a set.
func (m *memo) key(pos []int, mem uint32, from int) uint64 {
	good, evil := pos[Good], pos[Evil]
	if evil < good {
		good, evil = evil, good
	}
	if m.packs {
		k := uint64(mem)
		k = k*m.radix + uint64(pos[Pi])
		k = k*m.radix + uint64(good)
		k = k*m.radix + uint64(evil)
		for _, c := range pos[3:] {
			k = k*m.radix + uint64(c)
		}
		return k*m.radix + uint64(from)
	}
	b := binary.AppendUvarint(m.keyBuf[:0], uint64(mem))
	b = binary.AppendUvarint(b, uint64(pos[Pi]))
	b = binary.AppendUvarint(b, uint64(good))
	b = binary.AppendUvarint(b, uint64(evil))
	for _, c := range pos[3:] {
		b = binary.AppendUvarint(b, uint64(c))
	}
	m.keyBuf = binary.AppendUvarint(b, uint64(from))
	return 0
}

// intern returns the id of a memory, giving it one if the memo has room,
// or noMemory.
func (m *memo) intern(mem []byte) uint32 {
	if id, ok := m.ids[string(mem)]; ok {
		return id
	}
	if len(m.memories) >= memoSize || m.bytes+len(mem) > memoBytes {
		return noMemory
	}
	id := uint32(len(m.memories))
	s := string(mem)
	m.ids[s] = id
	m.memories = append(m.memories, []byte(s))
	m.bytes += 2 * len(mem)
	return id
}

// table is an open-addressing hash table from packed keys to runs, held
// in its slots: a lookup is a multiplication and mostly one probe and one
// cache line, a few times cheaper than a Go map on the path every run of a
// behaviour takes.
type table struct {
	slots []slot // a power of two, at most half full
	shift uint   // 64 − log2(len(slots))
	n     int
}

type slot struct {
	key  uint64
	run  memoRun
	full bool
}

func newTable() table { return table{slots: make([]slot, 64), shift: 64 - 6} }

// home is where a key's probe starts: Fibonacci hashing, whose high bits
// mix every digit of the key.
func (t *table) home(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> t.shift }

// get returns the run of key k, or nil.
func (t *table) get(k uint64) *memoRun {
	mask := uint64(len(t.slots) - 1)
	for h := t.home(k); ; h = (h + 1) & mask {
		s := &t.slots[h]
		if !s.full {
			return nil
		}
		if s.key == k {
			return &s.run
		}
	}
}

// clear empties the table, keeping its slots.
func (t *table) clear() {
	clear(t.slots)
	t.n = 0
}

// put adds a key that is not in the table.
func (t *table) put(k uint64, run memoRun) {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots, t.shift = make([]slot, 2*len(old)), t.shift-1
		for _, s := range old {
			if s.full {
				t.insert(s)
			}
		}
	}
	t.insert(slot{k, run, true})
	t.n++
}

func (t *table) insert(s slot) {
	mask := uint64(len(t.slots) - 1)
	h := t.home(s.key)
	for t.slots[h].full {
		h = (h + 1) & mask
	}
	t.slots[h] = s
}

// randomAgent plays the start-up garbage.
type randomAgent struct{ rng *rand.Rand }

func (r *randomAgent) act(v *View) int { return r.rng.IntN(len(v.Dest())) }
