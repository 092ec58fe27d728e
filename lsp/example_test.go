package lsp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"

	"github.com/anynt/anynt/lsp"
	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Serve runs the server on a stream; an editor is its client. Here the
// client, over a pipe, initializes the server and opens a file with an
// unknown escape after the symbol π; the server publishes check's error
// there, the range in UTF-16 units.
func ExampleServe() {
	ctx := context.Background()
	serverEnd, clientEnd := net.Pipe()
	go lsp.Serve(ctx, serverEnd, "example")

	diags := make(chan protocol.PublishDiagnosticsParams, 1)
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(clientEnd, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == protocol.ServerTextDocumentPublishDiagnostics {
				var p protocol.PublishDiagnosticsParams
				if err := json.Unmarshal(*req.Params, &p); err == nil {
					diags <- p
				}
			}
			return nil, nil
		}))
	defer conn.Close()

	var init protocol.InitializeResult
	if err := conn.Call(ctx, protocol.MethodInitialize, protocol.InitializeParams{}, &init); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("server:", init.ServerInfo.Name)
	conn.Notify(ctx, protocol.MethodTextDocumentDidOpen, protocol.DidOpenTextDocumentParams{
		TextDocument: protocol.TextDocumentItem{URI: "file:///tmp/example.anynt", LanguageID: "anynt", Version: 1, Text: "π \\foo -> x\n"},
	})
	for _, d := range (<-diags).Diagnostics {
		r := d.Range
		fmt.Printf("%d:%d-%d:%d %s\n", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, d.Message)
	}
	// Output:
	// server: anynt
	// 0:2-0:6 unknown escape \foo
}
