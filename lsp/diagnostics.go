package lsp

import (
	"errors"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// diagnose checks a document as anynt check checks a file (env.Check: the
// parser's errors, the compiler's or the loader's, and the lint's warnings)
// and returns them as the protocol's diagnostics, never nil, so that an
// empty list clears the editor's marks.
func diagnose(name string, t *text) []protocol.Diagnostic {
	f, parseErr := lang.Parse(name, []byte(t.s))
	_, warns, err := env.Check(f, parseErr)
	out := []protocol.Diagnostic{}
	var errs lang.ErrorList
	switch {
	case err == nil:
	case errors.As(err, &errs):
	default:
		// Not positioned (none of the checks gives such an error today):
		// shown on the first line rather than lost.
		out = append(out, diagnostic(t, name, &lang.Error{Msg: err.Error()}, protocol.DiagnosticSeverityError))
	}
	for _, e := range errs {
		out = append(out, diagnostic(t, name, e, protocol.DiagnosticSeverityError))
	}
	for _, w := range warns {
		out = append(out, diagnostic(t, name, w, protocol.DiagnosticSeverityWarning))
	}
	return out
}

// diagnostic places one positioned message: from its position to the end
// of the word there. A message positioned in another file (a block of the
// standard library) or nowhere goes on the document's first character, its
// position in the message.
func diagnostic(t *text, name string, e *lang.Error, severity protocol.DiagnosticSeverity) protocol.Diagnostic {
	d := protocol.Diagnostic{Severity: &severity, Source: ptr(Name), Message: e.Msg}
	if e.Pos.File != name || e.Pos.Line < 1 {
		if e.Pos.Line >= 1 {
			d.Message = e.Error()
		}
		return d
	}
	from := t.langOffset(e.Pos)
	d.Range = t.rangeOf(from, t.wordEnd(from))
	return d
}

// publish sends a document's diagnostics.
func (s *server) publish(ctx *glsp.Context, uri protocol.DocumentUri, t *text, version *protocol.Integer) {
	ctx.Notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{
		URI:         uri,
		Version:     ptr(protocol.UInteger(*version)),
		Diagnostics: diagnose(fileName(uri), t),
	})
}
