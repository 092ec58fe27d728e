// Package lsp is anynt's language server (anynt lsp): an editor that speaks
// the Language Server Protocol gets, for files in the notation, the
// diagnostics of anynt check as one types, anynt fmt's canonical form as
// formatting, over a sugared rule its ordered expansion as anynt expand
// prints it, go-to-definition from `use NAME` to the shared block or
// library block it includes, and completion of the ASCII spellings (\pi
// becomes π). docs/editors.md says how to set it up in VS Code and Neovim.
//
// Design:
//
//   - The protocol's types and the decoding of each method's parameters are
//     github.com/tliron/glsp's (protocol_3_16); the JSON-RPC framing is
//     github.com/sourcegraph/jsonrpc2's, which glsp builds on. Serve joins
//     the two itself rather than through glsp's server package, so that
//     the server runs on any stream (a test's pipes) and the binary does not
//     take in glsp's logging and websocket dependencies.
//   - Nothing is checked here that the command line does not check: the
//     diagnostics are env.Check's, which anynt check runs; formatting is
//     lang.Format; the expansion is compiler.ExpandEach on the rule list
//     env.LoadUnit makes, as anynt expand does. So the editor and the
//     command line cannot disagree.
//   - Positions: the language counts columns in characters, the protocol
//     in UTF-16 code units; the papers' symbols (π ⊕ ⊖ ⊙ Δ ∇ χ) are beyond
//     ASCII, so every position is converted (text.go) and never taken as a
//     byte offset.
//   - The server asks for whole documents on change (full sync) and checks
//     the whole file on each: the checks are those of a file, and a file of
//     the class is small. Requests are handled one at a time, in order.
package lsp
