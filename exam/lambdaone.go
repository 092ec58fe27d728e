package exam

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/anynt/anynt/complexity"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// Exercise is one environment of a Λ_one test.
type Exercise struct {
	Number  int     // 1…7, in the order they are given
	Cells   int     // n_c
	Actions int     // n_a; action 0 stays
	Steps   int     // m, the interactions of the exercise
	Dest    [][]int // Dest[c][a]: the cell action a leads to from c, from 0
	Pattern []int   // Good and Evil's cyclic actions
	// Place holds the starting cells of π, Good and Evil, from 0.
	Place [3]int
	// KApprox is the zlib length, in bytes, of the pattern's digits.
	KApprox int
}

// lambdaOneCells are the cell counts of the seven exercises (Table 1 of
// Insa-Cabrera et al. 2011 and 2012).
var lambdaOneCells = []int{3, 4, 5, 6, 7, 8, 9}

// LambdaOne draws the seven exercises of the Λ_one test of seed.
func LambdaOne(seed uint64) []Exercise {
	rng := random.New(seed, 0x4c616d6264614f6e) // "LambdaOn"
	out := make([]Exercise, len(lambdaOneCells))
	for i, cells := range lambdaOneCells {
		out[i] = drawExercise(rng, i+1, cells)
	}
	return out
}

// drawExercise draws one exercise of cells cells from rng, in the order
// the protocol fixes: actions, space, pattern, placement. The adaptive test
// draws its environments with it too, one level at a time.
func drawExercise(rng *random.Rand, number, cells int) Exercise {
	x := Exercise{Number: number, Cells: cells, Steps: 10 * (cells - 1)}
	x.Actions = 2 + rng.IntN(cells-1)
	x.Dest = drawSpace(rng, cells, x.Actions)
	x.Pattern = drawPattern(rng, cells, x.Actions)
	x.Place = drawPlace(rng, cells)
	x.KApprox = kApproxOf(x.Pattern)
	return x
}

// drawPlace draws the starting cells of π, Good and Evil, Evil apart from
// Good, uniformly.
func drawPlace(rng *random.Rand, cells int) (p [3]int) {
	p[0] = rng.IntN(cells)
	p[1] = rng.IntN(cells)
	p[2] = rng.IntN(cells - 1)
	if p[2] >= p[1] {
		p[2]++
	}
	return p
}

// kApproxOf is the papers' complexity of a pattern: the zlib length of its
// digits.
func kApproxOf(pattern []int) int { return complexity.ZlibLength(digits(pattern), 6) }

// drawSpace draws destinations uniformly, action 0 staying, until the
// space is valid for the class. Most draws are refused (of 9 cells and 2
// actions, all but one in about 10,000), so this loop makes nearly all
// of a test's random draws.
func drawSpace(rng *random.Rand, cells, actions int) [][]int {
	dest := make([][]int, cells) // refilled at each draw: most are refused
	for c := range dest {
		dest[c] = make([]int, actions)
	}
	cell := random.NewUniform(cells)
	for {
		for c, row := range dest { // action 0 stays; the others are drawn
			row[0] = c
			cell.Fill(rng, row[1:])
		}
		if !surelyInvalid(dest) {
			if s := (env.Space{Dest: dest}); len(s.Check()) == 0 {
				return dest
			}
		}
	}
}

// surelyInvalid is a quick test that a space fails env.Space.Check, so
// that most refused draws cost no allocation: a cell whose arrows all loop,
// or that no other cell leads to, is refused by Check too (every arrow
// loops, or the space is not strongly connected). It decides nothing
// else; a space it lets through goes to Check. The cells entered are bits
// of a word, so a space of more than 64 cells is always let through.
func surelyInvalid(dest [][]int) bool {
	if len(dest) > 64 {
		return false
	}
	var entered uint64
	for c, row := range dest {
		leaves := false
		for _, d := range row {
			if d != c {
				leaves = true
				entered |= 1 << d
			}
		}
		if !leaves {
			return true
		}
	}
	return entered != 1<<len(dest)-1
}

// drawPattern draws actions uniformly, stopping after each with
// probability 1/cells: a geometric length of mean cells.
func drawPattern(rng *random.Rand, cells, actions int) []int {
	var p []int
	for {
		p = append(p, rng.IntN(actions))
		if rng.IntN(cells) == 0 {
			return p
		}
	}
}

func digits(p []int) []byte {
	b := make([]byte, len(p))
	for i, a := range p {
		b[i] = byte('0' + a)
	}
	return b
}

// Source writes the exercise as an environment file: actions a0…, the space
// as a table, Good and Evil's pattern, the placements and the Λ_one
// settings. Its header names the test's seed, the exercise, its steps
// and K_approx, and the toolchain version that wrote it.
func (x Exercise) Source(seed uint64, version string) string {
	src, _ := x.file("", seed, version)
	return src
}

// Load writes the exercise's file as Source does and loads it, under the
// file name name, from the syntax tree written with the text rather than
// by parsing the text: parsing was a quarter of a Λ_one test's work. The
// tree is the one lang.Parse reads from the text, positions included
// (TestExerciseTreeIsParsed), so the environment is the one a user loads
// from the file. It also gives the tree, which complexity reads, and the
// text.
func (x Exercise) Load(name string, seed uint64, version string) (*env.Env, *lang.File, string, error) {
	src, f := x.file(name, seed, version)
	e, err := env.Load(f)
	if err != nil {
		return nil, nil, "", err
	}
	return e, f, src, nil
}

// file writes the exercise's text and its syntax tree together.
func (x Exercise) file(name string, seed uint64, version string) (string, *lang.File) {
	w := &fileWriter{f: &lang.File{Name: name}, line: 1, col: 1}
	w.text.Grow(512) // 365 bytes on average; 1% are longer
	w.comment(fmt.Sprintf(" Λ_one test of seed %d, exercise %d of %d (anynt %s): %d cells, %d actions,",
		seed, x.Number, len(lambdaOneCells), version, x.Cells, x.Actions))
	w.comment(fmt.Sprintf(" %d interactions, pattern %s (K_approx %d bytes of zlib).", x.Steps, digits(x.Pattern), x.KApprox))
	symbols := make([]lang.Symbol, 0, x.Actions+len(x.Pattern)) // one allocation for all

	actions := &lang.Actions{At: w.at(), Names: make([]*lang.Symbol, x.Actions)}
	w.write("actions")
	for a := range actions.Names {
		w.write(" ")
		symbols = append(symbols, w.symbol("a"+strconv.Itoa(a)))
		actions.Names[a] = &symbols[len(symbols)-1]
	}
	w.newline()

	table := &lang.Block{At: w.at(), Kind: lang.TableBlock, Rows: make([]*lang.Row, len(x.Dest))}
	w.write("space table {")
	w.newline()
	rows := make([]lang.Row, len(x.Dest))
	dests := make([]int, 0, x.Cells*x.Actions)
	for c, row := range x.Dest {
		w.write("\t")
		rows[c].At = w.at()
		for a, d := range row {
			if a > 0 {
				w.write(" ")
			}
			dests = append(dests, d+1) // cells are numbered from 1 in a file
			w.write(strconv.Itoa(d + 1))
		}
		rows[c].Dests = dests[len(dests)-len(row):]
		table.Rows[c] = &rows[c]
		w.newline()
	}
	table.End = w.at()
	w.write("}")
	w.newline()

	pattern := &lang.Pattern{At: w.at(), Actions: make([]*lang.Symbol, len(x.Pattern))}
	w.write("goodevil pattern")
	for i, a := range x.Pattern {
		w.write(" ")
		symbols = append(symbols, w.symbol(strconv.Itoa(a)))
		pattern.Actions[i] = &symbols[len(symbols)-1]
	}
	w.newline()
	w.f.Decls = append(w.f.Decls, actions, table, pattern)

	w.setting("reward", "1")
	for i, object := range []string{"π", "⊕", "⊖"} {
		w.setting("place", object, strconv.Itoa(x.Place[i]+1))
	}
	w.setting("set", "rewards", "lambda-one")
	w.setting("set", "cycle", "off")
	w.setting("set", "garbage", "off")
	return w.text.String(), w.f
}

// fileWriter writes an environment file and, as it goes, the syntax tree
// lang.Parse reads from it, at the same positions.
type fileWriter struct {
	text      strings.Builder
	f         *lang.File
	line, col int // where the next character goes, counted as lang counts: lines and runes from 1
}

func (w *fileWriter) at() lang.Pos { return lang.Pos{File: w.f.Name, Line: w.line, Col: w.col} }

// write adds s, which holds no newline.
func (w *fileWriter) write(s string) {
	w.text.WriteString(s)
	w.col += utf8.RuneCountInString(s)
}

func (w *fileWriter) newline() {
	w.text.WriteByte('\n')
	w.line++
	w.col = 1
}

// symbol writes a word and gives it as a symbol of the tree.
func (w *fileWriter) symbol(name string) lang.Symbol {
	s := lang.Symbol{At: w.at(), Name: name}
	w.write(name)
	return s
}

// comment writes a line's comment, text after the '#'.
func (w *fileWriter) comment(text string) {
	w.f.Comments = append(w.f.Comments, &lang.Comment{At: w.at(), Text: text})
	w.write("#" + text)
	w.newline()
}

// setting writes a line of a keyword and its arguments.
func (w *fileWriter) setting(key string, args ...string) {
	w.f.Decls = append(w.f.Decls, &lang.Setting{At: w.at(), Key: key, Args: args})
	w.write(key)
	for _, a := range args {
		w.write(" " + a)
	}
	w.newline()
}
