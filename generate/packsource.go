package generate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/pack"
)

// ReadSource reads an environment's text as lang.ReadSource does, or, for
// a name PACK#INDEX where PACK is an enumeration's pack and no file has
// the whole name, the source of the pack's record INDEX: so that check,
// run and test take an environment from a pack by its index. A record
// that is not there is an *fs.PathError naming PACK#INDEX, as a missing
// file is.
func ReadSource(name string) ([]byte, error) {
	path, index, ok := packRef(name)
	if !ok {
		return lang.ReadSource(name)
	}
	r, err := pack.Open(path)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	defer r.Close()
	line, err := r.Record(index)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	e, err := environmentOf(line)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	return []byte(e.Source), nil
}

// packRef splits PACK#INDEX when PACK is a file and no file has the whole
// name.
func packRef(name string) (path string, index int, ok bool) {
	i := strings.LastIndexByte(name, '#')
	if i <= 0 {
		return "", 0, false
	}
	index, err := strconv.Atoi(name[i+1:])
	if err != nil || index < 0 || name[i+1] == '+' {
		return "", 0, false
	}
	if _, err := os.Lstat(name); err == nil {
		return "", 0, false
	}
	if info, err := os.Stat(name[:i]); err != nil || info.IsDir() {
		return "", 0, false
	}
	return name[:i], index, true
}

// environmentOf reads an enumeration pack's record: an accepted
// environment with its source.
func environmentOf(line []byte) (Emitted, error) {
	var e Emitted
	if err := json.Unmarshal(line, &e); err != nil || e.Source == "" {
		return e, errors.New("the record holds no environment")
	}
	return e, nil
}

// PackSources returns the environments of the pack at path, in order,
// each named PACK#INDEX; ok is false when path is not a pack (it is read
// as a file then). A torn end is an error: run its shard again.
func PackSources(path string) (names []string, texts [][]byte, ok bool, err error) {
	if !pack.IsPack(path) {
		return nil, nil, false, nil
	}
	r, err := pack.Open(path)
	if err != nil {
		return nil, nil, true, err
	}
	defer r.Close()
	if r.Torn != nil {
		return nil, nil, true, fmt.Errorf("%w: run its shard again to finish it", r.Torn)
	}
	if covered := coveredTo(r); covered != r.Header.To && limitOf(r.Header) == 0 {
		return nil, nil, true, fmt.Errorf("%s stops at candidate %d of its [%d, %d): its run was not finished; run it again to finish it", path, covered, r.Header.From, r.Header.To)
	}
	for i := range r.Entries {
		lines, err := r.Lines(i)
		if err != nil {
			return nil, nil, true, err
		}
		for _, line := range lines {
			e, err := environmentOf(line)
			if err != nil {
				return nil, nil, true, fmt.Errorf("%s: %w", path, err)
			}
			names = append(names, fmt.Sprintf("%s#%d", path, e.Index))
			texts = append(texts, []byte(e.Source))
		}
	}
	return names, texts, true, nil
}
