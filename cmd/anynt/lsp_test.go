package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
)

// lspInput frames JSON-RPC messages as an editor writes them to anynt
// lsp's standard input; a message with an id is a request.
func lspInput(t *testing.T, msgs ...map[string]any) string {
	t.Helper()
	var b strings.Builder
	for _, m := range msgs {
		m["jsonrpc"] = "2.0"
		body, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.String()
}

// lspOutput reads the framed messages anynt lsp wrote.
func lspOutput(t *testing.T, out string) []map[string]any {
	t.Helper()
	r := bufio.NewReader(strings.NewReader(out))
	var msgs []map[string]any
	for {
		header, err := r.ReadString('\n')
		if err == io.EOF && header == "" {
			return msgs
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(header, "Content-Length:")))
		if err != nil {
			t.Fatalf("header %q: %v", header, err)
		}
		if blank, _ := r.ReadString('\n'); blank != "\r\n" {
			t.Fatalf("no blank line after the header: %q", blank)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
}

// anynt lsp speaks the protocol on standard input and output: an editor's
// session (initialize, a file opened, shutdown, exit) gets its answers and
// the file's diagnostics there, and the command exits 0; exit without
// shutdown exits 1, as the protocol says.
func TestLspOverStandardStreams(t *testing.T) {
	session := []map[string]any{
		{"id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}},
		{"method": "initialized", "params": map[string]any{}},
		{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
			"uri": "file:///tmp/a.anynt", "languageId": "anynt", "version": 1, "text": "π ⊙ \\foo -> x\n"}}},
	}
	ending := []map[string]any{{"id": 2, "method": "shutdown"}, {"method": "exit"}}
	out, errw, code := anynt(t, lspInput(t, append(session, ending...)...), "lsp")
	if code != exitOK {
		t.Fatalf("status %d, stderr %q", code, errw)
	}
	msgs := lspOutput(t, out)
	if len(msgs) != 3 {
		t.Fatalf("%d messages, want the answers to initialize and shutdown and the diagnostics:\n%s", len(msgs), out)
	}
	if name := msgs[0]["result"].(map[string]any)["serverInfo"].(map[string]any)["name"]; name != "anynt" {
		t.Errorf("initialize answered %v", msgs[0])
	}
	params, _ := msgs[1]["params"].(map[string]any)
	diags, _ := params["diagnostics"].([]any)
	if msgs[1]["method"] != "textDocument/publishDiagnostics" || len(diags) != 1 {
		t.Fatalf("second message %v, want the file's one diagnostic", msgs[1])
	}
	d := diags[0].(map[string]any)
	start := d["range"].(map[string]any)["start"].(map[string]any)
	if d["message"] != `unknown escape \foo` || start["line"] != 0.0 || start["character"] != 4.0 {
		t.Errorf("diagnostic %v, want check's error at 0:4", d)
	}
	if msgs[2]["id"] != 2.0 || msgs[2]["error"] != nil {
		t.Errorf("shutdown answered %v", msgs[2])
	}

	_, errw, code = anynt(t, lspInput(t, append(session, map[string]any{"method": "exit"})...), "lsp")
	if code != 1 || !strings.Contains(errw, "without shutdown") {
		t.Errorf("exit without shutdown: status %d, stderr %q; want 1", code, errw)
	}
	// The editor closing the pipe ends the server too.
	if _, errw, code = anynt(t, lspInput(t, session...), "lsp"); code != exitOK {
		t.Errorf("closed input: status %d, stderr %q", code, errw)
	}
}
