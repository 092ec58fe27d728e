package env

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func symbols(s string) []string { return strings.Split(s, "") }

func TestDecodeCode(t *testing.T) {
	tests := []struct {
		name, dialect, code string
		actions             []string
		want                [][]int // destinations from 1, per cell
	}{
		{"thesis's 6-cell line (Fig. 3.3)", "thesis", "lr+:l-r+:l-r+:l-r+:l-r+:l-r", []string{"s", "l", "r"},
			[][]int{{1, 1, 2}, {2, 1, 3}, {3, 2, 4}, {4, 3, 5}, {5, 4, 6}, {6, 5, 6}}},
		{"thesis fixture A (Fig. 4.1), digit actions and |", "thesis", "1+2++3|1+23-|1+23|1+2--3-", []string{"a0", "a1", "a2", "a3"},
			[][]int{{1, 2, 3, 1}, {2, 3, 2, 1}, {3, 4, 3, 3}, {4, 1, 2, 3}}},
		{"paper Example 5 (2 cells)", "paper", "+r+r", []string{"l", "r"}, [][]int{{1, 2}, {2, 1}}},
		{"paper Fig. 5 ring", "paper", "+r+r+r+r+r+r", []string{"l", "r"},
			[][]int{{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 1}}},
		{"paper Fig. 6 code: 4 cells, a ring (erratum)", "paper", "+r-l+r-l+r-l+r-l", []string{"s", "l", "r"},
			[][]int{{1, 4, 2}, {2, 1, 3}, {3, 2, 4}, {4, 3, 1}}},
		{"paper offsets by repetition", "paper", "+rr-l+r-ll+r-l", []string{"s", "l", "r"},
			[][]int{{1, 3, 3}, {2, 3, 3}, {3, 2, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := DecodeCode(tt.dialect, symbols(tt.code), tt.actions, true)
			if err != nil {
				t.Fatal(err)
			}
			got := make([][]int, len(s.Dest))
			for c, row := range s.Dest {
				for _, d := range row {
					got[c] = append(got[c], d+1)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Fixture B of the thesis (Fig. 5.1): 8 cells, 4 actions, strongly
// connected, with the arrow table the thesis's figure shows.
func TestDecodeThesisFixtureB(t *testing.T) {
	code := "12+3-----|12+++++3-----|1-2------3++|1-----2++++++3-|12+3++++++|1-----23-------|1++++++2-------3++|1----2+++3+"
	s, err := DecodeCode("thesis", symbols(code), []string{"a0", "a1", "a2", "a3"}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int{{1, 1, 2, 4}, {2, 2, 7, 5}, {3, 2, 5, 5}, {4, 7, 2, 3}, {5, 5, 6, 3}, {6, 1, 6, 7}, {7, 5, 8, 1}, {8, 4, 3, 1}}
	for c, row := range s.Dest {
		for a, d := range row {
			if d+1 != want[c][a] {
				t.Errorf("cell %d action a%d leads to %d, want %d", c+1, a, d+1, want[c][a])
			}
		}
	}
	if errs := s.Check(); len(errs) > 0 {
		t.Errorf("fixture B is invalid: %v", errs)
	}
}

func TestDecodeStrictErrors(t *testing.T) {
	for _, tt := range []struct{ dialect, code, want string }{
		{"thesis", "lr+:x", `symbol 5 of the code: "x" is neither an action`},
		{"thesis", "s+r", "symbol 2 of the code: the stay action s takes no offset"},
		{"thesis", "r+r-", "action r appears twice in one cell"},
		{"paper", "r+", `symbol 1 of the code: "r" where a sign`},
		{"paper", "+x", "a sign must be followed by an action"},
	} {
		_, err := DecodeCode(tt.dialect, symbols(tt.code), []string{"s", "l", "r"}, true)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %q: got %v, want %q", tt.dialect, tt.code, err, tt.want)
		}
	}
}

// Leniently, as a generator's output is post-processed, stray symbols go,
// a repeated action's last offset wins and a trailing separator is ignored.
func TestDecodeLenient(t *testing.T) {
	s, err := DecodeCode("thesis", symbols("lXr+r++:Ωl-r+:"), []string{"s", "l", "r"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Table([]string{"s", "l", "r"}); got != "cell\ts\tl\tr\n1\t1\t1\t1\n2\t2\t1\t1\n" {
		t.Errorf("table:\n%s", got)
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct {
		name string
		dest [][]int
		want string
	}{
		{"one cell", [][]int{{0, 0}}, "a space needs at least 2 cells"},
		{"one action", [][]int{{0}, {1}}, "a space needs at least 2 actions"},
		{"stay does not loop", [][]int{{1, 1}, {1, 0}}, "cell 1: the stay action leads to cell 2"},
		{"no way out", [][]int{{0, 1}, {1, 1}}, "cell 2: every arrow loops"},
		{"not strongly connected", [][]int{{0, 1}, {1, 2}, {2, 1}}, "cell 1: cannot be reached from cell 2"},
	} {
		errs := (&Space{Dest: tt.dest}).Check()
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), tt.want) {
			t.Errorf("%s: got %v, want %q", tt.name, errs, tt.want)
		}
	}
}
