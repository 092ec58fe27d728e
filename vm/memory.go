package vm

// The memory register, which may be the machine's own copy, the string
// itself or a shadow of the string as of the last Δ, so that Δ costs what
// its step changes (see the package doc, Memory). The shadow is a gap
// buffer like the string's, spliced by the same code; while it is the
// register, the string's splices wait in a log (pending) for the next Δ
// to replay them.

// memState says where the memory register is.
type memState uint8

const (
	memOwn    memState = iota // in Machine.mem
	memString                 // the string as it is now
	memShadow                 // the shadow: the string as of the last Δ
)

// pendingSplice is a splice that the string had and the shadow has not
// yet: shadow[start:end] becomes pendingRHS[from:from+n].
type pendingSplice struct {
	start, end, from, n int
}

// memory returns the memory register as one slice, copying it into
// Machine.mem if it is the string or the shadow.
func (m *Machine) memory() []byte {
	if m.memState != memOwn {
		m.mem = m.appendMemory(m.mem[:0])
		m.catchUp()
		m.memState = memOwn
	}
	return m.mem
}

// appendMemory appends the memory register to out.
func (m *Machine) appendMemory(out []byte) []byte {
	n := len(out)
	switch m.memState {
	case memOwn:
		out = append(out, m.mem...)
	case memString:
		out = append(append(out, m.str...), m.tailBytes()...)
	case memShadow:
		out = append(append(out, m.shadow...), gapTail(m.shadow, m.shadowTail)...)
	}
	m.copied += len(out) - n
	return out
}

// setMemory makes b, a capture of the match or a caller's bytes, the
// memory register.
func (m *Machine) setMemory(b []byte) {
	m.catchUp()
	m.memState = memOwn
	m.mem = append(m.mem[:0], b...)
	m.copied += len(b)
}

// storeWhole makes the string the memory register, after a Δ step.
func (m *Machine) storeWhole() {
	m.catchUp()
	m.memState = memString
}

// dropShadow forgets the shadow, before a run replaces the string.
func (m *Machine) dropShadow() {
	m.memory()
	m.shadowOn = false
}

// beforeChange is told of every change of the string before it is made:
// str[start:end] becomes rhs, by a step that stores the whole string
// (whole) or not. A step without Δ after a Δ step makes the register the
// shadow, which starts as a copy of the string if there is none yet; the
// shadow follows every splice, at once while it is not the register and
// through the log while it is.
func (m *Machine) beforeChange(start, end int, rhs []byte, whole bool) {
	if m.memState == memString && !whole {
		if !m.shadowOn {
			m.startShadow()
		}
		m.memState = memShadow
	}
	switch {
	case !m.shadowOn:
	case m.memState == memShadow:
		m.pending = append(m.pending, pendingSplice{start: start, end: end, from: len(m.pendingRHS), n: len(rhs)})
		m.pendingRHS = append(m.pendingRHS, rhs...)
		m.copied += len(rhs)
		// A log as long as the string pays for copying the register out,
		// after which the shadow follows the string directly.
		if len(m.pending)+len(m.pendingRHS) > max(m.length(), longLen) {
			m.memory()
		}
	default:
		m.spliceShadow(start, end, rhs)
	}
}

// startShadow makes the shadow a copy of the string, in its buffer of an
// earlier run if that is large enough.
func (m *Machine) startShadow() {
	n := m.length()
	if cap(m.shadow) < n {
		m.shadow = make([]byte, 0, max(2*n, shortCap))
	}
	m.shadow = append(append(m.shadow[:0], m.str...), m.tailBytes()...)
	m.shadowTail = 0
	m.shadowOn = true
	m.copied += n
}

// catchUp replays the pending splices on the shadow.
func (m *Machine) catchUp() {
	for _, p := range m.pending {
		m.spliceShadow(p.start, p.end, m.pendingRHS[p.from:p.from+p.n])
	}
	m.pending, m.pendingRHS = m.pending[:0], m.pendingRHS[:0]
}

// spliceShadow replaces shadow[start:end] by rhs.
func (m *Machine) spliceShadow(start, end int, rhs []byte) {
	var moved int
	m.shadow, m.shadowTail, moved = spliceGap(m.shadow, m.shadowTail, start, end, rhs)
	m.copied += moved
}

// gapTail returns the tail, tail symbols long, of a gap buffer whose head
// is head.
func gapTail(head []byte, tail int) []byte {
	c := cap(head)
	return head[:c][c-tail:]
}
