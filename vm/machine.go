package vm

import (
	"bytes"
	"strconv"
)

// The limits of DefaultOptions.
const (
	DefaultMaxSteps = 1_000_000
	DefaultMaxLen   = 1_000_000
	// DefaultMaxWork lets a run spend about a second or two in the
	// matcher: far more than the corpus needs, far less than a rule whose
	// matching is exponential would take.
	DefaultMaxWork = 100_000_000
)

// Options choose the matching convention and bound a run. The limits are
// taken literally: MaxSteps 0 allows no rewrite, MaxLen 0 only the empty
// string, MaxWork 0 no matcher work; a negative limit counts as zero. The
// zero Options therefore run nothing: start from DefaultOptions.
type Options struct {
	Leftmost bool // replace the leftmost occurrence (classic); default rightmost
	MaxSteps int  // most rewrites a run may do
	MaxLen   int  // longest string, in symbols, a run may hold
	// MaxWork is the most matcher work a run may do, over all its steps:
	// one unit for each start position the matcher tries and one for each
	// choice point it passes (see the package doc, Limits).
	MaxWork int
	// Trace, when not nil, is called after each rewrite with the step number
	// (from 1), the index of the rule that fired and the new string. The
	// string is the machine's buffer: copy it to keep it.
	Trace func(step, rule int, s []byte)
}

// DefaultOptions returns rightmost matching and the default limits.
func DefaultOptions() Options {
	return Options{MaxSteps: DefaultMaxSteps, MaxLen: DefaultMaxLen, MaxWork: DefaultMaxWork}
}

// HaltReason says why a run ended.
type HaltReason uint8

const (
	Terminated   HaltReason = iota // a terminating rule fired
	NoRule                         // no rule applies to the string
	StepLimit                      // MaxSteps rewrites were done and a rule still applies
	LengthLimit                    // the next rewrite would make the string longer than MaxLen
	InputTooLong                   // the input is longer than MaxLen: nothing was run
	WorkLimit                      // the matcher spent MaxWork before the next step was found
)

func (h HaltReason) String() string {
	switch h {
	case Terminated:
		return "terminated"
	case NoRule:
		return "no rule applies"
	case StepLimit:
		return "step limit"
	case LengthLimit:
		return "length limit"
	case InputTooLong:
		return "input too long"
	case WorkLimit:
		return "work limit"
	}
	return "HaltReason(" + strconv.Itoa(int(h)) + ")"
}

// Result is the outcome of a run.
type Result struct {
	Steps int // rewrites done
	Halt  HaltReason
	Rule  int // index of the last rule that fired, or -1
}

// Machine runs one program. It owns the buffers a run needs and reuses them,
// so that a run in steady state allocates nothing, and the memory register,
// which outlives a run. A Machine is not safe for concurrent use; its Program
// is only read and may be shared by many machines.
type Machine struct {
	prog  *Program
	plans []plan // how to search for each rule
	// needs holds, for each rule, up to seven symbols every match contains,
	// packed so that the test that skips most rules stays in a cache line.
	needs []ruleNeeds

	// The string and the components that follow its edits (edit.go, which
	// lists them in the order Machine.commit tells them).
	reg    register     // the memory register
	counts symbolCounts // the string's symbols, to skip rules
	facts  factLog      // where literals can start in a long string
	scan   scanning     // the scanner, and where a scan resumes
	recent recentEdit   // the last edit, near which absent rules can occur
	str    gapBuffer    // the string being rewritten

	rhs []byte // the right-hand side of the current step
	// noRepeat turns repeat off, for tests to compare.
	noRepeat bool

	slots     []int // captures of the matcher's current path
	bestSlots []int // captures of the best match found so far
	unbound   []int // captures of a plain rule's match: none
	// The run under way: its limits, its trace and its result so far.
	maxSteps, maxLen int
	trace            func(step, rule int, s []byte)
	res              Result
	// workLeft is the matcher work the run may still do; below zero, the
	// matcher ran out and the step under way was abandoned.
	workLeft int
	record   []byte // choice record of the matcher's current path
	best     []byte // choice record of the best match found so far
	stack    []frame
}

// New returns a machine for p with an empty memory. p must be valid (see
// Validate); the compiler only produces valid programs.
func New(p *Program) *Machine { return newMachine(p, maxExpansion) }

// newMachine returns a machine that expands sugared rules whose expansion
// has at most maxExpansion literals.
func newMachine(p *Program, maxExpansion int) *Machine {
	n := 2 * p.NumCaptures
	m := &Machine{
		prog:      p,
		plans:     make([]plan, len(p.Rules)),
		slots:     make([]int, n),
		bestSlots: make([]int, n),
		unbound:   make([]int, n),
	}
	m.str.longLen = longLen
	m.reg.str = &m.str
	for i := range m.unbound {
		m.unbound[i] = -1
	}
	m.needs = make([]ruleNeeds, len(p.Rules))
	for i := range p.Rules {
		m.plans[i] = p.planRule(&p.Rules[i], maxExpansion)
		if m.plans[i].expanded {
			m.plans[i].factBase = m.facts.num
			m.facts.num += len(m.plans[i].literals)
		}
		m.needs[i] = m.plans[i].needs
	}
	m.scan.due, m.scan.whole = scanCost(len(p.Symbols), m.plans)
	return m
}

// ruleNeeds is a rule's needs, or the first seven of them: testing fewer
// symbols than a rule needs only skips fewer rules, never a wrong one. A
// plan holds it too, in these eight bytes rather than a set and a list of
// its own: New of the densest 5 MB rule file allocated 31 MB more so.
type ruleNeeds struct {
	count uint8
	syms  [7]byte
}

// firstNeeds returns the first seven symbols of s, in order.
func firstNeeds(s *SymSet) ruleNeeds {
	var n ruleNeeds
	for c := 0; c < 256 && int(n.count) < len(n.syms); c++ {
		if s.Has(byte(c)) {
			n.syms[n.count] = byte(c)
			n.count++
		}
	}
	return n
}

// Memory returns the memory register. The slice is the machine's own and is
// valid until the next Run, SetMemory or Reset.
func (m *Machine) Memory() []byte { return m.reg.get() }

// SetMemory replaces the memory register by a copy of b.
func (m *Machine) SetMemory(b []byte) { m.reg.set(b) }

// Reset empties the memory register.
func (m *Machine) Reset() { m.reg.set(nil) }

// Run rewrites input until the algorithm halts or a limit is reached. The
// input is not modified. The output is the machine's buffer: it is valid
// until the next Run, and passing it back as the next input is allowed.
func (m *Machine) Run(input []byte, opt Options) (out []byte, res Result) {
	m.run(input, opt)
	m.str.flatten()
	m.reg.dropShadow() // the register becomes the machine's own copy
	return m.str.head, m.res
}

// run is Run, which may leave the string in a gap buffer.
func (m *Machine) run(input []byte, opt Options) {
	m.reg.dropShadow() // before the string, which may be the register, is replaced
	m.str.load(input)
	m.counts.stale = true // counted when a search first needs them
	m.runLoaded(opt)
}

// copied is the number of symbols the machine has copied within and
// between its buffers (the string, the memory, the shadow, the log, the
// scratch for searches across the gap), for tests to bound a step's cost.
func (m *Machine) copied() int { return m.str.copied + m.reg.copied }

// runLoaded is run on the string already in m.str, whose counts are
// either up to date or marked stale.
func (m *Machine) runLoaded(opt Options) {
	m.maxSteps, m.maxLen, m.workLeft = max(opt.MaxSteps, 0), max(opt.MaxLen, 0), max(opt.MaxWork, 0)
	m.trace = opt.Trace
	m.str.whole = opt.Trace != nil // a trace reads the string after every step
	m.res = Result{Rule: -1}
	m.scan.state.valid = 0
	m.recent.absent = 0
	m.facts.newRun()
	if m.str.length() > m.maxLen {
		m.res.Halt = InputTooLong
		return
	}
	if m.scan.scanner != nil && m.scan.scanner.firstUncovered == len(m.plans) {
		if m.runShort(opt.Leftmost) {
			return
		}
	}
	var removed removal // a step's removed symbols
	for {
		rule, rank, start, end, slots, text := m.find(opt.Leftmost)
		if rule < 0 {
			m.res.Halt = NoRule
			if m.workLeft < 0 {
				m.res.Halt = WorkLimit
			}
			return
		}
		rhs := m.plans[rule].rhs
		if !m.plans[rule].fixedRHS && m.res.Steps < m.maxSteps {
			rhs = m.write(m.prog.Rules[rule].Write, slots, text, start)
		}
		removed.text = text
		if m.commit(rule, start, end, rhs, slots, &removed, 1) {
			return
		}
		if rank >= 0 {
			m.repeat(rank, start, opt.Leftmost)
		}
	}
}

// commit makes the edit of str[start:end] into added by rule, a step that
// Run's loop or runShort found, whose captures are slots, or steps of it
// that repeat does at once, unless a limit forbids it, and reports whether
// the run ended, with m.res.Halt set. It is the one place where the string
// changes: it tells the components that follow the string of the edit
// (edit.go) in this order: the counts, the facts' splice log, the scanner's
// resume point and the rules known absent, which need only the edit; then
// the memory register, which may copy the string as it was (the capture a
// rule stores, the shadow it starts); and the string last, which applies it.
// (The register comes after the others so that fewer of the edit's parts are
// kept across its calls, which are rare.) The counts are let go stale
// instead while the scanner serves every step of a short string: nothing
// reads them then, and a recount of the whole string each time the searches
// take over again would cost more than it saves. The run's limits, trace and
// result are in the machine, and the edit's parts are arguments, so that
// they stay in registers.
func (m *Machine) commit(rule, start, end int, added []byte, slots []int, removed *removal, steps int) bool {
	if m.res.Steps >= m.maxSteps {
		m.res.Halt = StepLimit
		return true
	}
	length := m.str.length()
	newLen := length - (end - start) + len(added)
	if newLen > m.maxLen {
		m.res.Halt = LengthLimit
		return true
	}
	r := &m.prog.Rules[rule]
	whole, terminating := r.StoreWhole, r.Terminating
	if !m.counts.stale && m.scan.used && m.scan.scanner.firstUncovered == len(m.plans) && length <= scanMaxLen {
		m.counts.stale = true
	}
	m.counts.edited(start, end, newLen, added, rule, whole, removed)
	m.facts.edited(start, end, newLen, added, rule, whole, removed)
	m.scan.state.edited(start, end, newLen, added, rule, whole, removed)
	m.recent.edited(start, end, newLen, added, rule, whole, removed)
	m.res.Steps += steps
	m.res.Rule = rule
	// The stored capture refers to the string before the rewrite, so it
	// is copied out before the splice overwrites it. An unbound capture
	// is a mark in an alternative this match did not take: nothing is
	// stored, as in the plain rule of the expansion, which has no mark.
	// (repeat's steps store what the step before them did, and pass none.)
	if r.Store >= 0 && bound(slots, r.Store) {
		m.reg.set(capture(removed.text, start, slots, r.Store))
	}
	m.reg.edited(start, end, newLen, added, rule, whole, removed)
	m.str.edited(start, end, newLen, added, rule, whole, removed)
	if m.trace != nil {
		m.trace(m.res.Steps, rule, m.str.head)
	}
	if terminating {
		m.res.Halt = Terminated
		return true
	}
	return false
}

// runShort runs the steps of a program the scanner covers whole while the
// scanner serves the string: each literal found carries its whole step,
// with only the scanner's bookkeeping. It reports whether the run ended;
// if not, the string outgrew the scanner, or the scan would resume too far
// from its end, and Run goes on with the general loop.
func (m *Machine) runShort(leftmost bool) bool {
	sc := m.scan.scanner
	var removed removal // a step's removed symbols
	for m.scannable(m.res.Steps == 0) {
		m.str.flatten() // a test's low longLen may leave it gapped
		rank, start := sc.scan(m.str.head, leftmost, &m.scan.state)
		if rank == noLiteral {
			m.res.Halt = NoRule
			return true
		}
		ref := &sc.ranks[rank]
		rhs := ref.rhs
		// The symbols replaced are read by the writer, a store and the
		// counts, which are mostly stale here: only then are they sliced.
		var slots []int
		var text []byte
		if !ref.fixedRHS || ref.store >= 0 {
			slots = m.placeSlots(ref.slots, start)
			text = m.str.head[start : start+ref.length]
		} else if !m.counts.stale {
			text = m.str.head[start : start+ref.length]
		}
		if !ref.fixedRHS && m.res.Steps < m.maxSteps {
			rhs = m.write(int(ref.write), slots, text, start)
		}
		removed.text = text
		if m.commit(ref.rule, start, start+ref.length, rhs, slots, &removed, 1) {
			return true
		}
		m.repeat(rank, start, leftmost)
	}
	return false
}

// scannable reports whether the scanner should find the next step: on a
// string of up to scanMaxLen symbols, always; on one of up to scanFarLen,
// at the first step of a run, and then while the scan resumes at most
// scanResumeMax symbols from the end. Such a string is never long, so it
// is contiguous.
func (m *Machine) scannable(first bool) bool {
	n := m.str.length()
	return n <= scanMaxLen || n <= scanFarLen && (first || n-m.scan.state.valid <= scanResumeMax)
}

// find returns the first rule that applies, the rank of the literal found
// if the scanner ranks it (or -1), the span it replaces, the symbols there
// and its captures, or rule -1: none applies or, if m.workLeft < 0, the
// matcher ran out of work before it knew. Until the scanner is built, it
// counts the work of the searches the scanner would have served, and
// builds it when they have cost what building it does; meanwhile it keeps
// m.scan.valid as a scan would, so that scannable knows whether the scan
// would resume near the end.
func (m *Machine) find(leftmost bool) (rule int, rank int32, start, end int, slots []int, text []byte) {
	if m.scan.due == 0 {
		return m.search(leftmost)
	}
	rule, rank, start, end, slots, text = m.search(leftmost)
	if !m.scannable(m.scan.whole && m.res.Steps == 0) {
		return rule, rank, start, end, slots, text
	}
	tested := rule + 1
	if rule < 0 {
		tested = len(m.needs)
	}
	m.scan.due -= tested + m.str.length()
	m.scan.state.valid = m.str.length()
	if m.scan.due <= 0 {
		m.scan.scanner, m.scan.due, m.scan.state.valid = newScanner(m.prog, m.plans, scanTableMax), 0, 0
	}
	return rule, rank, start, end, slots, text
}

// search is find with the scanner as it is.
func (m *Machine) search(leftmost bool) (rule int, rank int32, start, end int, slots []int, text []byte) {
	first := 0
	m.scan.used = m.scan.scanner != nil && m.scannable(false)
	if m.scan.used {
		m.str.flatten() // a test's low longLen may leave it gapped
		rank, at := m.scan.scanner.scan(m.str.head, leftmost, &m.scan.state)
		if rank != noLiteral {
			ref := &m.scan.scanner.ranks[rank]
			return ref.rule, rank, at, at + ref.length, m.placeSlots(ref.slots, at), m.str.head[at : at+ref.length]
		}
		first = m.scan.scanner.firstUncovered // the rules before it do not occur
	}
	if m.counts.stale && first < len(m.needs) {
		m.counts.recountAll(&m.str)
	}
	long := m.str.length() > m.str.longLen
	if long && m.facts.log == nil {
		m.facts.start()
	}
	for i := first; i < len(m.needs); i++ {
		if n := &m.needs[i]; !m.counts.hasAll(n.syms[:n.count]) {
			continue
		}
		r, plan := &m.prog.Rules[i], &m.plans[i]
		if !plan.expanded {
			m.str.flatten() // the matcher reads the string whole
			if start, end, ok := m.matchRule(r.Match, &plan.anchor, leftmost); ok {
				return i, -1, start, end, m.bestSlots, m.str.head[start:end]
			}
			if m.workLeft < 0 {
				return -1, -1, 0, 0, nil, nil
			}
			continue
		}
		j, at := -1, 0
		switch {
		case long:
			j, at = m.findLong(plan, i < m.recent.absent, leftmost)
		case i < m.recent.absent && plan.byFirst != nil:
			j, at = m.findNearChange(plan, leftmost)
		default:
			j, at = m.findLiteral(plan, i < m.recent.absent, leftmost)
		}
		if j < 0 {
			continue
		}
		start, end, slots := m.literalMatch(i, j, at)
		rank = -1
		if m.scan.scanner != nil && i < m.scan.scanner.firstUncovered {
			rank = m.scan.scanner.rankBase[i] + int32(j)
		}
		return i, rank, start, end, slots, plan.literals[j]
	}
	return -1, -1, 0, 0, nil, nil
}

// literalMatch is the match of literal j of expanded rule i at at, with
// the captures the expansion recorded for it.
func (m *Machine) literalMatch(i, j, at int) (start, end int, slots []int) {
	plan := &m.plans[i]
	var rel []int
	if !m.prog.Rules[i].Plain {
		rel = plan.literalSlots[j]
	}
	return at, at + len(plan.literals[j]), m.placeSlots(rel, at)
}

// placeSlots turns captures recorded from a literal's start into captures
// of the string, for a literal found at at; nil ones are a plain rule's.
func (m *Machine) placeSlots(rel []int, at int) []int {
	if rel == nil {
		return m.unbound
	}
	for k, slot := range rel {
		if slot >= 0 {
			slot += at
		}
		m.bestSlots[k] = slot
	}
	return m.bestSlots
}

// findLiteral returns the first of a plan's literals that occurs and where
// (its rightmost or leftmost occurrence), or -1. A rule known absent before
// the last edit is searched for only around it (recentEdit).
func (m *Machine) findLiteral(plan *plan, knownAbsent, leftmost bool) (int, int) {
	s := m.str.head
	for j, lit := range plan.literals {
		if key := plan.literalKeys[j]; key >= 0 && m.counts.n[key] == 0 {
			continue
		}
		lo, hi := 0, len(s)
		if knownAbsent && len(lit) > 0 {
			from, to := m.recent.starts(len(lit))
			lo, hi = max(from, 0), min(to+len(lit), len(s))
		}
		var at int
		if leftmost {
			at = bytes.Index(s[lo:hi], lit)
		} else {
			at = lastIndex(s[lo:hi], lit)
		}
		if at >= 0 {
			return j, at + lo
		}
	}
	return -1, 0
}

// findNearChange does what findLiteral does for a rule known absent, with
// many literals: rather than search for each literal in turn, it walks the
// few positions where an occurrence can start (recentEdit.starts of the
// longest) and tries only the literals that start with the symbol there.
// The first literal in order wins; between its occurrences, the rightmost
// (leftmost).
func (m *Machine) findNearChange(plan *plan, leftmost bool) (int, int) {
	s := m.str.head
	best, bestAt := -1, 0
	from, to := m.recent.starts(plan.longest)
	for p := max(from, 0); p <= to; p++ {
		c := s[p]
		for _, j := range plan.byFirst[plan.firstStart[c]:plan.firstStart[int(c)+1]] {
			if best >= 0 && int(j) > best {
				break
			}
			lit := plan.literals[j]
			if !bytes.HasPrefix(s[p:], lit) {
				continue
			}
			if best < 0 || int(j) < best || !leftmost {
				best, bestAt = int(j), p
			}
			break
		}
	}
	return best, bestAt
}

// bound reports whether capture k is bound.
func bound(slots []int, k int) bool { return slots[2*k] >= 0 && slots[2*k+1] >= 0 }

// capture returns the text of capture k, or nil if it is unbound, from
// text, the symbols of the match, which starts at start: a capture lies
// within its match.
func capture(text []byte, start int, slots []int, k int) []byte {
	if !bound(slots, k) {
		return nil
	}
	return text[slots[2*k]-start : slots[2*k+1]-start]
}

// write runs the writer code at pc, for the match of text at start with
// the captures slots, and returns the right-hand side it builds, in the
// machine's scratch buffer.
func (m *Machine) write(pc int, slots []int, text []byte, start int) []byte {
	code, lits := m.prog.Code, m.prog.Literals
	out := m.rhs[:0]
	for {
		in := code[pc]
		switch in.Op {
		case OpEmit:
			out = append(out, lits[in.A:in.A+in.B]...)
		case OpEmitCapture:
			out = append(out, capture(text, start, slots, int(in.A))...)
		case OpEmitMemory:
			out = m.reg.appendTo(out)
		case OpSkipUnbound:
			if !bound(slots, int(in.A)) {
				pc = int(in.B)
				continue
			}
		case OpDone:
			m.rhs = out
			return out
		default:
			panic("vm: " + in.Op.String() + " in writer code at pc " + strconv.Itoa(pc))
		}
		pc++
	}
}
