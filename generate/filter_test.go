package generate_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/generate"
)

// A rejection names its filter; a space that breaks the rules of the class
// is told apart from other load errors by the error's type.
func TestCheckReasons(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"syntax", "actions s r\nspace thesis r+:r+\ngoodevil {\n", generate.ReasonSyntax},
		{"bad behaviour", "actions s r\nspace thesis r+:r+\ngoodevil {\n\ta -> χ\n}\n", generate.ReasonSyntax},
		{"space: no exit", "actions s r\nspace thesis r+:r\ngoodevil pattern s\n", generate.ReasonSpace},
		{"space: not connected", "actions s r\nspace table {\n1 2\n2 3\n3 2\n}\ngoodevil pattern s\n", generate.ReasonSpace},
		{"accepted", "actions s r\nspace thesis r+:r+\ngoodevil pattern r\n", ""},
	}
	for _, tt := range tests {
		v, err := generate.Check(tt.name+".anynt", tt.src, quickFilters)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if v.Reason != tt.want || v.Accepted != (tt.want == "") {
			t.Errorf("%s: %s, want reason %q", tt.name, v, tt.want)
		}
	}
}

// A misspelt agent in the filter settings is an error the caller gets
// before anything runs, not a nil agent handed to Evaluate.
func TestCheckRefusesUnknownAgents(t *testing.T) {
	src := "actions s r\nspace thesis r+:r+\ngoodevil pattern r\n"
	for _, refs := range [][]string{{"orcale"}, {"oracle", "folower"}, nil} {
		s := quickFilters
		s.References = refs
		_, err := generate.Check("t.anynt", src, s)
		if err == nil {
			t.Errorf("references %q: no error", refs)
			continue
		}
		if len(refs) > 0 && !strings.Contains(err.Error(), "oracle") {
			t.Errorf("references %q: %v does not list the agents there are", refs, err)
		}
	}
	s := generate.DefaultEvolve
	s.Filters.References = []string{"orcale"}
	if _, err := generate.Stream(generate.StreamSettings{MaxBits: 50, Shard: 1, Shards: 1, Filters: s.Filters}, func(generate.Emitted) {}, nil, nil); err == nil {
		t.Errorf("Stream ran with an unknown agent")
	}
}

// Settings the filters cannot mean are refused before anything runs:
// random as its own reference, and runs past their ceilings.
func TestFilterSettingsAreBounded(t *testing.T) {
	tests := []struct {
		name   string
		change func(*generate.FilterSettings)
		want   string
	}{
		{"random as a reference", func(s *generate.FilterSettings) { s.References = []string{"oracle", "random"} }, "random cannot be a reference"},
		{"one episode", func(s *generate.FilterSettings) { s.Episodes = 1 }, "2 to 1000000 episodes"},
		{"too many steps", func(s *generate.FilterSettings) { s.Steps = generate.MaxFilterRuns + 1 }, "1 to 1000000 steps"},
		{"too many interactions", func(s *generate.FilterSettings) { s.Episodes, s.Steps = 1_000_000, 1_000_000 }, "at most 100000000 interactions"},
	}
	for _, tt := range tests {
		s := generate.DefaultFilters
		s.References = slices.Clone(s.References)
		tt.change(&s)
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error saying %q", tt.name, err, tt.want)
		}
	}
	if err := generate.DefaultFilters.Validate(); err != nil {
		t.Errorf("the default filters: %v", err)
	}
}

// Discrimination asks that a competent agent scores above random, and no
// one agent is competent everywhere: on the thesis's ω1-blocker the
// one-step greedy oracle scores below the follower, so the follower is the
// reference the verdict names, and fitness measures its gap.
func TestDiscriminationTakesTheBestReference(t *testing.T) {
	src, err := corpus.Files.ReadFile("thesis/omega1-blocker.anynt")
	if err != nil {
		t.Fatal(err)
	}
	v, err := generate.Check("omega1-blocker.anynt", string(src), quickFilters)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Accepted || len(v.References) != 2 {
		t.Fatalf("%s, references %+v", v, v.References)
	}
	oracle, follower := v.References[0], v.References[1]
	if oracle.Agent != "oracle" || follower.Agent != "follower" || !(follower.Mean > oracle.Mean) {
		t.Fatalf("references %+v: the follower should beat the oracle here", v.References)
	}
	if v.Best != follower || v.Best.CI95[0] <= v.Random.CI95[1] {
		t.Errorf("best %+v, random %+v: want the follower, above random", v.Best, v.Random)
	}
	if want := generate.Fitness(follower.Mean-v.Random.Mean, v.Bits); v.Fitness != want {
		t.Errorf("fitness %v, want the follower's gap per bit %v", v.Fitness, want)
	}
	// The stay agent never moves: on an environment where moving is what
	// scores, it does not discriminate, and naming it alone rejects.
	s := quickFilters
	s.References = []string{"stay"}
	if v, _ := generate.Check("omega1-blocker.anynt", string(src), s); v.Accepted || v.Reason != generate.ReasonInsensitive {
		t.Errorf("with the stay agent as the only reference: %s (stay %+v, random %+v)", v, v.Best, v.Random)
	}
}
