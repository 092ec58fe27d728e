package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

func TestInitializeCapabilities(t *testing.T) {
	c := newClient(t)
	res := c.initialize()
	caps, err := json2map(res.Capabilities)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"textDocumentSync":           map[string]any{"openClose": true, "change": float64(protocol.TextDocumentSyncKindFull)},
		"hoverProvider":              true,
		"definitionProvider":         true,
		"documentFormattingProvider": true,
		"completionProvider":         map[string]any{"triggerCharacters": []any{`\`}},
	}
	if d := cmp.Diff(want, caps); d != "" {
		t.Errorf("capabilities (-want +got):\n%s", d)
	}
	if res.ServerInfo == nil || res.ServerInfo.Name != "anynt" {
		t.Errorf("server info %+v, want the name anynt", res.ServerInfo)
	}
}

// A request before initialize is refused, as the protocol says.
func TestRequestBeforeInitialize(t *testing.T) {
	c := newClient(t)
	var res any
	err := c.conn.Call(c.ctx, protocol.MethodTextDocumentHover, protocol.HoverParams{}, &res)
	if err == nil || !strings.Contains(err.Error(), "not initialized") {
		t.Fatalf("hover before initialize: %v, want a refusal", err)
	}
}

// The symbols before an error are beyond ASCII: π ⊕ ⊖ ⊙ take one UTF-16
// unit but three bytes, and 𝔸 (beyond the Basic Multilingual Plane) two
// units and four bytes. The error's range is in UTF-16 units, as the
// protocol counts: a server counting bytes (20) or characters (10) puts it
// elsewhere. The message is check's.
func TestDiagnosticAfterUnicodeSymbols(t *testing.T) {
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/unicode.anynt"
	diags := c.open(uri, "# π ⊕ ⊖ Δ ∇ ⊙ in a comment\nπ ⊕ ⊖ ⊙ 𝔸 \\foo -> x\n")
	if len(diags) != 1 {
		t.Fatalf("diagnostics %+v, want one", diags)
	}
	d := diags[0]
	if d.Message != `unknown escape \foo` {
		t.Errorf("message %q, want check's", d.Message)
	}
	if want := rng(1, 11, 1, 15); d.Range != want {
		t.Errorf("range %+v, want %+v (\\foo in UTF-16 units)", d.Range, want)
	}
	if d.Severity == nil || *d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("severity %v, want an error", d.Severity)
	}

	// Fixed, the file's diagnostics are cleared with an empty list.
	c.notify(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: "π ⊕ ⊖ ⊙ 𝔸 \\pi -> x\n"}},
	})
	if diags := c.diagnostics(uri); len(diags) != 0 {
		t.Errorf("after the fix: %+v, want none", diags)
	}

	// A ranged change (which a client may send even though the server asks
	// for whole documents) is applied at its UTF-16 range: \pi becomes \bar.
	c.notify(protocol.MethodTextDocumentDidChange, protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}, Version: 3},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{Range: ptr(rng(0, 12, 0, 14)), Text: "bar"}},
	})
	diags = c.diagnostics(uri)
	if len(diags) != 1 || diags[0].Message != `unknown escape \bar` || diags[0].Range != rng(0, 11, 0, 15) {
		t.Errorf("after a ranged change: %+v, want \\bar unknown at 0:11-0:15", diags)
	}
}

// An environment gets the loader's errors and the lint's warnings, as
// check gives them: here Good/Evil writes the marker R where the action r
// was meant, which the lint warns about, and a second file has a space
// whose cell lacks the stay arrow.
func TestDiagnosticsOfEnvironments(t *testing.T) {
	c := newClient(t)
	c.initialize()
	lint := "actions s l r\nspace table {\n\t1 2 1\n\t2 1 2\n}\ngoodevil {\n\tχ ->. R\n}\n"
	diags := c.open("file:///tmp/lint.anynt", lint)
	if len(diags) != 1 {
		t.Fatalf("diagnostics %+v, want one warning", diags)
	}
	if d := diags[0]; d.Severity == nil || *d.Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(d.Message, "and never an action") {
		t.Errorf("diagnostic %+v (severity %v), want the lint's warning", d, d.Severity)
	}

	bad := "actions s l r\nspace table {\n\t2 2 1\n\t2 1 1\n}\ngoodevil pattern l r\n"
	diags = c.open("file:///tmp/space.anynt", bad)
	if len(diags) == 0 {
		t.Fatal("no diagnostics for a space without the stay arrow")
	}
	for _, d := range diags {
		if d.Severity == nil || *d.Severity != protocol.DiagnosticSeverityError || !strings.Contains(d.Message, "stay") {
			t.Errorf("diagnostic %+v, want the loader's error about the stay arrow", d)
		}
	}
}

func TestFormatting(t *testing.T) {
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/fmt.anynt"
	src := "# kept\nblock b {\n  a->b\n}\n\\pi  x ->. y\nuse b\n"
	c.open(uri, src)
	var edits []protocol.TextEdit
	c.call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: uri}}, &edits)
	// What anynt fmt prints for src.
	want := "# kept\nblock b {\n\ta -> b\n}\nπx ->. y\nuse b\n"
	if got := apply(src, edits); got != want {
		t.Errorf("formatted:\n%s\nwant:\n%s", got, want)
	}
	// The edit spans the lines that change, not the whole file.
	if len(edits) != 1 || edits[0].Range != rng(2, 0, 5, 0) {
		t.Errorf("edits %+v, want one from line 2 to line 5", edits)
	}

	// Formatted, it gets no edits; with syntax errors, none either.
	for name, text := range map[string]string{"canonical": want, "broken": "a -> (b\n"} {
		u := "file:///tmp/" + name + ".anynt"
		c.open(u, text)
		edits = nil
		c.call(protocol.MethodTextDocumentFormatting, protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &edits)
		if len(edits) != 0 {
			t.Errorf("%s: edits %+v, want none", name, edits)
		}
	}
}

// Over a sugared rule of an object, the hover shows what anynt expand
// --object ω1 prints for that rule, in the environment's alphabet.
func TestHoverShowsExpansion(t *testing.T) {
	src, err := os.ReadFile("../corpus/thesis/omega1-blocker.anynt")
	if err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/omega1-blocker.anynt"
	c.open(uri, string(src))
	line := lineOf(t, string(src), "\tπ (χ ∉ {L, R, :}) -> π")
	var h protocol.Hover
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(line, 5)}}, &h)
	got := hoverText(t, h)
	// anynt expand --object ω1 corpus/thesis/omega1-blocker.anynt, the
	// lines of this rule.
	want := "πS -> π\nππ -> π\nπ⊕ -> π\nπ⊖ -> π\nπ⊙ -> π\nπω1 -> π\nπs -> π\nπl -> π\nπr -> π\nπΦ -> π\n"
	if !strings.Contains(got, "```anynt\n"+want+"```") || !strings.Contains(got, "anynt expand --object ω1") {
		t.Errorf("hover:\n%s\nwant the expansion:\n%s", got, want)
	}
	if h.Range == nil || h.Range.Start != pos(line, 1) {
		t.Errorf("hover range %+v, want the rule's line from its start", h.Range)
	}

	// Over a plain rule, nothing.
	plain := lineOf(t, string(src), "\tRΦ ->. l")
	var none *protocol.Hover
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(plain, 2)}}, &none)
	if none != nil {
		t.Errorf("hover over a plain rule: %+v, want none", none)
	}
}

// A rule of a shared block is expanded where a behaviour uses it, as
// anynt expand --object ω1 prints it; in a rule file, in the file's
// algorithm.
func TestHoverInSharedBlock(t *testing.T) {
	c := newClient(t)
	c.initialize()
	files := map[string]string{
		"file:///tmp/shared-env.anynt":   "actions s l r\nspace thesis lr+:l-r+:l-r\nblock flee {\n\tπ (L|R) ->. s\n}\nobject ω1 {\n\tuse flee\n\t->. l\n}\ngoodevil pattern r l\n",
		"file:///tmp/shared-rules.anynt": "block flee {\n\tπ (L|R) ->. s\n}\nuse flee\n",
	}
	wants := map[string]string{
		"file:///tmp/shared-env.anynt":   "`anynt expand --object ω1` prints it:\n\n```anynt\nπL ->. s\nπR ->. s\n```",
		"file:///tmp/shared-rules.anynt": "`anynt expand` prints it:\n\n```anynt\nπL ->. s\nπR ->. s\n```",
	}
	for uri, src := range files {
		if d := c.open(uri, src); len(d) != 0 {
			t.Fatalf("%s: diagnostics %+v", uri, d)
		}
		line := lineOf(t, src, "\tπ (L|R) ->. s")
		var h protocol.Hover
		c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(line, 3)}}, &h)
		if got := hoverText(t, h); !strings.Contains(got, wants[uri]) {
			t.Errorf("%s: hover\n%s\nwant\n%s", uri, got, wants[uri])
		}
	}
}

// A symbol may be a backtick; the expansion's code block still holds.
func TestHoverFencesBackticks(t *testing.T) {
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/backtick.anynt"
	c.open(uri, "(a|```) -> x\n")
	var h protocol.Hover
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(0, 1)}}, &h)
	if got, want := hoverText(t, h), "````anynt\na -> x\n``` -> x\n````\n"; !strings.HasSuffix(got, want) {
		t.Errorf("hover\n%s\nwant it to end\n%s", got, want)
	}
}

// A rule of χ over a large alphabet is cut at MaxHoverRules plain rules.
func TestHoverCutsLongExpansions(t *testing.T) {
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/long.anynt"
	c.open(uri, "χχ -> x\nabcdefghijklmnopqrstuvwxyz ->. y\n")
	var h protocol.Hover
	c.call(protocol.MethodTextDocumentHover, protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(0, 0)}}, &h)
	got := hoverText(t, h)
	// anynt expand's first lines: χ ranges over x, a, b, … in order of
	// first appearance.
	if n := strings.Count(got, " -> x\n"); n != MaxHoverRules || !strings.Contains(got, "```anynt\nxx -> x\nxa -> x\nxb -> x\n") || !strings.Contains(got, "more follow") {
		t.Errorf("hover has %d plain rules:\n%s\nwant the first %d and a note that more follow", n, got, MaxHoverRules)
	}
}

func TestDefinition(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/def.anynt"
	src := "π⊙ -> x\nblock twice {\n\ta -> b\n}\nuse twice\nuse erase-separators\n"
	c.open(uri, src)
	def := func(line, char int) []protocol.Location {
		var raw any
		c.call(protocol.MethodTextDocumentDefinition, protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(line, char)}}, &raw)
		if raw == nil {
			return nil
		}
		var loc protocol.Location
		if err := remarshal(raw, &loc); err != nil {
			t.Fatal(err)
		}
		return []protocol.Location{loc}
	}
	if got, want := def(4, 6), []protocol.Location{{URI: uri, Range: rng(1, 0, 3, 1)}}; !cmp.Equal(got, want) {
		t.Errorf("use twice: %+v, want the block %+v", got, want)
	}
	// A library block: its file, written to the cache, at the block.
	got := def(5, 8)
	if len(got) != 1 {
		t.Fatalf("use erase-separators: %+v, want a location", got)
	}
	path := fileName(got[0].URI)
	if !strings.HasPrefix(path, os.Getenv("XDG_CACHE_HOME")) || filepath.Base(path) != "strings.anynt" {
		t.Errorf("library file at %s, want strings.anynt under the cache", path)
	}
	lib, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lt := newText(string(lib))
	if at := lib[lt.offset(got[0].Range.Start):]; !strings.HasPrefix(string(at), "block erase-separators {") {
		t.Errorf("the location points at %.40q, want the block", at)
	}
	// Elsewhere, nothing.
	if got := def(0, 1); got != nil {
		t.Errorf("definition of a rule: %+v, want none", got)
	}
}

func TestCompletionOfASCIISpellings(t *testing.T) {
	c := newClient(t)
	c.initialize()
	uri := "file:///tmp/complete.anynt"
	c.open(uri, "π⊙ \\om -> x\n")
	var items []protocol.CompletionItem
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(0, 6)}}, &items)
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	if d := cmp.Diff([]string{`\omega`, `\ominus`}, labels); d != "" {
		t.Fatalf("completions (-want +got):\n%s", d)
	}
	var edit protocol.TextEdit
	if err := remarshal(items[0].TextEdit, &edit); err != nil {
		t.Fatal(err)
	}
	// The edit replaces \om, after two symbols of one UTF-16 unit each.
	if want := (protocol.TextEdit{Range: rng(0, 3, 0, 6), NewText: "ω"}); edit != want {
		t.Errorf("edit %+v, want %+v", edit, want)
	}
	if got := apply("π⊙ \\om -> x\n", []protocol.TextEdit{edit}); got != "π⊙ ω -> x\n" {
		t.Errorf("completed: %q", got)
	}

	// Inside a name, the whole name is replaced, by what the letters before
	// the cursor begin: \om|ega.
	c.open("file:///tmp/inside.anynt", "\\omega -> x\n")
	items = nil
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: "file:///tmp/inside.anynt"}, Position: pos(0, 3)}}, &items)
	if len(items) != 2 {
		t.Fatalf("completions inside \\omega: %+v, want two", items)
	}
	if err := remarshal(items[0].TextEdit, &edit); err != nil {
		t.Fatal(err)
	}
	if want := (protocol.TextEdit{Range: rng(0, 0, 0, 6), NewText: "ω"}); edit != want {
		t.Errorf("edit inside a name %+v, want %+v", edit, want)
	}

	// Not after a backslash: nothing.
	items = nil
	c.call(protocol.MethodTextDocumentCompletion, protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: pos(0, 2)}}, &items)
	if len(items) != 0 {
		t.Errorf("completions after π⊙: %+v, want none", items)
	}
}

// The protocol's ending: shutdown then exit ends Serve without error;
// exit alone ends it with ErrExitWithoutShutdown (status 1 for anynt lsp).
func TestShutdownAndExit(t *testing.T) {
	for _, shutdown := range []bool{true, false} {
		c := newClient(t)
		c.initialize()
		if shutdown {
			c.call(protocol.MethodShutdown, nil, nil)
		}
		c.notify(protocol.MethodExit, nil)
		err := c.serveResult()
		if shutdown && err != nil || !shutdown && !errors.Is(err, ErrExitWithoutShutdown) {
			t.Errorf("shutdown %v: Serve returned %v", shutdown, err)
		}
	}
}
