package fuzz

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/anynt/anynt/agentproto"
)

// FuzzDuplicateKey holds agentproto.DuplicateKey, which scans a line's
// bytes, to a reference that decodes the line: on every JSON object, both
// find a key given twice at its top level (without regard to case, as the
// decoder matches keys), or neither does.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{
		`{"type":"act","action":1}`,
		`{"type": "act", "action": 1, "action": 2}`,
		`{"type":"act","Type":"error"}`,
		`{"type":"step","env":1,"action":0,"x":{"action":1,"action":2}}`,
		`{"a":[{"b":1},{"b":2}],"c":"}","d":"\",\"a\":"}`,
		`{"\u0074ype":"act","type":"act"}`,
		`{"a\\":1,"a\\":2}`,
		`{"\xff":1,"\xfe":2}`,
		`{"k":1,"K":2}`, `{"ſ":1,"s":2}`,
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"a":18}`,
		` { "a" : 1 , "b" : [ "a" , "a" ] } `, `[1,2]`, `null`, `"a"`, `{}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var v any
		if json.Unmarshal(line, &v) != nil {
			return // DuplicateKey is for lines the decoder took
		}
		key, dup := agentproto.DuplicateKey(line)
		want, wantDup := decodedDuplicate(line)
		if dup != wantDup || (dup && !strings.EqualFold(key, want)) {
			t.Fatalf("%q: DuplicateKey = %q, %v; the decoder finds %q, %v", line, key, dup, want, wantDup)
		}
	})
}

// decodedDuplicate is the reference: the top-level keys as the decoder
// reads them, compared without regard to case.
func decodedDuplicate(line []byte) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(line))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	seen := map[string]bool{}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return "", false
		}
		key := t.(string)
		for k := range seen {
			if strings.EqualFold(k, key) {
				return key, true
			}
		}
		seen[key] = true
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}
