package vm

import "fmt"

// Validate reports the first way p breaks an invariant that the machine
// relies on instead of checking it while it runs: every symbol code names a
// symbol, every operand is in range, code only jumps forward (so every match
// ends), matcher code reaches only matcher instructions and ends in
// OpMatch, writer code reaches only writer instructions and ends in OpDone.
func (p *Program) Validate() error {
	if len(p.Symbols) > 256 {
		return fmt.Errorf("vm: %d symbols, at most 256 fit a byte", len(p.Symbols))
	}
	if p.AlphabetSize < 0 || p.AlphabetSize > len(p.Symbols) {
		return fmt.Errorf("vm: alphabet size %d, with %d symbols", p.AlphabetSize, len(p.Symbols))
	}
	if p.NumCaptures < 0 {
		return fmt.Errorf("vm: %d captures", p.NumCaptures)
	}
	if err := p.checkRun(p.Literals); err != nil {
		return fmt.Errorf("vm: literals: %w", err)
	}
	for i, r := range p.Rules {
		if r.Store >= p.NumCaptures {
			return fmt.Errorf("vm: rule %d: stores capture %d of %d", i, r.Store, p.NumCaptures)
		}
		if r.Plain {
			if r.Store >= 0 {
				return fmt.Errorf("vm: rule %d: a plain rule has no capture to store", i)
			}
			if err := p.checkRun(r.Literal); err != nil {
				return fmt.Errorf("vm: rule %d: %w", i, err)
			}
		} else if err := p.checkCode(r.Match, false); err != nil {
			return fmt.Errorf("vm: rule %d: matcher: %w", i, err)
		}
		if err := p.checkCode(r.Write, true); err != nil {
			return fmt.Errorf("vm: rule %d: writer: %w", i, err)
		}
	}
	return nil
}

func (p *Program) checkRun(run []byte) error {
	for _, c := range run {
		if int(c) >= len(p.Symbols) {
			return fmt.Errorf("symbol code %d of %d", c, len(p.Symbols))
		}
	}
	return nil
}

// checkCode checks the instructions reachable from start, in pc order:
// since jumps go forward, a pc's predecessors are all checked before it.
func (p *Program) checkCode(start int, writer bool) error {
	if start < 0 || start >= len(p.Code) {
		return fmt.Errorf("starts at pc %d of %d", start, len(p.Code))
	}
	reachable := make([]bool, len(p.Code))
	reachable[start] = true
	for pc := start; pc < len(p.Code); pc++ {
		if !reachable[pc] {
			continue
		}
		in := p.Code[pc]
		if err := p.checkInstr(pc, in, writer); err != nil {
			return fmt.Errorf("pc %d: %s: %w", pc, in.Op, err)
		}
		switch in.Op {
		case OpSplit, OpJmp:
			reachable[in.A] = true
		case OpSkipUnbound:
			reachable[in.B] = true
		}
		switch in.Op {
		case OpMatch, OpDone, OpJmp:
		default:
			if pc+1 == len(p.Code) {
				return fmt.Errorf("pc %d: %s: runs off the end of the code", pc, in.Op)
			}
			reachable[pc+1] = true
		}
	}
	return nil
}

func (p *Program) checkInstr(pc int, in Instr, writer bool) error {
	isWriter := in.Op >= OpEmit && in.Op <= OpDone
	isMatcher := in.Op <= OpMatch
	switch {
	case writer && !isWriter:
		return fmt.Errorf("not a writer instruction")
	case !writer && !isMatcher:
		return fmt.Errorf("not a matcher instruction")
	}
	a, b := int(in.A), int(in.B)
	switch in.Op {
	case OpSym:
		if a < 0 || a >= len(p.Symbols) {
			return fmt.Errorf("symbol code %d of %d", a, len(p.Symbols))
		}
	case OpLit, OpEmit:
		if a < 0 || b < 0 || a+b > len(p.Literals) {
			return fmt.Errorf("literal %d+%d of %d", a, b, len(p.Literals))
		}
	case OpAny:
		if a < 0 || a >= len(p.Sets) {
			return fmt.Errorf("set %d of %d", a, len(p.Sets))
		}
	case OpSplit, OpJmp:
		return p.checkTarget(pc, a)
	case OpSave:
		if a < 0 || a >= 2*p.NumCaptures {
			return fmt.Errorf("slot %d of %d", a, 2*p.NumCaptures)
		}
	case OpBackref, OpEmitCapture:
		return p.checkCapture(a)
	case OpSkipUnbound:
		if err := p.checkCapture(a); err != nil {
			return err
		}
		return p.checkTarget(pc, b)
	}
	return nil
}

func (p *Program) checkTarget(pc, target int) error {
	if target <= pc || target >= len(p.Code) {
		return fmt.Errorf("target %d is not a later pc of %d", target, len(p.Code))
	}
	return nil
}

func (p *Program) checkCapture(k int) error {
	if k < 0 || k >= p.NumCaptures {
		return fmt.Errorf("capture %d of %d", k, p.NumCaptures)
	}
	return nil
}
