package vm

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Each component that follows the string's edits (edit.go) keeps an
// invariant; these tests check it after every one of many random edits
// against a recomputation from scratch on the string spliced plainly.
// The machine-level tests (TestLongAgrees, TestRepeatAgrees, the fuzzers)
// check that the components together change no run.

// editTrials is how many random strings each component test edits.
func editTrials() int {
	if testing.Short() {
		return 50
	}
	return 300
}

// randomSymbols returns n symbols drawn from the first k codes.
func randomSymbols(rng *rand.Rand, n, k int) []byte {
	s := make([]byte, n)
	for i := range s {
		s[i] = byte(rng.IntN(k))
	}
	return s
}

// randomString returns a string of k symbols, mostly short, sometimes
// longer than longLen.
func randomString(rng *rand.Rand, k int) []byte {
	n := rng.IntN(80)
	if rng.IntN(4) == 0 {
		n = rng.IntN(3 * longLen)
	}
	return randomSymbols(rng, n, k)
}

// An edit, as the tests draw it and tell the components of it: the
// arguments of edited (edit.go).
type edit struct {
	start, end, newLen, rule int
	added                    []byte
	whole                    bool
	removed                  removal
}

// tell tells o of e.
func (e *edit) tell(o editObserver) {
	o.edited(e.start, e.end, e.newLen, e.added, e.rule, e.whole, &e.removed)
}

// randomEdit draws an edit of s: a span of up to 8 symbols replaced by up
// to 8, or, a quarter of the time, a run of one symbol erased, as repeat
// erases them; whole a tenth of the time.
func randomEdit(rng *rand.Rand, s []byte, k int) edit {
	start := rng.IntN(len(s) + 1)
	e := edit{start: start, rule: rng.IntN(5), whole: rng.IntN(10) == 0}
	if rng.IntN(4) == 0 && start < len(s) {
		e.removed = removal{sym: s[start], run: true}
		e.end = start + 1
		for e.end < len(s) && s[e.end] == e.removed.sym && rng.IntN(20) > 0 {
			e.end++
		}
	} else {
		e.end = start + rng.IntN(min(len(s)-start, 8)+1)
		e.removed.text = slices.Clone(s[start:e.end])
		e.added = randomSymbols(rng, rng.IntN(9), k)
	}
	e.newLen = len(s) - (e.end - e.start) + len(e.added)
	return e
}

// spliced returns s with e applied, in a new slice.
func spliced(s []byte, e *edit) []byte {
	return slices.Concat(s[:e.start], e.added, s[e.end:])
}

// occurrences returns the starts of the occurrences of lit in s.
func occurrences(s, lit []byte) []int {
	var at []int
	for p := 0; p+len(lit) <= len(s); p++ {
		if bytes.HasPrefix(s[p:], lit) {
			at = append(at, p)
		}
	}
	return at
}

// The counts are the string's symbols after every edit, recounted from
// scratch; stale counts are left alone until recounted.
func TestCountsFollowEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for range editTrials() {
		s := randomString(rng, 4)
		var g gapBuffer
		g.load(s)
		var c symbolCounts
		c.recountAll(&g)
		for range 40 {
			e := randomEdit(rng, s, 4)
			e.tell(&c)
			s = spliced(s, &e)
			var want [256]int32
			for _, x := range s {
				want[x]++
			}
			if c.n != want {
				t.Fatalf("after %+v: counts %v, want %v", e, c.n[:4], want[:4])
			}
		}
		c.stale = true
		before := c.n
		e := randomEdit(rng, s, 4)
		if e.tell(&c); c.n != before {
			t.Fatalf("stale counts changed by %+v", e)
		}
	}
}

// After an edit by rule r, every occurrence of a literal that did not
// occur before it starts where starts says, and the rules before r are
// the ones known absent.
func TestRecentEditBoundsNewOccurrences(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	for range editTrials() {
		s := randomSymbols(rng, rng.IntN(60), 3)
		var absent [][]byte
		for range 20 {
			if lit := randomSymbols(rng, 1+rng.IntN(4), 3); !bytes.Contains(s, lit) {
				absent = append(absent, lit)
			}
		}
		e := randomEdit(rng, s, 3)
		var r recentEdit
		e.tell(&r)
		if r.absent != e.rule {
			t.Fatalf("absent %d after an edit by rule %d", r.absent, e.rule)
		}
		after := spliced(s, &e)
		for _, lit := range absent {
			lo, hi := r.starts(len(lit))
			for _, p := range occurrences(after, lit) {
				if p < lo || p > hi {
					t.Fatalf("%v, absent from %v, occurs at %d in %v after %+v; starts says [%d, %d]", lit, s, p, after, e, lo, hi)
				}
			}
		}
	}
}

// A fact carried across the logged splices holds every occurrence of its
// literal, whether it was set exactly (as a search sets it), loosely, or
// not at all; a fact older than the log, or than the run, is forgotten.
func TestFactsHoldEveryOccurrence(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	for trial := range editTrials() {
		s := randomString(rng, 2)
		lits := make([][]byte, 4)
		for i := range lits {
			lits[i] = randomSymbols(rng, 1+rng.IntN(3), 2)
		}
		f := factLog{num: len(lits)}
		f.newRun()
		f.start()
		// set makes literal i's fact its occurrences in s, widened by up
		// to two positions each way, or leaves it as it is.
		set := func(i int) {
			at := occurrences(s, lits[i])
			switch {
			case rng.IntN(4) == 0:
			case len(at) == 0:
				f.set(i, 1, 0)
			default:
				f.set(i, at[0]-rng.IntN(3), at[len(at)-1]+rng.IntN(3))
			}
		}
		for i := range lits {
			set(i)
		}
		edits, refresh := 30, 8
		if trial%50 == 0 {
			edits, refresh = logLen+10, math.MaxInt // the first facts expire
		}
		for range edits {
			e := randomEdit(rng, s, 2)
			e.tell(&f)
			s = spliced(s, &e)
			for i, lit := range lits {
				lo, hi := f.of(i, len(lit), len(s))
				for _, p := range occurrences(s, lit) {
					if p < lo || p > hi {
						t.Fatalf("%v occurs at %d of %d symbols; its fact says [%d, %d]", lit, p, len(s), lo, hi)
					}
				}
			}
			if rng.IntN(refresh) == 0 {
				set(rng.IntN(len(lits)))
			}
		}
		if edits > logLen { // the facts, set before the edits, are older than the log
			for i, lit := range lits {
				if lo, hi := f.of(i, len(lit), len(s)); lo != 0 || hi != len(s)-len(lit) {
					t.Fatalf("a fact %d splices old reads [%d, %d] of %d symbols", edits, lo, hi, len(s))
				}
			}
		}
		f.newRun()
		for i, lit := range lits {
			if lo, hi := f.of(i, len(lit), len(s)); lo != 0 || hi != len(s)-len(lit) {
				t.Fatalf("a new run reads the fact [%d, %d] of %d symbols", lo, hi, len(s))
			}
		}
	}
}

// After an edit, the scan points up to valid are those of a scan of the
// new string from its start, and a scan resumed there finds what a fresh
// scan finds.
func TestScanStateResumes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	symbols := []string{"a", "b", "c"}
	for range editTrials() {
		a := newAsm(t, "a b c", "")
		randomPlainRules(rng, a, symbols, 6)
		m := withScanner(New(a.build()))
		sc := m.scan.scanner
		if sc == nil {
			continue // only empty left-hand sides
		}
		leftmost := rng.IntN(2) == 0
		s := randomSymbols(rng, rng.IntN(2*scanMaxLen), 3)
		var st scanState
		sc.scan(s, leftmost, &st)
		for range 20 {
			e := randomEdit(rng, s, 3)
			e.tell(&st)
			s = spliced(s, &e)
			var fresh scanState
			wantRank, wantAt := sc.scan(s, leftmost, &fresh)
			points := st.at[:cap(st.at)]
			for i := range st.valid + 1 {
				if points[i] != fresh.at[i] {
					t.Fatalf("after %+v, point %d (valid %d) is %+v, from scratch %+v", e, i, st.valid, points[i], fresh.at[i])
				}
			}
			if rank, at := sc.scan(s, leftmost, &st); rank != wantRank || at != wantAt {
				t.Fatalf("resumed scan: rank %d at %d, from scratch %d at %d", rank, at, wantRank, wantAt)
			}
		}
	}
}

// The gap buffer holds the string spliced plainly after every edit,
// contiguous while it is short or read whole, and finds what a search of
// the plain string finds.
func TestGapBufferFollowsEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	for range editTrials() {
		s := randomString(rng, 3)
		g := gapBuffer{longLen: []int{0, rng.IntN(4), longLen, math.MaxInt}[rng.IntN(4)], whole: rng.IntN(5) == 0}
		g.load(s)
		for range 60 {
			e := randomEdit(rng, s, 3)
			e.tell(&g)
			s = spliced(s, &e)
			if got := slices.Concat(g.head, g.tailBytes()); !bytes.Equal(got, s) || g.length() != len(s) {
				t.Fatalf("after %+v (longLen %d): %s", e, g.longLen, firstDiff(got, s))
			}
			if g.tail > 0 && (len(s) <= g.longLen || g.whole) {
				t.Fatalf("a string of %d symbols (longLen %d, whole %v) is gapped", len(s), g.longLen, g.whole)
			}
			if cap(g.head) < shortCap {
				t.Fatalf("capacity %d", cap(g.head))
			}
			lit := randomSymbols(rng, 1+rng.IntN(3), 3)
			lo, hi := rng.IntN(len(s)+2)-1, rng.IntN(len(s)+2)-1
			leftmost := rng.IntN(2) == 0
			want := -1
			for _, p := range occurrences(s, lit) {
				if p >= lo && p <= hi && (want < 0 || !leftmost) {
					want = p
				}
			}
			if at := g.search(lit, lo, hi, leftmost); at != want {
				t.Fatalf("%v in [%d, %d] of %d symbols, gap at %d, leftmost %v: at %d, want %d", lit, lo, hi, len(s), len(g.head), leftmost, at, want)
			}
		}
		g.flatten()
		if g.tail != 0 || !bytes.Equal(g.head, s) {
			t.Fatalf("flattened: %s", firstDiff(g.head, s))
		}
	}
}

// The register holds what was stored last, the text set or the whole
// string after the last Δ as it was then, whatever edits come after; while
// the shadow is on, it with the pending splices replayed is the string.
func TestRegisterFollowsEdits(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 6))
	for range editTrials() {
		s := randomString(rng, 3)
		g := gapBuffer{longLen: []int{rng.IntN(4), longLen}[rng.IntN(2)]}
		g.load(s)
		r := register{str: &g}
		var want []byte
		for range 200 {
			switch k := rng.IntN(20); {
			case k == 0:
				want = randomSymbols(rng, rng.IntN(5), 3)
				r.set(want)
			case k == 1:
				if got := r.get(); !bytes.Equal(got, want) {
					t.Fatalf("register %v, want %v", got, want)
				}
			default:
				e := randomEdit(rng, s, 3)
				e.tell(&r)
				if n := len(r.pending) + len(r.pendingRHS); n > max(len(s), longLen) {
					t.Fatalf("%d pending splices and symbols on a string of %d", n, len(s))
				}
				e.tell(&g)
				s = spliced(s, &e)
				if e.whole {
					want = slices.Clone(s)
				}
			}
			if got := r.appendTo(nil); !bytes.Equal(got, want) {
				t.Fatalf("register (state %d) %s", r.state, firstDiff(got, want))
			}
			if !r.shadowOn {
				continue
			}
			shadow := slices.Concat(r.shadow, gapTail(r.shadow, r.shadowTail))
			for _, p := range r.pending {
				shadow = slices.Concat(shadow[:p.start], r.pendingRHS[p.from:p.from+p.n], shadow[p.end:])
			}
			if !bytes.Equal(shadow, s) {
				t.Fatalf("the shadow, caught up, %s", firstDiff(shadow, s))
			}
		}
	}
}
