package vm

// Runs of one erasure. Observations are mostly separators, and a common
// first job of a program is to erase them: (π|ω1|S|L|R|:) -> takes a
// 400-cell observation apart one ':' a step, from the right. Each of those
// steps finds the same literal of the same rule next to where the last
// one was; the machine can tell when that is so without searching, and
// then does all of them in one splice.
//
// Say a step erased the rightmost occurrence of the literal c^l (l ≥ 1
// copies of one symbol c), ranked r (rule order, then expansion order, as
// the scanner ranks them), so that no literal ranked before r occurred in
// the string s0 = A c^k c^l B, where c^k is the run of c's before the
// literal. Erasing c^l at the join t-1 more times gives
// st = A c^(k-(t-1)l) B. Let b be the length of the longest literal ranked
// before r. While the run left, k-(t-1)l, is at least b-1, no such literal
// occurs in st: within A c^(k-(t-1)l), a prefix of s0, or within B, a
// suffix, it would have occurred in s0; across the join, it would have to
// start in the run (from A it would span the run and more, over b
// symbols), and c^(k-(t-1)l) B is a substring of s0 too. While the run
// left is at least l, the rightmost occurrence of c^l ends at the join:
// none lies in B, and none straddles the join, as B does not start with c
// (c^l would have occurred further right in s0). So as long as the run
// left is at least max(l, b-1), the next step erases c^l at the join
// again: (k-max(l, b-1))/l+1 steps, done at once. Leftmost mode is the
// mirror image. What a step leaves behind is what the last of them
// would: the rule is the same, and so is the capture it stores (the
// literal's own symbols); and the components that follow the string see
// one edit (edit.go): the counts drop by what was erased, the rules before
// r are known absent except across the join, the scan state and the facts
// see one splice.
//
// The ranks and b need every rule up to r expanded and covered by the
// scanner, which is so in programs whose leading rules are expanded, once
// the machine has built its scanner (scan.go: a program of a few rules
// builds it in its first steps). It is not done while a trace watches
// each step, or past the step limit.
// In the gap buffer, the step that erased the first occurrence left the
// gap at the join, and the run lies at the end of the head (rightmost) or
// the start of the tail (leftmost), which shrinks without moving a
// symbol (spliceGap). TestRepeatAgrees, FuzzRepeat and
// FuzzLong compare it with a machine that erases one step at a time.

// repeat follows a step that erased the occurrence of the literal ranked
// rank that started at at (in the string before the step; at is the join
// now) with the same step, as many times as it is sure to come next, in
// one edit.
func (m *Machine) repeat(rank int32, at int, leftmost bool) {
	ref := &m.scan.scanner.ranks[rank]
	if !ref.repeat || m.noRepeat || m.trace != nil || m.res.Steps >= m.maxSteps {
		return
	}
	// The symbols on the side the erasures go: the string's, or in the
	// gap buffer, whose gap the step left at the join, the head's or the
	// tail's.
	head, c, l := m.str.head, ref.sym, ref.length
	if m.str.tail > 0 && at != len(head) {
		return
	}
	var k int // the run of c's at the join, on that side
	switch {
	case leftmost && m.str.tail > 0:
		k = runFrom(m.str.tailBytes(), 0, c)
	case leftmost:
		k = runFrom(head, at, c)
	default:
		k = runBefore(head, at, c)
	}
	need := max(l, ref.before-1)
	if k < need {
		return
	}
	steps := min((k-need)/l+1, m.maxSteps-m.res.Steps)
	n := steps * l
	from := at
	if !leftmost {
		from = at - n
	}
	m.commit(ref.rule, from, from+n, nil, m.unbound, &removal{sym: c, run: true}, steps)
}
