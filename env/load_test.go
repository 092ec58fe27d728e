package env_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

func load(t *testing.T, src string) (*env.Env, error) {
	t.Helper()
	f, err := lang.Parse("t.anynt", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return env.Load(f)
}

const valid = "actions s r\nspace thesis r+:r+\ngoodevil {\n\t->. s\n}\n"

// A broken environment is refused with positioned errors, all of them.
func TestLoadErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"no actions", "space thesis r+:r+\ngoodevil pattern 0\n", "t.anynt:1:1: an environment declares its actions"},
		{"no space", "actions s r\ngoodevil pattern 0\n", "t.anynt:1:1: an environment gives its space"},
		{"no goodevil", "actions s r\nspace thesis r+:r+\n", "t.anynt:1:1: an environment gives the Good/Evil behaviour"},
		{"one action", "actions s\nspace thesis ::\ngoodevil pattern 0\n", "t.anynt:1:1: an environment needs at least 2 actions"},
		{"upper-case action", "actions s R\nspace thesis R+:R+\ngoodevil pattern 0\n", "t.anynt:1:11: action R must start with a lower-case letter"},
		{"bad code", "actions s r\nspace thesis r+:x\ngoodevil pattern 0\n", `t.anynt:2:17: "x" is neither an action`},
		{"no exit", "actions s r\nspace thesis r+:r\ngoodevil pattern 0\n", "t.anynt:2:1: the space is invalid: cell 2: every arrow loops"},
		{"not connected", "actions s r\nspace table {\n1 2\n2 3\n3 2\n}\ngoodevil pattern 0\n", "t.anynt:2:1: the space is invalid: cell 1: cannot be reached from cell 2"},
		{"short row", "actions s r\nspace table {\n1\n1 1\n}\ngoodevil pattern 0\n", "t.anynt:3:1: a table row gives one cell for each of the 2 actions"},
		{"two spaces", valid + "space thesis r+:r+\n", "t.anynt:6:1: the space is already given at t.anynt:2:1"},
		{"bad behaviour", "actions s r\nspace thesis r+:r+\ngoodevil {\n\ta -> χ\n}\n", "t.anynt:4:7: χ on the right-hand side must carry a subscript"},
		{"bad pattern", "actions s r\nspace thesis r+:r+\ngoodevil pattern 0 x\n", "t.anynt:3:20: x is not an action"},
		{"top-level rule", valid + "a -> b\n", "t.anynt:6:1: rules of an environment stand inside an object"},
		{"unknown setting", valid + "set speed 3\n", "t.anynt:6:1: set speed 3: unknown setting speed"},
		{"bad reward", valid + "reward 2\n", "t.anynt:6:1: reward 2: a reward lies in (0, 1]"},
		{"bad place", valid + "place ω9 1\n", "t.anynt:6:1: place ω9 1: no object ω9"},
		{"place outside", valid + "place π 3\n", "π is placed in cell 3; the space has 2 cells"},
		{"Good on Evil", valid + "place ⊕ 1\nplace ⊖ 1\n", "Good and Evil are placed in the same cell"},
		{"cycle bound above its ceiling", valid + "set cycle-bound 99999999999\n", "t.anynt:6:1: set cycle-bound 99999999999: cycle-bound is at most 1000000"},
		{"max-len above its ceiling", valid + "set max-len 1000000000000\n", "t.anynt:6:1: set max-len 1000000000000: max-len is at most 1000000"},
		{"max-steps beyond int", valid + "set max-steps 99999999999999999999999\n", "t.anynt:6:1: set max-steps 99999999999999999999999: max-steps is at most 1000000"},
		{"max-work above its ceiling", valid + "set max-work 100000001\n", "t.anynt:6:1: set max-work 100000001: max-work is at most 100000000"},
		{"max-steps zero", valid + "set max-steps 0\n", "t.anynt:6:1: set max-steps 0: max-steps is a whole number from 1 to 1000000"},
		{"object named like an action", "actions s r\nspace thesis r+:r+\nobject r {\n\t->. s\n}\ngoodevil pattern 0\n", "t.anynt:1:11: r is already an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// A behaviour that never halts only ever costs its bound: the output is the
// string at the bound, and the run goes on.
func TestRunawayBehaviourCostsItsBound(t *testing.T) {
	e, err := load(t, "actions s r\nspace thesis r+:r+\ngoodevil {\n\t-> r\n}\nset max-steps 50\nset max-len 1000\n")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := agent.New("random", agent.DefaultSettings)
	ep := env.NewEpisode(e, a, 1)
	ep.Run(20, nil)
	if ep.MaxSteps != 100 {
		t.Errorf("the most steps of an interaction is %d, want 100: Good's and Evil's runs, each cut at its bound of 50", ep.MaxSteps)
	}
}

// Every setting is taken as written up to its ceiling: the ceilings
// themselves are accepted.
func TestSettingsAtTheirCeilings(t *testing.T) {
	e, err := load(t, valid+"set cycle-bound 1000000\nset max-steps 1000000\nset max-len 1000000\nset max-work 100000000\n")
	if err != nil {
		t.Fatal(err)
	}
	want := env.Settings{Cycle: true, Garbage: true, CycleBound: env.MaxCycleBound,
		MaxSteps: env.MaxBehaviourSteps, MaxLen: env.MaxBehaviourLen, MaxWork: env.MaxBehaviourWork}
	if e.Settings != want {
		t.Errorf("settings %+v, want %+v", e.Settings, want)
	}
}

// A space is bounded too: a ring of MaxCells cells loads, one more cell is
// refused at the space declaration, whether it comes as a table or as a
// code.
func TestSpacesAreBounded(t *testing.T) {
	ring := func(n int) string {
		var b strings.Builder
		b.WriteString("actions s r\nspace table {\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "\t%d %d\n", i, i%n+1)
		}
		return b.String() + "}\ngoodevil pattern r\n"
	}
	if _, err := load(t, ring(env.MaxCells)); err != nil {
		t.Fatalf("a ring of MaxCells cells: %v", err)
	}
	_, err := load(t, ring(env.MaxCells+1))
	if want := fmt.Sprintf("t.anynt:2:1: the table has %d cells, more than %d", env.MaxCells+1, env.MaxCells); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a ring of MaxCells+1 cells: %v, want %q", err, want)
	}
	code := "actions s r\nspace thesis " + strings.Repeat("r+:", env.MaxCells) + "r\ngoodevil pattern r\n"
	_, err = load(t, code)
	if want := fmt.Sprintf("t.anynt:2:1: the space has %d cells, more than %d", env.MaxCells+1, env.MaxCells); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a code of MaxCells+1 cells: %v, want %q", err, want)
	}
}

// Runs stopped by a bound are counted, for each behaviour, and summed over
// an evaluation's episodes: Good/Evil's "-> r" never halts, so each of its
// runs stops at the step bound (an observation of this 2-cell line and 50
// r's fit max-len); ω1 halts at once; ω2 writes ten symbols a step and
// stops at the length bound.
func TestBoundsAreCounted(t *testing.T) {
	src := "actions s r\nspace thesis r+:r+\n" +
		"object ω1 {\n\t->. s\n}\n" +
		"object ω2 {\n\t-> : : : : : : : : : :\n}\n" +
		"goodevil {\n\t-> r\n}\nset max-steps 50\nset max-len 100\nset garbage off\nset cycle off\n"
	e, err := load(t, src)
	if err != nil {
		t.Fatal(err)
	}
	const episodes, n = 3, 20
	ev := env.Evaluate(e, func() env.Agent { a, _ := agent.New("random", agent.DefaultSettings); return a }, episodes, n, 1, nil)
	want := []env.BoundCount{
		{Behaviour: "ω1", Runs: episodes * n},
		{Behaviour: "ω2", Runs: episodes * n, LengthLimit: episodes * n},
		{Behaviour: "Good/Evil", Runs: 2 * episodes * n, StepLimit: 2 * episodes * n},
	}
	if len(ev.Bounds) != len(want) {
		t.Fatalf("bounds %+v, want %+v", ev.Bounds, want)
	}
	for i := range want {
		if ev.Bounds[i] != want[i] {
			t.Errorf("bounds[%d] = %+v, want %+v", i, ev.Bounds[i], want[i])
		}
	}
	if ev.Bounds[0].Hit() || !ev.Bounds[1].Hit() {
		t.Errorf("Hit: ω1 %v, ω2 %v; want false, true", ev.Bounds[0].Hit(), ev.Bounds[1].Hit())
	}
}

// A space generator that never halts is cut at its bound and its output
// post-processed: here it writes a 2-cell ring and then loops on x, which
// the decoding drops. One that writes r+: forever reaches its length bound
// (100,000 symbols) with a ring of 33,333 cells, fewer than MaxCells.
func TestGeneratorAtItsBound(t *testing.T) {
	e, err := load(t, "actions s r\nspace generator thesis {\n\tx -> x\n\t-> r+:r+x\n}\ngoodevil pattern 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := e.Space.Table(e.Actions); got != "cell\ts\tr\n1\t1\t2\n2\t2\t1\n" {
		t.Errorf("the generator cut at its step bound gave\n%s", got)
	}
	e, err = load(t, "actions s r\nspace generator thesis {\n\t-> r+:\n}\ngoodevil pattern 1\nset cycle-bound 10\n")
	if err != nil || e.Space.Cells() != 33_333 || e.Space.Dest[33_332][1] != 0 {
		t.Errorf("a generator that writes cells forever: %v; want a ring of 33,333 cells", err)
	}
}

// The paper's ring generator of Example 5 (with its erratum corrected)
// writes the 2-cell space +r+r.
func TestPaperExample5Space(t *testing.T) {
	e := loadCorpus(t, "paper/example5.anynt")
	if got := e.Space.Table(e.Actions); got != "cell\tl\tr\n1\t1\t2\n2\t2\t1\n" {
		t.Errorf("space:\n%s", got)
	}
}

// A space that breaks the rules of the class is told apart by its error's
// type, not its text: the error is an *env.InvalidSpaceError that unwraps to
// the positioned list and to each env.SpaceError; other errors are not.
func TestLoadTypesSpaceErrors(t *testing.T) {
	tests := []struct {
		name, src string
		space     bool
	}{
		{"no exit", "actions s r\nspace thesis r+:r\ngoodevil pattern 0\n", true},
		{"not connected", "actions s r\nspace table {\n1 2\n2 3\n3 2\n}\ngoodevil pattern 0\n", true},
		{"bad behaviour", "actions s r\nspace thesis r+:r+\ngoodevil {\n\ta -> χ\n}\n", false},
		{"short row", "actions s r\nspace table {\n1\n1 1\n}\ngoodevil pattern 0\n", false},
	}
	for _, tt := range tests {
		_, err := load(t, tt.src)
		var invalid *env.InvalidSpaceError
		var one env.SpaceError
		var list lang.ErrorList
		if got := errors.As(err, &invalid); got != tt.space {
			t.Errorf("%s: errors.As(%v, *InvalidSpaceError) = %v, want %v", tt.name, err, got, tt.space)
		}
		if got := errors.As(err, &one); got != tt.space {
			t.Errorf("%s: errors.As(%v, SpaceError) = %v, want %v", tt.name, err, got, tt.space)
		}
		if !errors.As(err, &list) || list.Error() != err.Error() {
			t.Errorf("%s: the error does not unwrap to its positioned list: %v", tt.name, err)
		}
	}
}

// Placement and action mistakes get one error each, at the statement that
// made them (not at 1:1, and not an upper-case action cascading into six
// errors).
func TestPlacementAndActionErrorsArePositioned(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"place outside", valid + "place π 9\n",
			"t.anynt:6:1: π is placed in cell 9; the space has 2 cells"},
		{"Good on Evil", valid + "place ⊕ 1\nset cycle on\nplace ⊖ 1\n",
			"t.anynt:8:1: Good and Evil are placed in the same cell, 1 (the other at t.anynt:6:1); they never share one"},
		{"upper-case actions", "actions L R S\nspace thesis R+:R+\ngoodevil pattern 0\n",
			"t.anynt:1:9: actions L, R, S must start with a lower-case letter, such as actions s l r: an action's observation marker is its upper-case form"},
		{"an action twice", "actions s r r\nspace thesis r+:r+\ngoodevil pattern 0\n",
			"t.anynt:1:13: action r is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.src)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got\n%v\nwant exactly\n%s", err, tt.want)
			}
		})
	}
}
