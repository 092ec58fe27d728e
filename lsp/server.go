package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"sync"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Name is the server's name in its answer to initialize.
const Name = "anynt"

// ErrExitWithoutShutdown is Serve's error when the client sent exit without
// shutdown first: the protocol asks the server to exit with status 1 then.
var ErrExitWithoutShutdown = errors.New("lsp: exit without shutdown")

// Serve runs the language server on one connection (an editor's pipes:
// standard input and output) until the client sends exit or closes the
// stream. Requests are handled one at a time, in the order they come, so
// that a document's changes apply in order. The version is the one
// initialize reports.
func Serve(ctx context.Context, stream io.ReadWriteCloser, version string) error {
	s := newServer(version)
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(stream, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed())
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
		return ctx.Err()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.exited && !s.shutdown {
		return ErrExitWithoutShutdown
	}
	return nil
}

// server holds the open documents. glsp's protocol.Handler decodes each
// method's parameters and calls the function set for it; handle adapts it
// to the JSON-RPC connection.
type server struct {
	version string
	handler protocol.Handler

	mu               sync.Mutex
	docs             map[protocol.DocumentUri]*text
	shutdown, exited bool
}

func newServer(version string) *server {
	s := &server{version: version, docs: map[protocol.DocumentUri]*text{}}
	s.handler = protocol.Handler{
		Initialize:  s.initialize,
		Initialized: func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown: func(*glsp.Context) error {
			s.mu.Lock()
			s.shutdown = true
			s.mu.Unlock()
			return nil
		},
		Exit: func(*glsp.Context) error {
			s.mu.Lock()
			s.exited = true
			s.mu.Unlock()
			return nil
		},
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidClose:           s.didClose,
		TextDocumentDidSave:            func(*glsp.Context, *protocol.DidSaveTextDocumentParams) error { return nil },
		TextDocumentFormatting:         s.formatting,
		TextDocumentHover:              s.hover,
		TextDocumentDefinition:         s.definition,
		TextDocumentCompletion:         s.completion,
		WorkspaceDidChangeWatchedFiles: func(*glsp.Context, *protocol.DidChangeWatchedFilesParams) error { return nil },
	}
	return s
}

// handle answers one message with the handler, in the way the protocol's
// JSON-RPC wants: an unknown request is "method not found", and a
// notification the server does not act on is dropped.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	gc := &glsp.Context{
		Method: req.Method,
		Notify: func(method string, params any) { _ = conn.Notify(ctx, method, params) },
		// The server asks the client nothing: a call from inside a handler
		// would wait for an answer that this goroutine has to read.
		Call: func(string, any, any) {},
	}
	if req.Params != nil {
		gc.Params = *req.Params
	} else {
		gc.Params = json.RawMessage("null")
	}
	result, validMethod, validParams, err := s.handler.Handle(gc)
	if req.Method == protocol.MethodExit {
		return nil, conn.Close()
	}
	switch {
	case !validMethod && req.Notif:
		// A notification the server does not act on ($/cancelRequest: every
		// request is answered at once anyway) is dropped without a word.
		return nil, nil
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		msg := "invalid parameters of " + req.Method
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return result, nil
}

func (s *server) initialize(_ *glsp.Context, _ *protocol.InitializeParams) (any, error) {
	version := s.version
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{
				OpenClose: &protocol.True,
				Change:    ptr(protocol.TextDocumentSyncKindFull),
			},
			DocumentFormattingProvider: true,
			HoverProvider:              true,
			DefinitionProvider:         true,
			CompletionProvider:         &protocol.CompletionOptions{TriggerCharacters: []string{`\`}},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: Name, Version: &version},
	}, nil
}

func ptr[T any](v T) *T { return &v }

// doc is an open document's text, or nil.
func (s *server) doc(uri protocol.DocumentUri) *text {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[uri]
}

func (s *server) didOpen(ctx *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	s.update(ctx, p.TextDocument.URI, newText(p.TextDocument.Text), p.TextDocument.Version)
	return nil
}

// update keeps a document's new text and publishes its diagnostics.
func (s *server) update(ctx *glsp.Context, uri protocol.DocumentUri, t *text, version protocol.Integer) {
	s.mu.Lock()
	s.docs[uri] = t
	s.mu.Unlock()
	s.publish(ctx, uri, t, &version)
}

// didChange applies the changes in order: the whole text, as the server
// asks for (TextDocumentSyncKindFull), or a range of it, which a client may
// send all the same.
func (s *server) didChange(ctx *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	t := s.doc(p.TextDocument.URI)
	if t == nil {
		return fmt.Errorf("%s is not open", p.TextDocument.URI)
	}
	for _, c := range p.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			t = newText(c.Text)
		case protocol.TextDocumentContentChangeEvent:
			from, to := t.offset(c.Range.Start), t.offset(c.Range.End)
			if to < from {
				return fmt.Errorf("a change's range ends before it starts")
			}
			t = newText(t.s[:from] + c.Text + t.s[to:])
		}
	}
	s.update(ctx, p.TextDocument.URI, t, p.TextDocument.Version)
	return nil
}

func (s *server) didClose(ctx *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	delete(s.docs, p.TextDocument.URI)
	s.mu.Unlock()
	// A closed file's diagnostics go with it.
	ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	return nil
}

// fileName is the name a document is parsed under, which its positions
// and messages carry: the path of a file: URI, else the URI itself (an
// editor's unsaved buffer).
func fileName(uri protocol.DocumentUri) string {
	u, err := url.Parse(string(uri))
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return string(uri)
	}
	return u.Path
}

// fileURI is the file: URI of a path.
func fileURI(path string) protocol.DocumentUri {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // a Windows path, C:/…
	}
	return protocol.DocumentUri((&url.URL{Scheme: "file", Path: path}).String())
}
