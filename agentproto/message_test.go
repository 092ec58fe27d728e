package agentproto

import (
	"errors"
	"fmt"
	"testing"
)

// quickAct reads exactly the act lines it claims, with the action
// parseReply reads from them, and leaves every other line to parseReply.
func TestQuickActAgreesWithTheDecoder(t *testing.T) {
	tests := []struct {
		line string
		want int
		ok   bool
	}{
		{`{"type": "act", "action": 2}`, 2, true},
		{`{"type":"act","action":0}`, 0, true},
		{`{"type":"act","action":12345}`, 12345, true},
		{`{"type": "act", "action": 07}`, 0, false},  // not JSON
		{`{"type": "act", "action": -1}`, 0, false},  // illegal
		{`{"type": "act", "action": 1.5}`, 0, false}, // illegal
		{`{"type": "act", "action": "1"}`, 0, false}, // illegal
		{`{"type": "act", "action": 1, "x": 2}`, 0, false},
		{`{"type": "act", "action": }`, 0, false},
		{`{"type": "act", "action": 1} `, 0, false},
		{`{"action": 1, "type": "act"}`, 0, false},
	}
	for _, tt := range tests {
		a, ok := quickAct([]byte(tt.line))
		if a != tt.want || ok != tt.ok {
			t.Errorf("quickAct(%s) = %d, %v; want %d, %v", tt.line, a, ok, tt.want, tt.ok)
		}
		if !ok {
			continue
		}
		r, pr := parseReply([]byte(tt.line), "act")
		if pr != nil {
			t.Fatalf("%s: parseReply: %v", tt.line, pr.kind)
		}
		if b, pr := r.action(1 << 20); pr != nil || b != a {
			t.Errorf("%s: quickAct reads %d, the decoder %d (%v)", tt.line, a, b, pr)
		}
	}
}

func TestParseReply(t *testing.T) {
	tests := []struct {
		line   string
		kind   error
		detail string
	}{
		{`this is not JSON`, ErrMalformed, "not a JSON object"},
		{`[1, 2]`, ErrMalformed, "not a JSON object"},
		{`{"type": "act", "action": 1`, ErrMalformed, "not a JSON object: unexpected end of JSON input"},
		{`{"action": 1}`, ErrMalformed, `no "type"; expected "act"`},
		{`{"type": "bye"}`, ErrMalformed, `type "bye"; expected "act"`},
		{`{"type": "error", "message": "tired"}`, ErrGaveUp, `"tired"`},
		{`{"type": "act"}`, ErrMalformed, `an act without an "action"`},
		{`{"type": "act", "action": null}`, ErrMalformed, `an act without an "action"`},
		{`{"type": "act", "action": 1e0}`, ErrIllegal, "the action 1e0 is not an integer"},
		{`{"type": "act", "action": true}`, ErrIllegal, "the action true is not an integer"},
		{`{"type": "act", "action": 3}`, ErrIllegal, "the action 3 is out of range: there are 3 actions, 0 to 2"},
		{`{"type": "act", "action": 18446744073709551617}`, ErrIllegal, "the action 18446744073709551617 is out of range: there are 3 actions, 0 to 2"},
		{`{"type": "act", "action": -18446744073709551617}`, ErrIllegal, "the action -18446744073709551617 is out of range: there are 3 actions, 0 to 2"},
		{`{"type": "act", "action": 1, "action": 2}`, ErrMalformed, `the key "action" twice (keys are matched without regard to case)`},
		{`{"type": "act", "type": "act", "action": 1}`, ErrMalformed, `the key "type" twice (keys are matched without regard to case)`},
		{`{"type": "act", "action": 1, "why": {"action": 2, "x": [1, {"action": 3}]}}`, nil, ""},
		{`{"type": "act", "action": 2, "why": "unknown fields are ignored"}`, nil, ""},
		{"{\"type\": \"act\", \"action\": 2}\r", nil, ""}, // a line ended by CRLF: the newline is cut before
	}
	for _, tt := range tests {
		r, pr := parseReply([]byte(tt.line), "act")
		if pr == nil {
			_, pr = r.action(3)
		}
		switch {
		case tt.kind == nil && pr != nil:
			t.Errorf("%s: %v: %s", tt.line, pr.kind, pr.detail)
		case tt.kind != nil && (pr == nil || !errors.Is(pr.kind, tt.kind) || pr.detail != tt.detail):
			t.Errorf("%s: %+v; want %v: %s", tt.line, pr, tt.kind, tt.detail)
		}
	}
}

// Keys are matched without regard to case, as encoding/json matches them
// to a message's fields: "type" and "Type" are one key given twice, on the
// scanning path and on the decoding one (a key with an escape, invalid
// UTF-8, or more than maxKeys keys), which is also checked alone.
func TestDuplicateKeyIgnoresCase(t *testing.T) {
	many := `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,`
	tests := []struct {
		line, key string
		dup       bool
	}{
		{`{"type":"act","action":1}`, "", false},
		{`{"type":"act","action":1,"action":2}`, "action", true},
		{`{"type":"act","Type":"error"}`, "Type", true},
		{`{"ACTION":1,"type":"act","action":2}`, "action", true},
		{`{"k":1,"K":2}`, "K", true},
		{`{"s":1,"\u017f":2}`, "ſ", true},                       // decoded: ſ folds to s
		{`{"type":"act","\u0054ype":"error"}`, "Type", true},    // decoded: an escape
		{`{"type":"act","Type\u0020":"error"}`, "", false},      // decoded: another key
		{many + `"A":18}`, "A", true},                           // decoded: past maxKeys
		{many + `"r":18}`, "", false},                           // decoded: past maxKeys
		{`{"type":"act","why":{"Type":1,"type":2}}`, "", false}, // not at the top level
		{`{"type":"act","why":"\"Type\":"}`, "", false},         // in a string
	}
	for _, tt := range tests {
		key, dup := DuplicateKey([]byte(tt.line))
		if key != tt.key || dup != tt.dup {
			t.Errorf("DuplicateKey(%s) = %q, %v; want %q, %v", tt.line, key, dup, tt.key, tt.dup)
		}
		if key, dup := duplicateKeyDecoded([]byte(tt.line)); key != tt.key || dup != tt.dup {
			t.Errorf("duplicateKeyDecoded(%s) = %q, %v; want %q, %v", tt.line, key, dup, tt.key, tt.dup)
		}
	}
}

// BenchmarkDuplicateKey is the check's cost on serve-env's commonest
// request, which it makes on every line.
func BenchmarkDuplicateKey(b *testing.B) {
	line := []byte(`{"type":"step","env":1,"action":2}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, dup := DuplicateKey(line); dup {
			b.Fatal("a duplicate")
		}
	}
}

// quickActs reads exactly the batch act lines it claims, with the actions
// the decoder reads from them, and leaves every other line to the
// decoder.
func TestQuickActsAgreesWithTheDecoder(t *testing.T) {
	tests := []struct {
		line string
		want []int
	}{
		{`{"type": "act", "actions": [2, 0, 13]}`, []int{2, 0, 13}},
		{`{"type":"act","actions":[0]}`, []int{0}},
		{`{"type":"act","actions":[1,123456]}`, []int{1, 123456}},
		{`{"type":"act","actions":[]}`, []int{}},
		{`{"type": "act", "actions": [1,  2]}`, nil},
		{`{"type": "act", "actions": [01]}`, nil}, // not JSON
		{`{"type": "act", "actions": [1,]}`, nil}, // not JSON
		{`{"type": "act", "actions": [-1]}`, nil},
		{`{"type": "act", "actions": [1.5]}`, nil},
		{`{"type": "act", "actions": [1234567]}`, nil}, // left to the decoder's range check
		{`{"type": "act", "actions": [1], "x": 2}`, nil},
		{`{"type": "act", "actions": [1]} `, nil},
		{`{"actions": [1], "type": "act"}`, nil},
	}
	for _, tt := range tests {
		got, ok := quickActs([]byte(tt.line), nil)
		if ok != (tt.want != nil) || ok && fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("quickActs(%s) = %v, %v; want %v", tt.line, got, ok, tt.want)
		}
		if !ok {
			continue
		}
		b := batch{}
		for range got {
			b.waiting = append(b.waiting, &SlotEpisode{actions: 1 << 20})
		}
		if pr := b.parseActs([]byte(tt.line)); pr != nil || fmt.Sprint(b.actions) != fmt.Sprint(got) {
			t.Errorf("%s: the decoder reads %v (%v); quickActs %v", tt.line, b.actions, pr, got)
		}
	}
}
