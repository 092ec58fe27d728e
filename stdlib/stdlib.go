package stdlib

import (
	"embed"
	"strings"
	"sync"

	"github.com/anynt/anynt/lang"
)

//go:embed *.anynt
var files embed.FS

var (
	loadOnce sync.Once
	blocks   map[string]*lang.Block
	loadErr  error
)

func load() {
	blocks = map[string]*lang.Block{}
	entries, err := files.ReadDir(".")
	if err != nil {
		loadErr = err
		return
	}
	for _, e := range entries {
		src, err := files.ReadFile(e.Name())
		if err != nil {
			loadErr = err
			return
		}
		f, err := lang.Parse("stdlib/"+e.Name(), src)
		if err != nil {
			loadErr = err
			return
		}
		for _, d := range f.Decls {
			if b, ok := d.(*lang.Block); ok {
				blocks[b.Name] = b
			}
		}
	}
}

// Lookup returns the library block named name, or nil.
func Lookup(name string) *lang.Block {
	loadOnce.Do(load)
	return blocks[name]
}

// Err reports whether the embedded library failed to load; a test keeps it
// nil.
func Err() error {
	loadOnce.Do(load)
	return loadErr
}

// Source returns the text of the library file a block's position names
// (Pos.File of a block Lookup returned, "stdlib/NAME.anynt"), so that a tool
// can show the definition of a library block, which lives in the binary.
func Source(file string) ([]byte, bool) {
	name, ok := strings.CutPrefix(file, "stdlib/")
	if !ok {
		return nil, false
	}
	src, err := files.ReadFile(name)
	return src, err == nil
}
