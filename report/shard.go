package report

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/gob"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/internal/atomicfile"
	"github.com/anynt/anynt/lang"
)

// A test given in shards (anynt test --shard K/N --out DIR) keeps each
// shard's part of the report's input in a file of DIR, and anynt merge
// joins the parts into the input of the unsharded test, from which the
// same report follows, bit for bit. A part file is one line of JSON, its
// header (what test it is a part of, which part, whether it is whole),
// then the part in encoding/gob, which keeps every float as it is (NaN
// included, which JSON cannot hold) and is read back only by the same
// version of anynt, which the header names.

// PartFormat names the layout of a part file.
const PartFormat = "anynt-test-part/1"

// PartHeader is a part file's first line.
type PartHeader struct {
	Format  string `json:"format"`
	Version string `json:"version"`
	// Test is what decides the test's results: its protocol, seed, tests,
	// settings, agents, whether it computes scales, and a digest of its
	// items. The parts of one test have the same, byte for byte.
	Test   json.RawMessage `json:"test"`
	Shard  int             `json:"shard"`
	Shards int             `json:"shards"`
	Pairs  int             `json:"pairs"` // the test's item–examinee pairs
	From   int             `json:"from"`  // this part's pairs: From, …, To−1
	To     int             `json:"to"`
	// Faults are the faults that stopped the shard before its last pair,
	// or empty: a part with faults is not whole, and is not merged.
	Faults []string `json:"faults,omitempty"`
}

// partBody is what follows the header.
type partBody struct {
	Items    []partItem
	Outcomes []partOutcome
	Bounds   []partBound
}

type partItem struct {
	Index                        int
	Test, Number, Steps, KApprox int
	Cells                        int
	Name, Source                 string
	Seed                         uint64
	Complexity, Bits             float64
}

type partOutcome struct {
	Pair    int
	Outcome exam.Outcome // without its Fault
	Fault   string
}

type partBound struct {
	Item  int
	Bound exam.Bound // without its Err
	Err   string
}

// PartName is the file name of shard k of n in a folder.
func PartName(k, n int) string { return fmt.Sprintf("test-part-%d-of-%d.anynt-part", k, n) }

// testIdentity is the JSON of what decides a test's results.
func testIdentity(in Input, bounds bool) (json.RawMessage, error) {
	h := sha256.New()
	for _, it := range in.Items {
		fmt.Fprintf(h, "%d %d %q %d %d %q\n", it.Test, it.Number, it.Name, it.Seed, it.Steps, it.Source)
	}
	return json.Marshal(partTest{in.Protocol, in.Seed, in.Tests, in.Settings, in.Agents, bounds, len(in.Items), hex.EncodeToString(h.Sum(nil))})
}

// partTest is what decides a test's results, a part header's Test.
type partTest struct {
	Protocol Protocol      `json:"protocol"`
	Seed     uint64        `json:"seed"`
	Tests    int           `json:"tests"`
	Settings exam.Settings `json:"settings"`
	Agents   []Agent       `json:"agents"`
	Bounds   bool          `json:"bounds"`
	Items    int           `json:"items"`
	Digest   string        `json:"items_sha256"`
}

// WritePart writes shard k of n of the test in (its Items all, its
// Outcomes and Bounds those of the shard: outcomes in the order of the
// pairs from, …, to−1, bounds of the items lo, …, hi−1 from
// exam.FirstPairs) to DIR/PartName(k, n), atomically. faults, when not
// empty, mark the part as not whole.
func WritePart(dir string, in Input, computeBounds bool, k, n, from, to int, faults []error) (string, error) {
	test, err := testIdentity(in, computeBounds)
	if err != nil {
		return "", err
	}
	h := PartHeader{Format: PartFormat, Version: in.Version, Test: test, Shard: k, Shards: n,
		Pairs: len(in.Items) * len(in.Agents), From: from, To: to}
	for _, f := range faults {
		h.Faults = append(h.Faults, f.Error())
	}
	var body partBody
	A := len(in.Agents)
	first, last := from/A, (to+A-1)/A // the items the shard's pairs touch
	for i := first; i < last && i < len(in.Items); i++ {
		it := in.Items[i]
		body.Items = append(body.Items, partItem{Index: i, Test: it.Test, Number: it.Number, Steps: it.Steps, KApprox: it.KApprox,
			Cells: it.Cells, Name: it.Name, Source: it.Source, Seed: it.Seed, Complexity: it.Complexity, Bits: it.Bits})
	}
	for _, o := range in.Outcomes {
		w := partOutcome{Pair: o.Item*A + slices.IndexFunc(in.Agents, func(a Agent) bool { return a.Name == o.Agent }), Outcome: o}
		if o.Fault != nil {
			w.Fault, w.Outcome.Fault = o.Fault.Error(), nil
		}
		body.Outcomes = append(body.Outcomes, w)
	}
	lo, _ := exam.FirstPairs(A, from, to)
	for j, b := range in.Bounds {
		w := partBound{Item: lo + j, Bound: b}
		if b.Err != nil {
			w.Err, w.Bound.Err = b.Err.Error(), nil
		}
		body.Bounds = append(body.Bounds, w)
	}
	var buf bytes.Buffer
	line, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	buf.Write(append(line, '\n'))
	if err := gob.NewEncoder(&buf).Encode(body); err != nil {
		return "", err
	}
	path := filepath.Join(dir, PartName(k, n))
	return path, atomicfile.Write(path, buf.Bytes())
}

// ReadPartHeader reads a part file's header alone.
func ReadPartHeader(path string) (PartHeader, error) {
	f, err := os.Open(path)
	if err != nil {
		return PartHeader{}, err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 1<<16).ReadBytes('\n')
	var h PartHeader
	if err != nil || json.Unmarshal(line, &h) != nil || h.Format != PartFormat {
		return PartHeader{}, fmt.Errorf("%s: not a part of a test (anynt test --shard K/N --out DIR writes them)", path)
	}
	return h, nil
}

// MergeParts reads the part files of a test's shards and joins them into
// the unsharded test's input, to which it gives version and bounds as the
// test had them, and whose items it loads again from their sources. It
// refuses, naming them, parts of another version or of another test, a
// shard given twice or missing, and a part that is not whole.
func MergeParts(paths []string, version string) (Input, bool, error) {
	var in Input
	if len(paths) == 0 {
		return in, false, errors.New("no parts to merge")
	}
	headers := make([]PartHeader, len(paths))
	byShard := map[int]string{}
	for i, p := range paths {
		h, err := ReadPartHeader(p)
		if err != nil {
			return in, false, err
		}
		first := headers[0]
		if i == 0 {
			first = h
		}
		switch {
		case h.Version != version:
			return in, false, fmt.Errorf("%s was written by anynt %s; this is anynt %s: merge with the anynt that gave the test", p, h.Version, version)
		case h.Shards != first.Shards:
			return in, false, fmt.Errorf("%s is shard %d of %d; %s is of %d shards: give the parts of one run", p, h.Shard, h.Shards, paths[0], first.Shards)
		case !bytes.Equal(h.Test, first.Test) || h.Pairs != first.Pairs:
			return in, false, fmt.Errorf("%s is a part of another test than %s", p, paths[0])
		case byShard[h.Shard] != "":
			return in, false, fmt.Errorf("shard %d of %d is given twice: %s and %s", h.Shard, h.Shards, byShard[h.Shard], p)
		case len(h.Faults) > 0:
			return in, false, fmt.Errorf("%s: shard %d/%d stopped before its last pair (%s): give it again", p, h.Shard, h.Shards, strings.Join(h.Faults, "; "))
		}
		headers[i], byShard[h.Shard] = h, p
	}
	n := headers[0].Shards
	var missing []string
	for k := 1; k <= n; k++ {
		if byShard[k] == "" {
			missing = append(missing, fmt.Sprint(k))
		}
	}
	if len(missing) > 0 {
		return in, false, fmt.Errorf("shards %s of %d are missing", strings.Join(missing, ", "), n)
	}
	var test partTest
	if err := json.Unmarshal(headers[0].Test, &test); err != nil {
		return in, false, fmt.Errorf("%s: its test: %v", paths[0], err)
	}
	in = Input{Version: version, Protocol: test.Protocol, Seed: test.Seed, Tests: test.Tests, Settings: test.Settings, Agents: test.Agents,
		Items: make([]exam.Item, test.Items), Outcomes: make([]exam.Outcome, test.Items*len(test.Agents))}
	if test.Bounds {
		in.Bounds = make([]exam.Bound, test.Items)
	}
	A := len(test.Agents)
	for k := 1; k <= n; k++ {
		body, err := readPartBody(byShard[k])
		if err != nil {
			return in, false, err
		}
		for _, it := range body.Items {
			if in.Items[it.Index].Source == "" {
				item, err := loadItem(it)
				if err != nil {
					return in, false, fmt.Errorf("%s: %w", byShard[k], err)
				}
				in.Items[it.Index] = item
			}
		}
		for _, w := range body.Outcomes {
			o := w.Outcome
			if w.Fault != "" {
				o.Fault = errors.New(w.Fault)
			}
			in.Outcomes[(w.Pair%A)*test.Items+w.Pair/A] = o // Take's order: examinee by examinee
		}
		for _, w := range body.Bounds {
			b := w.Bound
			if w.Err != "" {
				b.Err = errors.New(w.Err)
			}
			in.Bounds[w.Item] = b
		}
	}
	return in, test.Bounds, nil
}

func readPartBody(path string) (partBody, error) {
	var body partBody
	f, err := os.Open(path)
	if err != nil {
		return body, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<16)
	if _, err := r.ReadBytes('\n'); err != nil {
		return body, err
	}
	if err := gob.NewDecoder(r).Decode(&body); err != nil {
		return body, fmt.Errorf("%s: the part is damaged: %v", path, err)
	}
	return body, nil
}

// loadItem loads an item's environment from its source again.
func loadItem(it partItem) (exam.Item, error) {
	f, err := lang.Parse(it.Name, []byte(it.Source))
	if err != nil {
		return exam.Item{}, err
	}
	e, err := env.Load(f)
	if err != nil {
		return exam.Item{}, err
	}
	return exam.Item{Test: it.Test, Number: it.Number, Name: it.Name, Env: e, Source: it.Source, Steps: it.Steps,
		Seed: it.Seed, Complexity: it.Complexity, Bits: it.Bits, KApprox: it.KApprox, Cells: it.Cells}, nil
}

// PartDone reports whether DIR holds shard k of n of the test in, whole,
// written by this version: then it need not be given again.
func PartDone(dir string, in Input, computeBounds bool, k, n int) (bool, error) {
	h, err := ReadPartHeader(filepath.Join(dir, PartName(k, n)))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	test, err := testIdentity(in, computeBounds)
	if err != nil {
		return false, err
	}
	if h.Version != in.Version {
		return false, fmt.Errorf("%s holds a part written by anynt %s; this is anynt %s: use another folder", filepath.Join(dir, PartName(k, n)), h.Version, in.Version)
	}
	if !bytes.Equal(h.Test, test) || h.Shard != k || h.Shards != n {
		return false, fmt.Errorf("%s holds a part of another test; use another folder", filepath.Join(dir, PartName(k, n)))
	}
	return len(h.Faults) == 0, nil
}
