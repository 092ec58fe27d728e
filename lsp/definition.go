package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/stdlib"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// definition goes from `use NAME` to the block it includes: the file's
// shared block NAME, or else the standard library's (the compiler's order:
// a block of the file hides a library block of the same name). A library
// block lives in the binary, so its file is written once, read-only, to
// the user's cache directory and shown from there. It works on a file with
// syntax errors too, on the statements that parsed.
func (s *server) definition(_ *glsp.Context, p *protocol.DefinitionParams) (any, error) {
	t := s.doc(p.TextDocument.URI)
	if t == nil {
		return nil, nil
	}
	name := fileName(p.TextDocument.URI)
	f, _ := lang.Parse(name, []byte(t.s))
	if f == nil {
		return nil, nil
	}
	at, ok := entryAt(f, t.langPos(name, t.offset(p.Position)))
	if !ok {
		return nil, nil
	}
	use, ok := at.entry.(*lang.Use)
	if !ok {
		return nil, nil
	}
	if b := f.Block(use.Name); b != nil {
		return protocol.Location{URI: p.TextDocument.URI, Range: blockRange(t, b)}, nil
	}
	b := stdlib.Lookup(use.Name)
	if b == nil {
		return nil, nil
	}
	src, ok := stdlib.Source(b.At.File)
	if !ok {
		return nil, nil
	}
	path, err := libraryFile(b.At.File, src)
	if err != nil {
		return nil, nil // no cache directory: nowhere to show it
	}
	return protocol.Location{URI: fileURI(path), Range: blockRange(newText(string(src)), b)}, nil
}

// blockRange spans a block from its keyword to its closing brace.
func blockRange(t *text, b *lang.Block) protocol.Range {
	end := t.langOffset(b.End)
	if r, n := utf8.DecodeRuneInString(t.s[end:]); r == '}' {
		end += n
	}
	return t.rangeOf(t.langOffset(b.At), end)
}

// libraryFile writes a library file where an editor can open it: under the
// user's cache directory, in a folder named after its content, so that
// another version of anynt never shows a stale copy; read-only, since an
// edit there would change nothing.
func libraryFile(file string, src []byte) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(src)
	dir := filepath.Join(cache, "anynt", "stdlib-"+hex.EncodeToString(sum[:8]))
	path := filepath.Join(dir, strings.TrimPrefix(file, "stdlib/"))
	if old, err := os.ReadFile(path); err == nil && string(old) == string(src) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(src); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Chmod(0o444); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	// Renamed into place whole: two servers at once never show half a file.
	return path, os.Rename(tmp.Name(), path)
}
