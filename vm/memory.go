package vm

// memState says where the memory register is.
type memState uint8

const (
	memOwn    memState = iota // in register.own
	memString                 // the string as it is now
	memShadow                 // the shadow: the string as of the last Δ
)

// pendingSplice is a splice that the string had and the shadow has not
// yet: shadow[start:end] becomes pendingRHS[from:from+n].
type pendingSplice struct {
	start, end, from, n int
}

// register is the memory register, kept so that Δ, which stores the whole
// string, costs what its step changes (see the package doc, Memory). It is
// the machine's own copy (own), the string itself (after a Δ step), or the
// shadow, a gap buffer like the string's, spliced by the same code, that
// holds the string as of the last Δ: the string's splices since wait in a
// log (pending) for the next Δ, or a read, to replay them.
//
// Invariant: the register's value (get) is what the language says: the
// last text stored, or the whole string after the last Δ step, as it was
// then, whatever edits came after. Between edits, while shadowOn, the
// shadow with the pending splices replayed is the string. The pending
// splices and their symbols never outnumber the string's symbols (or
// longLen): beyond that the register is copied out, once for as many
// splices.
type register struct {
	own        []byte
	state      memState
	shadow     []byte
	shadowTail int
	shadowOn   bool
	pending    []pendingSplice
	pendingRHS []byte
	str        *gapBuffer // the string, which the register may be
	// copied counts the symbols copied into the register, the shadow and
	// the log, for tests to bound a step's cost.
	copied int
}

// edited is told of every edit before it is made. A step without Δ after
// a Δ step makes the register the shadow, which starts as a copy of the
// string if there is none yet; the shadow follows every edit, at once
// while it is not the register and through the log while it is; a Δ step
// makes the string the register.
func (r *register) edited(start, end, _ int, added []byte, _ int, whole bool, _ *removal) {
	if r.state != memOwn || r.shadowOn || whole {
		r.follow(start, end, added, whole)
	}
}

func (r *register) follow(start, end int, added []byte, whole bool) {
	if r.state == memString && !whole {
		if !r.shadowOn {
			r.startShadow()
		}
		r.state = memShadow
	}
	switch {
	case !r.shadowOn:
	case r.state == memShadow:
		r.pending = append(r.pending, pendingSplice{start: start, end: end, from: len(r.pendingRHS), n: len(added)})
		r.pendingRHS = append(r.pendingRHS, added...)
		r.copied += len(added)
		// A log as long as the string pays for copying the register out,
		// after which the shadow follows the string directly.
		if len(r.pending)+len(r.pendingRHS) > max(r.str.length(), longLen) {
			r.get()
		}
	default:
		r.spliceShadow(start, end, added)
	}
	if whole {
		r.catchUp()
		r.state = memString
	}
}

// get returns the register as one slice, copying it into own if it is the
// string or the shadow.
func (r *register) get() []byte {
	if r.state != memOwn {
		r.own = r.appendTo(r.own[:0])
		r.catchUp()
		r.state = memOwn
	}
	return r.own
}

// appendTo appends the register to out.
func (r *register) appendTo(out []byte) []byte {
	n := len(out)
	switch r.state {
	case memOwn:
		out = append(out, r.own...)
	case memString:
		out = append(append(out, r.str.head...), r.str.tailBytes()...)
	case memShadow:
		out = append(append(out, r.shadow...), gapTail(r.shadow, r.shadowTail)...)
	}
	r.copied += len(out) - n
	return out
}

// set makes b, a capture of the match or a caller's bytes, the register.
func (r *register) set(b []byte) {
	r.catchUp()
	r.state = memOwn
	r.own = append(r.own[:0], b...)
	r.copied += len(b)
}

// dropShadow makes the register the machine's own copy and forgets the
// shadow, before a run replaces the string.
func (r *register) dropShadow() {
	r.get()
	r.shadowOn = false
}

// startShadow makes the shadow a copy of the string, in its buffer of an
// earlier run if that is large enough.
func (r *register) startShadow() {
	n := r.str.length()
	if cap(r.shadow) < n {
		r.shadow = make([]byte, 0, max(2*n, shortCap))
	}
	r.shadow = append(append(r.shadow[:0], r.str.head...), r.str.tailBytes()...)
	r.shadowTail = 0
	r.shadowOn = true
	r.copied += n
}

// catchUp replays the pending splices on the shadow.
func (r *register) catchUp() {
	for _, p := range r.pending {
		r.spliceShadow(p.start, p.end, r.pendingRHS[p.from:p.from+p.n])
	}
	r.pending, r.pendingRHS = r.pending[:0], r.pendingRHS[:0]
}

// spliceShadow replaces shadow[start:end] by rhs.
func (r *register) spliceShadow(start, end int, rhs []byte) {
	var moved int
	r.shadow, r.shadowTail, moved = spliceGap(r.shadow, r.shadowTail, start, end, rhs)
	r.copied += moved
}
