package vm

import (
	"fmt"
	"strings"
)

// Encode turns symbols into the program's codes. A symbol the program does
// not know is an error: compile with the input's symbols to intern them.
func (p *Program) Encode(symbols []string) ([]byte, error) {
	out := make([]byte, len(symbols))
	for i, s := range symbols {
		c, ok := p.code(s)
		if !ok {
			return nil, fmt.Errorf("symbol %s is not known to the program", s)
		}
		out[i] = c
	}
	return out, nil
}

func (p *Program) code(sym string) (byte, bool) {
	for c, s := range p.Symbols {
		if s == sym {
			return byte(c), true
		}
	}
	return 0, false
}

// Decode turns codes into symbols.
func (p *Program) Decode(codes []byte) []string {
	out := make([]string, len(codes))
	for i, c := range codes {
		out[i] = p.Symbols[c]
	}
	return out
}

// Text spells a string as its symbols juxtaposed, the way the papers write
// interaction strings.
func (p *Program) Text(codes []byte) string {
	var b strings.Builder
	for _, c := range codes {
		b.WriteString(p.Symbols[c])
	}
	return b.String()
}
