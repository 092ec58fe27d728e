package vm

import (
	"fmt"
	"strconv"
	"strings"
)

var opNames = [...]string{
	OpSym:         "sym",
	OpLit:         "lit",
	OpAny:         "any",
	OpSplit:       "split",
	OpJmp:         "jmp",
	OpSave:        "save",
	OpBackref:     "backref",
	OpMatch:       "match",
	OpEmit:        "emit",
	OpEmitCapture: "emitcap",
	OpEmitMemory:  "emitmem",
	OpSkipUnbound: "skipunbound",
	OpDone:        "done",
}

func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "Op(" + strconv.Itoa(int(op)) + ")"
}

// Disasm prints the program readably: the symbols, then each rule with its
// position, flags, left-hand side (a literal, or matcher code) and writer
// code. Instructions are numbered by pc and name symbols, not codes. It
// prints invalid programs too, marking what it cannot resolve with '?'.
func (p *Program) Disasm() string {
	var b strings.Builder
	fmt.Fprintf(&b, "alphabet%s\n", p.symbolList(0, min(p.AlphabetSize, len(p.Symbols))))
	if len(p.Symbols) > p.AlphabetSize {
		fmt.Fprintf(&b, "others%s\n", p.symbolList(max(p.AlphabetSize, 0), len(p.Symbols)))
	}
	fmt.Fprintf(&b, "captures %d\n", p.NumCaptures)
	for i, r := range p.Rules {
		fmt.Fprintf(&b, "rule %d at %s", i, r.Pos)
		if r.Terminating {
			b.WriteString(" terminating")
		}
		if r.Plain {
			b.WriteString(" plain")
		}
		if r.Store >= 0 {
			fmt.Fprintf(&b, " store %d", r.Store)
		}
		if r.StoreWhole {
			b.WriteString(" storewhole")
		}
		b.WriteByte('\n')
		if r.Plain {
			fmt.Fprintf(&b, "  lit %s\n", p.quote(r.Literal))
		} else {
			b.WriteString("  match:\n")
			p.disasmBlock(&b, r.Match)
		}
		b.WriteString("  write:\n")
		p.disasmBlock(&b, r.Write)
	}
	return b.String()
}

// disasmBlock prints the code reachable from start.
func (p *Program) disasmBlock(b *strings.Builder, start int) {
	for pc := max(start, 0); pc < p.blockEnd(start); pc++ {
		fmt.Fprintf(b, "  %4d %s\n", pc, p.disasmInstr(p.Code[pc]))
	}
}

func (p *Program) disasmInstr(in Instr) string {
	switch in.Op {
	case OpSym:
		return fmt.Sprintf("sym %s", p.symbolName(int(in.A)))
	case OpLit, OpEmit:
		if in.A < 0 || in.B < 0 || int(in.A)+int(in.B) > len(p.Literals) {
			return fmt.Sprintf("%s ?%d+%d", in.Op, in.A, in.B)
		}
		return fmt.Sprintf("%s %s", in.Op, p.quote(p.Literals[in.A:in.A+in.B]))
	case OpAny:
		if in.A == 0 {
			return "any"
		}
		var names []string
		if in.A >= 0 && int(in.A) < len(p.Sets) {
			for c := range len(p.Symbols) {
				if p.Sets[in.A].Has(byte(c)) {
					names = append(names, p.symbolName(c))
				}
			}
		} else {
			names = []string{"?"}
		}
		return fmt.Sprintf("any except#%d {%s}", in.A, strings.Join(names, " "))
	case OpSplit, OpJmp:
		return fmt.Sprintf("%s ->%d", in.Op, in.A)
	case OpSave, OpBackref, OpEmitCapture:
		return fmt.Sprintf("%s %d", in.Op, in.A)
	case OpSkipUnbound:
		return fmt.Sprintf("skipunbound %d ->%d", in.A, in.B)
	}
	return in.Op.String()
}

// quote prints a run of symbols as their names, separated by spaces, in
// double quotes.
func (p *Program) quote(run []byte) string {
	names := make([]string, len(run))
	for i, c := range run {
		names[i] = p.symbolName(int(c))
	}
	return `"` + strings.Join(names, " ") + `"`
}

// symbolList prints the names of codes from..to-1, each after a space.
func (p *Program) symbolList(from, to int) string {
	var b strings.Builder
	for c := from; c < to; c++ {
		b.WriteString(" " + p.symbolName(c))
	}
	return b.String()
}

// symbolName returns the name of symbol code c as Disasm prints it: a name
// that would be ambiguous in a listing (empty, or with a space, quote,
// brace, backslash or unprintable character) is single-quoted with Go
// escapes, as ' ' for a space.
func (p *Program) symbolName(c int) string {
	if c < 0 || c >= len(p.Symbols) {
		return "?" + strconv.Itoa(c)
	}
	name := p.Symbols[c]
	escaped := strconv.Quote(name)
	escaped = escaped[1 : len(escaped)-1]
	if name != "" && escaped == name && !strings.ContainsAny(name, " '{}") {
		return name
	}
	return "'" + strings.ReplaceAll(escaped, "'", `\'`) + "'"
}
