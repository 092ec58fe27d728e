package vm

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	// Each case breaks the alternation program:
	//   0 save 0, 1 split ->4, 2 sym x, 3 jmp ->5, 4 sym y, 5 save 1, 6 sym a, 7 match
	//   8 emit "z", 9 emitcap 0, 10 done
	for _, tt := range []struct {
		breakIt func(p *Program)
		want    string
	}{
		{func(p *Program) {}, ""},
		{func(p *Program) { p.Symbols = append(p.Symbols, make([]string, 256)...) }, "260 symbols"},
		{func(p *Program) { p.AlphabetSize = 5 }, "alphabet size 5, with 4 symbols"},
		{func(p *Program) { p.NumCaptures = -1 }, "-1 captures"},
		{func(p *Program) { p.Literals[0] = 7 }, "literals: symbol code 7 of 4"},
		{func(p *Program) { p.Rules[0].Store = 1 }, "rule 0: stores capture 1 of 1"},
		{func(p *Program) { p.Rules[0].Match = 11 }, "rule 0: matcher: starts at pc 11 of 11"},
		{func(p *Program) { p.Code[3].A = 3 }, "pc 3: jmp: target 3 is not a later pc of 11"},
		{func(p *Program) { p.Code[1].A = 20 }, "pc 1: split: target 20 is not a later pc of 11"},
		{func(p *Program) { p.Code[7] = Instr{Op: OpDone} }, "matcher: pc 7: done: not a matcher instruction"},
		{func(p *Program) { p.Code[10] = Instr{Op: OpMatch} }, "writer: pc 10: match: not a writer instruction"},
		{func(p *Program) { p.Code[7] = Instr{Op: 13} }, "pc 7: Op(13): not a matcher instruction"},
		{func(p *Program) { p.Code[10] = p.Code[9] }, "writer: pc 10: emitcap: runs off the end of the code"},
		{func(p *Program) { p.Code[2].A = 4 }, "pc 2: sym: symbol code 4 of 4"},
		{func(p *Program) { p.Code[8].B = 9 }, "pc 8: emit: literal 0+9 of 1"},
		{func(p *Program) { p.Code[0].A = 2 }, "pc 0: save: slot 2 of 2"},
		{func(p *Program) { p.Code[9].A = 1 }, "pc 9: emitcap: capture 1 of 1"},
		{func(p *Program) { p.Code[2] = Instr{Op: OpAny, A: 1} }, "pc 2: any: set 1 of 1"},
		{func(p *Program) { p.Code[2] = Instr{Op: OpBackref, A: -1} }, "pc 2: backref: capture -1 of 1"},
		{func(p *Program) { p.Code[9] = Instr{Op: OpSkipUnbound, A: 0, B: 9} }, "pc 9: skipunbound: target 9 is not a later pc"},
		{func(p *Program) {
			p.Rules = append(p.Rules, Rule{Plain: true, Literal: []byte{9}, Write: 8, Store: -1})
		}, "rule 1: symbol code 9 of 4"},
		{func(p *Program) { p.Rules = append(p.Rules, Rule{Plain: true, Write: 8, Store: 0}) }, "rule 1: a plain rule has no capture to store"},
	} {
		a := newAsm(t, "x y a z", "")
		alternation(a)
		p := a.build()
		tt.breakIt(p)
		err := p.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("valid program: %v", err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("got error %v, want one containing %q", err, tt.want)
		}
	}
}
