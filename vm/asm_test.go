package vm

import (
	"strings"
	"testing"
)

// asm assembles programs for tests. Symbols are written by name, separated
// by spaces; the code of a rule is written with jump targets relative to the
// start of its block.
type asm struct {
	t     testing.TB
	prog  Program
	codes map[string]byte
}

// newAsm starts a program whose alphabet is the symbols in alphabet, in
// order, followed by the symbols in others, which χ never matches.
func newAsm(t testing.TB, alphabet, others string) *asm {
	a := &asm{t: t, codes: map[string]byte{}}
	a.prog.Sets = []SymSet{{}}
	for _, name := range strings.Fields(alphabet + " " + others) {
		a.codes[name] = byte(len(a.prog.Symbols))
		a.prog.Symbols = append(a.prog.Symbols, name)
	}
	a.prog.AlphabetSize = len(strings.Fields(alphabet))
	return a
}

// str returns the codes of the symbols in text.
func (a *asm) str(text string) []byte {
	var s []byte
	for _, name := range strings.Fields(text) {
		c, ok := a.codes[name]
		if !ok {
			a.t.Fatalf("unknown symbol %q", name)
		}
		s = append(s, c)
	}
	return s
}

// text returns the names of the symbols of s, separated by spaces.
func (a *asm) text(s []byte) string {
	names := make([]string, len(s))
	for i, c := range s {
		names[i] = a.prog.Symbols[c]
	}
	return strings.Join(names, " ")
}

func (a *asm) literal(text string) (at, n int32) {
	s := a.str(text)
	at = int32(len(a.prog.Literals))
	a.prog.Literals = append(a.prog.Literals, s...)
	return at, int32(len(s))
}

func (a *asm) sym(name string) Instr { return Instr{Op: OpSym, A: int32(a.str(name)[0])} }

func (a *asm) lit(text string) Instr {
	at, n := a.literal(text)
	return Instr{Op: OpLit, A: at, B: n}
}

// any matches a symbol of the alphabet except those in except.
func (a *asm) any(except string) Instr {
	if except == "" {
		return Instr{Op: OpAny}
	}
	var set SymSet
	for _, c := range a.str(except) {
		set.Add(c)
	}
	a.prog.Sets = append(a.prog.Sets, set)
	return Instr{Op: OpAny, A: int32(len(a.prog.Sets) - 1)}
}

func (a *asm) emit(text string) Instr {
	at, n := a.literal(text)
	return Instr{Op: OpEmit, A: at, B: n}
}

func split(to int32) Instr          { return Instr{Op: OpSplit, A: to} }
func jmp(to int32) Instr            { return Instr{Op: OpJmp, A: to} }
func save(slot int32) Instr         { return Instr{Op: OpSave, A: slot} }
func backref(k int32) Instr         { return Instr{Op: OpBackref, A: k} }
func match() Instr                  { return Instr{Op: OpMatch} }
func emitCap(k int32) Instr         { return Instr{Op: OpEmitCapture, A: k} }
func emitMem() Instr                { return Instr{Op: OpEmitMemory} }
func skipUnbound(k, to int32) Instr { return Instr{Op: OpSkipUnbound, A: k, B: to} }
func done() Instr                   { return Instr{Op: OpDone} }
func code(instrs ...Instr) []Instr  { return instrs }
func terminating(r *Rule)           { r.Terminating = true }
func storeWhole(r *Rule)            { r.StoreWhole = true }
func store(k int) func(*Rule)       { return func(r *Rule) { r.Store = k } }

// plain adds the rule lhs -> rhs; ∇ in rhs recalls the memory.
func (a *asm) plain(lhs, rhs string, flags ...func(*Rule)) {
	var write []Instr
	var run []string
	flush := func() {
		if len(run) > 0 {
			write = append(write, a.emit(strings.Join(run, " ")))
			run = nil
		}
	}
	for _, name := range strings.Fields(rhs) {
		if name == "∇" {
			flush()
			write = append(write, emitMem())
		} else {
			run = append(run, name)
		}
	}
	flush()
	a.addRule(Rule{Plain: true, Literal: a.str(lhs), Write: a.block(append(write, done()))}, flags)
}

// sugared adds a rule with the given matcher and writer code.
func (a *asm) sugared(matcher, writer []Instr, flags ...func(*Rule)) {
	a.addRule(Rule{Match: a.block(matcher), Write: a.block(writer)}, flags)
}

func (a *asm) addRule(r Rule, flags []func(*Rule)) {
	r.Pos = Pos{Line: len(a.prog.Rules) + 1, Col: 1}
	r.Store = -1
	for _, f := range flags {
		f(&r)
	}
	a.prog.NumCaptures = max(a.prog.NumCaptures, r.Store+1)
	a.prog.Rules = append(a.prog.Rules, r)
}

// block appends code, relocating its jumps, and returns its pc.
func (a *asm) block(instrs []Instr) int {
	base := int32(len(a.prog.Code))
	for _, in := range instrs {
		switch in.Op {
		case OpSplit, OpJmp:
			in.A += base
		case OpSkipUnbound:
			in.B += base
		}
		switch in.Op {
		case OpSave:
			a.prog.NumCaptures = max(a.prog.NumCaptures, int(in.A)/2+1)
		case OpBackref, OpEmitCapture, OpSkipUnbound:
			a.prog.NumCaptures = max(a.prog.NumCaptures, int(in.A)+1)
		}
		a.prog.Code = append(a.prog.Code, in)
	}
	return int(base)
}

// build returns the program, which must be valid.
func (a *asm) build() *Program {
	a.t.Helper()
	if err := a.prog.Validate(); err != nil {
		a.t.Fatal(err)
	}
	return &a.prog
}
