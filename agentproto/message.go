package agentproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Version is the protocol's version string, spoken in both directions
// (anynt test's hello to an agent, serve-env's hello to a client): its
// major number, after the slash, must match the peer's, and its minor
// number says which additions it knows (docs/protocol.md, "Versions").
const Version = major + ".1"

// major is the version's major part, all a peer must share.
const major = "anynt/1"

// MaxLine bounds a line in either direction, newline excluded.
const MaxLine = 1 << 20

// hello, start, end and bye are the messages anynt sends besides observe,
// which is written by hand on the hot path (Episode.observe).
type hello struct {
	Type     string `json:"type"`
	Protocol string `json:"protocol"`
	Tool     string `json:"tool"`
}

type start struct {
	Type     string `json:"type"`
	Exercise string `json:"exercise"`
	Episode  int    `json:"episode"`
	Actions  int    `json:"actions"`
	Symbols  int    `json:"symbols"`
	Length   int    `json:"length"`
	Steps    int    `json:"steps"`
	Seed     uint64 `json:"seed"`
}

type end struct {
	Type   string  `json:"type"`
	Reward float64 `json:"reward"`
	Score  float64 `json:"score"`
}

// reply is any line an agent writes: hello, act or error. Fields of
// other types are ignored, as are unknown fields.
type reply struct {
	Type     string          `json:"type"`
	Protocol string          `json:"protocol"`
	Name     string          `json:"name"`
	Action   json.RawMessage `json:"action"`
	Message  string          `json:"message"`
}

// problem is what is wrong with a line: the kind of fault and the detail.
type problem struct {
	kind   error
	detail string
}

// parseReply reads an agent's line and checks that it is of type want (or
// error, the agent giving up).
func parseReply(line []byte, want string) (reply, *problem) {
	var r reply
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return r, &problem{ErrMalformed, "not a JSON object"}
	}
	if err := json.Unmarshal(trimmed, &r); err != nil {
		return r, &problem{ErrMalformed, "not a JSON object: " + err.Error()}
	}
	if key, ok := DuplicateKey(trimmed); ok {
		return r, &problem{ErrMalformed, fmt.Sprintf("the key %q twice (keys are matched without regard to case)", key)}
	}
	switch r.Type {
	case want:
		return r, nil
	case "error":
		return r, &problem{ErrGaveUp, strconv.Quote(r.Message)}
	case "":
		return r, &problem{ErrMalformed, fmt.Sprintf(`no "type"; expected %q`, want)}
	}
	return r, &problem{ErrMalformed, fmt.Sprintf("type %q; expected %q", r.Type, want)}
}

// action reads an act's action: an integer literal (no fraction, no
// exponent, no quotes) from 0 to actions−1.
func (r reply) action(actions int) (int, *problem) {
	text := string(r.Action)
	if text == "" || text == "null" {
		return 0, &problem{ErrMalformed, `an act without an "action"`}
	}
	a, err := strconv.Atoi(text)
	if errors.Is(err, strconv.ErrRange) {
		return 0, &problem{ErrIllegal, fmt.Sprintf("the action %s is out of range: there are %d actions, 0 to %d", text, actions, actions-1)}
	}
	if err != nil {
		return 0, &problem{ErrIllegal, fmt.Sprintf("the action %s is not an integer", text)}
	}
	if a < 0 || a >= actions {
		return 0, &problem{ErrIllegal, fmt.Sprintf("the action %d is out of range: there are %d actions, 0 to %d", a, actions, actions-1)}
	}
	return a, nil
}

// Compatible reports whether a peer's version string has our major
// version: anynt/1 and anynt/1.3 are, anynt/2, anynt/10 and gym/1 are not.
func Compatible(v string) bool {
	m, _, _ := strings.Cut(v, ".")
	return m == major
}

// The act lines that json.dumps and a compact encoder write, read without
// the JSON decoder: an act is most of what an agent writes.
var (
	actSpaced  = []byte(`{"type": "act", "action": `)
	actCompact = []byte(`{"type":"act","action":`)
)

// quickAct reads an act of exactly one of those forms with a small
// non-negative integer; anything else (other fields, other spacing, an
// error) is left to parseReply.
func quickAct(line []byte) (int, bool) {
	var rest []byte
	switch {
	case bytes.HasPrefix(line, actSpaced):
		rest = line[len(actSpaced):]
	case bytes.HasPrefix(line, actCompact):
		rest = line[len(actCompact):]
	default:
		return 0, false
	}
	if len(rest) < 2 || len(rest) > 7 || rest[len(rest)-1] != '}' || (rest[0] == '0' && len(rest) > 2) {
		return 0, false
	}
	a := 0
	for _, c := range rest[:len(rest)-1] {
		if c < '0' || c > '9' {
			return 0, false
		}
		a = a*10 + int(c-'0')
	}
	return a, true
}

// DuplicateKey finds a key given twice at the top level of a JSON object,
// which encoding/json accepts, keeping the last value: a line with two
// actions, or with "type" and "Type" (the decoder matches keys without
// regard to case), has no one meaning, in either direction of the
// protocol. line must be valid JSON (json.Unmarshal took it). It scans the
// bytes without decoding them and allocates only for the key it reports,
// so that serve-env can check every request; a key with an escape or
// invalid UTF-8, or an object of more than maxKeys keys, is decoded
// (duplicateKeyDecoded). FuzzDuplicateKey holds it to a reference.
func DuplicateKey(line []byte) (string, bool) {
	var keys [maxKeys][]byte
	n, depth, wantKey := 0, 0, false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '{':
			depth++
			wantKey = depth == 1
		case '[':
			depth++
		case '}', ']':
			depth--
		case ',':
			wantKey = depth == 1
		case '"':
			j := stringEnd(line, i+1)
			if wantKey {
				key := line[i+1 : j]
				if n == maxKeys || bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) { // as decoded, it may differ
					return duplicateKeyDecoded(line)
				}
				for _, k := range keys[:n] {
					if bytes.EqualFold(k, key) {
						return string(key), true
					}
				}
				keys[n], n, wantKey = key, n+1, false
			}
			i = j
		}
	}
	return "", false
}

// stringEnd is the index of the quote that ends the JSON string whose
// text begins at i (len(line) if none does): the first quote not escaped
// by an odd run of backslashes.
func stringEnd(line []byte, i int) int {
	for {
		k := bytes.IndexByte(line[i:], '"')
		if k < 0 {
			return len(line)
		}
		j, slashes := i+k, 0
		for j-slashes-1 >= i && line[j-slashes-1] == '\\' {
			slashes++
		}
		if slashes%2 == 0 {
			return j
		}
		i = j + 1
	}
}

// maxKeys bounds the keys DuplicateKey compares without decoding: a
// message of the protocol has at most 7.
const maxKeys = 16

// duplicateKeyDecoded is DuplicateKey by the JSON decoder: slow, exact.
func duplicateKeyDecoded(line []byte) (string, bool) {
	d := json.NewDecoder(bytes.NewReader(line))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var seen []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return "", false
		}
		key, _ := t.(string)
		for _, k := range seen {
			if strings.EqualFold(k, key) {
				return key, true
			}
		}
		seen = append(seen, key)
		var skip json.RawMessage
		if d.Decode(&skip) != nil {
			return "", false
		}
	}
	return "", false
}
