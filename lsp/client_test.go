package lsp

import (
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client is an editor's side of a connection to a server that Serve runs
// in this process, over a pipe: requests and notifications go through the
// real JSON-RPC framing, and the server's notifications are kept in order.
type client struct {
	t     *testing.T
	ctx   context.Context
	conn  *jsonrpc2.Conn
	notes chan *jsonrpc2.Request
	done  chan struct{} // closed when Serve has returned, with err
	err   error
}

// patience bounds every wait on the server, so that a server that fails
// to answer fails the test instead of hanging it; it is generous, for a
// loaded machine under the race detector, since a working server answers
// at once.
const patience = 2 * time.Minute

func newClient(t *testing.T) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	serverEnd, clientEnd := net.Pipe()
	c := &client{t: t, ctx: ctx, notes: make(chan *jsonrpc2.Request, 64), done: make(chan struct{})}
	go func() {
		c.err = Serve(ctx, serverEnd, "test")
		close(c.done)
	}()
	c.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(clientEnd, jsonrpc2.VSCodeObjectCodec{}),
		// Handled where they are read, so that notifications keep their order.
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Notif {
				select {
				case c.notes <- req:
				case <-ctx.Done():
				}
			}
			return nil, nil
		}), jsonrpc2.SetLogger(log.New(io.Discard, "", 0))) // the pipe's closing at the end is no news
	t.Cleanup(func() {
		// The client hangs up first and the server, reading the end of its
		// input, returns, as when an editor closes the pipes.
		c.conn.Close()
		select {
		case <-c.done:
		case <-ctx.Done():
		}
		serverEnd.Close()
		cancel()
	})
	return c
}

// call sends a request and decodes its result into result.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.conn.Call(c.ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(c.ctx, method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// initialize does the protocol's opening handshake and returns the
// server's answer.
func (c *client) initialize() protocol.InitializeResult {
	c.t.Helper()
	var res protocol.InitializeResult
	c.call(protocol.MethodInitialize, protocol.InitializeParams{Capabilities: protocol.ClientCapabilities{}}, &res)
	c.notify(protocol.MethodInitialized, protocol.InitializedParams{})
	return res
}

// open opens a document, and returns the diagnostics the server publishes
// for it.
func (c *client) open(uri, text string) []protocol.Diagnostic {
	c.t.Helper()
	c.notify(protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: uri, LanguageID: "anynt", Version: 1, Text: text},
	})
	return c.diagnostics(uri)
}

// diagnostics waits for the next diagnostics published for uri.
func (c *client) diagnostics(uri string) []protocol.Diagnostic {
	c.t.Helper()
	for {
		select {
		case n := <-c.notes:
			if n.Method != protocol.ServerTextDocumentPublishDiagnostics {
				continue
			}
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(*n.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI != uri {
				continue
			}
			if p.Diagnostics == nil {
				c.t.Fatalf("diagnostics of %s: null, not a list", uri)
			}
			return p.Diagnostics
		case <-c.ctx.Done():
			c.t.Fatalf("no diagnostics for %s: %v", uri, c.ctx.Err())
		}
	}
}

// serveResult waits for Serve to return.
func (c *client) serveResult() error {
	c.t.Helper()
	select {
	case <-c.done:
		return c.err
	case <-c.ctx.Done():
		c.t.Fatalf("Serve did not return: %v", c.ctx.Err())
		return nil
	}
}

func pos(line, char int) protocol.Position {
	return protocol.Position{Line: protocol.UInteger(line), Character: protocol.UInteger(char)}
}

func rng(l1, c1, l2, c2 int) protocol.Range {
	return protocol.Range{Start: pos(l1, c1), End: pos(l2, c2)}
}

// apply applies text edits, given in the protocol's positions, to a text.
func apply(s string, edits []protocol.TextEdit) string {
	// Applied from the last, so that each edit's positions still hold.
	for i := len(edits) - 1; i >= 0; i-- {
		t := newText(s)
		from, to := t.offset(edits[i].Range.Start), t.offset(edits[i].Range.End)
		s = s[:from] + edits[i].NewText + s[to:]
	}
	return s
}
