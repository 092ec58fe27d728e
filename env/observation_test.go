package env_test

import (
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/vm"
)

// definedObservation spells, straight from [P] §4.3, the observation of
// object i (π 0, ⊕ 1, ⊖ 2, ω1 3, …) when everything is in cells pos
// (from 1, as Step gives them): for each cell, the objects there in their
// order (⊕ and ⊖ as ⊙ but to π), the markers of the actions that lead
// there from i's cell, and ':'.
func definedObservation(e *env.Env, pos []int, i int) string {
	names := []string{"π", "⊕", "⊖"}
	if i != env.Pi {
		names = []string{"π", "⊙", "⊙"}
	}
	for _, o := range e.Objects {
		names = append(names, o.Name)
	}
	var b strings.Builder
	for c := range e.Space.Cells() {
		for k, p := range pos {
			if p-1 == c {
				b.WriteString(names[k])
			}
		}
		for a, d := range e.Space.Dest[pos[i]-1] {
			if d == c {
				b.WriteString(e.Markers[a])
			}
		}
		b.WriteString(":")
	}
	return b.String()
}

// Every object's observation, after every interaction of random runs on
// the corpus and on rings of up to 10,000 cells, is the one its definition
// spells; and it is given to the VM in pieces (runs of ':' between the few
// cells that show something, one piece from 16 cells on) that number at
// most 2k+1, their text at most 16(2k+1) symbols, for k objects and
// actions, however many the cells: what the machine writes for a run that
// misses its memo does not grow with the space.
func TestObservationIsItsDefinitionInFewPieces(t *testing.T) {
	cases := corpusAndRings(t, 200, 60, 7, 400, 10_000)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := 3 + len(c.e.Objects) + len(c.e.Actions)
			for _, name := range []string{"random", "qlearning"} {
				a, _ := agent.New(name, agent.DefaultSettings)
				ep := env.NewEpisode(c.e, a, 1)
				ep.Run(c.n, func(s env.Step) {
					for i := range s.Positions {
						want := definedObservation(c.e, s.Positions, i)
						if got := env.ObservationOf(ep, i); got != want {
							t.Fatalf("%s, interaction %d, object %d: observation\n%s\nwant\n%s", name, s.Interaction, i, got, want)
						}
						pieces := env.ObservationPieces(ep, i)
						text := 0
						for _, p := range pieces {
							text += len(p.Text)
						}
						if len(pieces) > 2*k+1 || text > 16*(2*k+1) {
							t.Fatalf("%s, interaction %d, object %d: %d pieces holding %d symbols of text; at most %d and %d for %d objects and actions",
								name, s.Interaction, i, len(pieces), text, 2*k+1, 16*(2*k+1), k)
						}
						if got := c.e.Text(vm.AppendPieces(nil, pieces)); got != want {
							t.Fatalf("%s, interaction %d, object %d: the pieces spell\n%s\nwant\n%s", name, s.Interaction, i, got, want)
						}
					}
				})
			}
		})
	}
}
