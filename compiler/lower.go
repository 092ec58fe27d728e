package compiler

import (
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/vm"
)

// lower emits the program. A rule whose left-hand side is only symbols,
// none marked, is Plain: the VM finds it with a byte search. Any other
// left-hand side becomes matcher code whose OpSplit order is the order of
// the ordered expansion (see vm.Program).
func (u *unit) lower() *vm.Program {
	p := &vm.Program{
		Symbols:      u.symbols,
		AlphabetSize: u.alphabet,
		Sets:         []vm.SymSet{{}},
		Rules:        make([]vm.Rule, 0, len(u.rules)),
	}
	e := &emitter{unit: u, prog: p}
	for i := range u.rules {
		info := &u.rules[i]
		r := vm.Rule{Pos: vm.Pos{File: info.rule.At.File, Line: info.rule.At.Line, Col: info.rule.At.Col}, Terminating: info.rule.Terminating, Store: -1}
		if lit, ok := e.literal(info.rule.LHS); ok && !info.marked {
			r.Plain, r.Literal = true, lit
		} else {
			e.info = info
			r.Match = len(p.Code)
			if info.marked {
				r.Store = len(info.bindings)
			}
			e.match(info.rule.LHS)
			e.op(vm.OpMatch, 0, 0)
		}
		r.Write = len(p.Code)
		e.info = info
		r.StoreWhole = e.write(info.rule.RHS)
		e.op(vm.OpDone, 0, 0)
		p.NumCaptures = max(p.NumCaptures, info.captures)
		p.Rules = append(p.Rules, r)
	}
	return p
}

// literal returns the codes of a side made only of symbols. The codes of
// the rules' literals are cut from shared chunks: a file of many short
// rules would otherwise make an allocation of a few bytes a rule.
func (e *emitter) literal(elems []lang.Elem) ([]byte, bool) {
	for _, el := range elems {
		if _, ok := el.(*lang.Symbol); !ok {
			return nil, false
		}
	}
	if cap(e.lits)-len(e.lits) < len(elems) || e.lits == nil {
		e.lits = make([]byte, 0, max(literalChunk, len(elems)))
	}
	start := len(e.lits)
	for _, el := range elems {
		e.lits = append(e.lits, e.codes[el.(*lang.Symbol).Name])
	}
	return e.lits[start:len(e.lits):len(e.lits)], true
}

// literalChunk is the size of the chunks literals are cut from.
const literalChunk = 4096

type emitter struct {
	*unit
	prog *vm.Program
	info *ruleInfo
	lits []byte // the chunk plain rules' literals are cut from
}

func (e *emitter) op(op vm.Op, a, b int) int {
	e.prog.Code = append(e.prog.Code, vm.Instr{Op: op, A: int32(a), B: int32(b)})
	return len(e.prog.Code) - 1
}

// patch points the jump at pc to the next instruction.
func (e *emitter) patch(pc int) { e.prog.Code[pc].A = int32(len(e.prog.Code)) }

func (e *emitter) literalRun(syms []byte) (offset, length int) {
	offset = len(e.prog.Literals)
	e.prog.Literals = append(e.prog.Literals, syms...)
	return offset, len(syms)
}

// match emits matcher code for a left-hand side sequence.
func (e *emitter) match(elems []lang.Elem) {
	var run []byte
	flush := func() {
		switch len(run) {
		case 0:
		case 1:
			e.op(vm.OpSym, int(run[0]), 0)
		default:
			off, n := e.literalRun(run)
			e.op(vm.OpLit, off, n)
		}
		run = nil
	}
	for _, el := range elems {
		if s, ok := el.(*lang.Symbol); ok && !s.Marked {
			run = append(run, e.codes[s.Name])
			continue
		}
		flush()
		e.marked(el, func() { e.element(el) })
	}
	flush()
}

// marked wraps an element marked ^Δ in the saves of the store capture.
func (e *emitter) marked(el lang.Elem, body func()) {
	if !isMarked(el) {
		body()
		return
	}
	store := len(e.info.bindings)
	e.op(vm.OpSave, 2*store, 0)
	body()
	e.op(vm.OpSave, 2*store+1, 0)
}

func isMarked(el lang.Elem) bool {
	switch el := el.(type) {
	case *lang.Symbol:
		return el.Marked
	case *lang.Wildcard:
		return el.Marked
	case *lang.Group:
		return el.Marked
	}
	return false
}

func (e *emitter) element(el lang.Elem) {
	if b, ok := e.info.backref[el]; ok {
		e.op(vm.OpBackref, b.capture, 0)
		return
	}
	switch el := el.(type) {
	case *lang.Symbol:
		e.op(vm.OpSym, int(e.codes[el.Name]), 0)
	case *lang.Wildcard:
		e.capture(el.Bind != "", e.info.bindings[el.Bind], func() { e.op(vm.OpAny, e.exclusion(el), 0) })
	case *lang.Group:
		e.group(el)
	}
}

// capture wraps body in the saves of a binding's capture when bound.
func (e *emitter) capture(bound bool, b *binding, body func()) {
	if !bound {
		body()
		return
	}
	e.op(vm.OpSave, 2*b.capture, 0)
	body()
	e.op(vm.OpSave, 2*b.capture+1, 0)
}

// group emits the alternatives as a chain of splits: the first alternative
// falls through, the others are tried in written order. An optional group
// first chooses present (fall through) or absent; its capture is saved only
// when present, so an absent optional leaves its subscript unbound.
func (e *emitter) group(g *lang.Group) {
	absent := -1
	if g.Optional {
		absent = e.op(vm.OpSplit, 0, 0)
	}
	b := e.info.bindings[g.Bind]
	e.capture(g.Bind != "", b, func() {
		var ends []int
		for i, alt := range g.Alts {
			next := -1
			if i < len(g.Alts)-1 {
				next = e.op(vm.OpSplit, 0, 0)
			}
			e.match(alt)
			if next >= 0 {
				ends = append(ends, e.op(vm.OpJmp, 0, 0))
				e.patch(next)
			}
		}
		for _, pc := range ends {
			e.patch(pc)
		}
	})
	if absent >= 0 {
		end := e.op(vm.OpJmp, 0, 0)
		e.patch(absent)
		e.patch(end)
	}
}

// exclusion returns the index of a wildcard's exclusion set (0: none).
func (e *emitter) exclusion(w *lang.Wildcard) int {
	if !w.HasExcept {
		return 0
	}
	var set vm.SymSet
	for _, s := range w.Except {
		set.Add(e.codes[s.Name])
	}
	e.prog.Sets = append(e.prog.Sets, set)
	return len(e.prog.Sets) - 1
}

// write emits writer code for a right-hand side and reports whether it
// stores the whole string.
func (e *emitter) write(elems []lang.Elem) (storeWhole bool) {
	var run []byte
	flush := func() {
		if len(run) > 0 {
			off, n := e.literalRun(run)
			e.op(vm.OpEmit, off, n)
		}
		run = nil
	}
	for _, el := range elems {
		if s, ok := el.(*lang.Symbol); ok {
			run = append(run, e.codes[s.Name])
			continue
		}
		flush()
		switch el := el.(type) {
		case *lang.Store:
			storeWhole = true
		case *lang.Recall:
			e.op(vm.OpEmitMemory, 0, 0)
		case *lang.Wildcard:
			e.op(vm.OpEmitCapture, e.info.bindings[el.Bind].capture, 0)
		case *lang.Group:
			if el.Bind != "" {
				e.op(vm.OpEmitCapture, e.info.bindings[el.Bind].capture, 0)
				continue
			}
			var skips []int
			for _, sub := range references(el.Alts[0]) {
				skips = append(skips, e.op(vm.OpSkipUnbound, e.info.bindings[sub].capture, 0))
			}
			storeWhole = e.write(el.Alts[0]) || storeWhole
			for _, pc := range skips {
				e.prog.Code[pc].B = int32(len(e.prog.Code))
			}
		}
	}
	flush()
	return storeWhole
}
