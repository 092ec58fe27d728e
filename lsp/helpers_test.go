package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// json2map is v as the JSON object a client receives.
func json2map(v any) (map[string]any, error) {
	var m map[string]any
	return m, remarshal(v, &m)
}

// remarshal decodes into out what a client would receive for v.
func remarshal(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// lineOf is the line (from 0) of src that is line.
func lineOf(t *testing.T, src, line string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if l == line {
			return i
		}
	}
	t.Fatalf("no line %q", line)
	return 0
}

// hoverText is a hover's markdown.
func hoverText(t *testing.T, h protocol.Hover) string {
	t.Helper()
	var m protocol.MarkupContent
	if err := remarshal(h.Contents, &m); err != nil || m.Kind != protocol.MarkupKindMarkdown {
		t.Fatalf("hover contents %+v, want markdown", h.Contents)
	}
	return m.Value
}
