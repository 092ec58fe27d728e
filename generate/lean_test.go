package generate

import (
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
)

// leanSources are environments the lean episodes apply to: enumerated
// candidates (the first ones, and a sample further on, with more cells and
// actions) each also with the settings a file may change, the corpus's
// pattern environments, and a large ring.
func leanSources(t *testing.T, first, sample int) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	variants := []string{"", "set rewards lambda-one\n", "set cycle off\nset garbage off\n", "reward 1/8\nset cycle-bound 3\n",
		"place π 2\nplace ⊖ 1\n", "place ⊕ 2\nset cycle-bound 1\n", "set rewards lambda-one\nplace ⊕ 1\nreward 1\n"}
	i := 0
	err := Enumerate(80, func(c Candidate) bool {
		if i < first || i%997 == 0 {
			for k, v := range variants {
				srcs[fmt.Sprintf("enumerated %d/%d", c.Index, k)] = c.Source() + v
			}
		}
		i++
		return i < first+997*sample
	})
	if err != nil {
		t.Fatal(err)
	}
	fs.WalkDir(corpus.Files, ".", func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".anynt") {
			b, _ := corpus.Files.ReadFile(path)
			if f, err := lang.Parse(path, b); err == nil && env.IsEnvironment(f) {
				srcs[path] = string(b)
			}
		}
		return nil
	})
	var ring strings.Builder
	ring.WriteString("actions a0 a1 a2\nspace table {\n")
	for c := range 60 {
		fmt.Fprintf(&ring, "\t%d %d %d\n", c+1, (c+1)%60+1, (c+59)%60+1)
	}
	ring.WriteString("}\ngoodevil pattern a1 a1 a2 a0 a1\n")
	srcs["a ring of 60 cells"] = ring.String()
	return srcs
}

func mustLoad(t *testing.T, name, src string) *env.Env {
	t.Helper()
	f, err := lang.Parse(name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return e
}

// The filters' runs of an agent score the same, episode for episode and
// bit for bit, whether they play lean (env.LeanPlayer, taken from the
// pool, on the machine's cores) or through env.Player: on every
// environment of leanSources, for each agent that acts by a rule, with
// short, the filters' and long episodes, extended look by look as the
// sequential test extends them.
func TestLeanRuns(t *testing.T) {
	first, sample := 300, 40
	if testing.Short() {
		first, sample = 50, 5
	}
	leanEnvs := 0
	for name, src := range leanSources(t, first, sample) {
		e := mustLoad(t, name, src)
		lean, ok := e.Lean()
		if !ok {
			continue
		}
		leanEnvs++
		for _, who := range []string{"random", "follower", "oracle"} {
			f, err := agent.Lookup(who, agent.DefaultSettings)
			if err != nil {
				t.Fatal(err)
			}
			a := filterAgent{f, agent.RuleOf(f())}
			if a.rule == env.NoRule {
				t.Fatalf("%s acts by no rule", who)
			}
			for _, steps := range []int{1, 100, 2000} {
				s := FilterSettings{Seed: uint64(len(name)), Steps: steps}
				fast, plain := newRuns(e, lean, who, a, s), newRuns(e, nil, who, a, s)
				if fast.lean == nil || plain.lean != nil {
					t.Fatalf("%s, %s: lean runs %v, plain runs %v", name, who, fast.lean != nil, plain.lean != nil)
				}
				for _, n := range []int{3, 5} {
					fast.extend(n)
					plain.extend(n)
				}
				for i := range fast.scores {
					if got, want := fast.scores[i], plain.scores[i]; math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("%s, %s, episode %d of %d steps: lean %v, env %v\n%s", name, who, i, steps, got, want, src)
					}
				}
			}
		}
	}
	t.Logf("%d environments with a lean form", leanEnvs)
	if leanEnvs < 100 {
		t.Fatalf("only %d environments have a lean form", leanEnvs)
	}
}

// Check gives CheckPlain's verdicts, field for field, on leanSources with
// the default filters and the fixed budget, and with references of which
// one plays lean and one does not.
//
// Three sources took 85% of this test's time. The ring of 60 cells and
// the torus are played with the default filters only: they are lean, their
// episodes are compared with env's bit for bit, agent by agent, by
// TestLeanRuns, and the other lean sources reach every verdict, the
// sequential test's maximum among them, in all three settings. Noughts
// and crosses is left out: it is not lean, so Check plays it as CheckPlain
// does, the branch the gallery's environments with objects take in all
// three settings.
func TestLeanFilters(t *testing.T) {
	first, sample := 20, 3
	if testing.Short() {
		first, sample = 5, 1
	}
	fixed := DefaultFilters
	fixed.Sequential, fixed.Episodes = false, 40
	mixed := DefaultFilters
	mixed.References = []string{"stay", "oracle"}
	large := map[string]bool{"a ring of 60 cells": true, "paper/fig3-torus.anynt": true}
	for name, src := range leanSources(t, first, sample) {
		settings := []FilterSettings{DefaultFilters, fixed, mixed}
		switch {
		case name == "paper/example7-tictactoe.anynt":
			continue
		case large[name]:
			settings = settings[:1]
		}
		for _, s := range settings {
			got, err := Check(name, src, s)
			if err != nil {
				t.Fatal(err)
			}
			want, err := CheckPlain(name, src, s)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, %v: Check %+v\nCheckPlain %+v\n%s", name, s.References, got, want, src)
			}
		}
	}
}

// Which environments play lean: those without a behaviour program or
// reward levels; and which agents: Random, Follower and Oracle, not
// another agent, nor a type that embeds one of them (it may act otherwise).
func TestLeanApplies(t *testing.T) {
	tests := []struct {
		name, src string
		lean      bool
	}{
		{"a pattern", "actions a0 a1\nspace thesis 1+:1-\ngoodevil pattern a1\n", true},
		{"a program", "actions a0 a1\nspace thesis 1+:1-\ngoodevil {\n\t->. a1\n}\n", false},
		{"an object", "actions a0 a1\nspace thesis 1+:1-\nobject ω1 {\n\t->. a1\n}\ngoodevil pattern a1\n", false},
		{"reward levels", "actions a0 a1\nspace thesis 1+:1-\nreward levels 1/2 1\ngoodevil pattern a1\n", false},
	}
	for _, tt := range tests {
		if _, ok := mustLoad(t, tt.name, tt.src).Lean(); ok != tt.lean {
			t.Errorf("%s: lean %v, want %v", tt.name, ok, tt.lean)
		}
	}
	for name, want := range map[string]env.Rule{"random": env.RandomRule, "follower": env.FollowerRule, "oracle": env.OracleRule, "qlearning": env.NoRule, "stay": env.NoRule} {
		if got := agent.RuleOf(must(agent.New(name, agent.DefaultSettings))); got != want {
			t.Errorf("RuleOf(%s) = %v, want %v", name, got, want)
		}
	}
	type embedding struct{ agent.Random }
	if got := agent.RuleOf(&embedding{}); got != env.NoRule {
		t.Errorf("RuleOf(a type embedding Random) = %v, want NoRule", got)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// The candidate checker gives Check's verdicts, field for field, on the
// first enumerated candidates and a sample further on, with the default
// filters, the fixed budget, and references that do not play lean (every
// candidate then goes through its text).
func TestCandidateChecker(t *testing.T) {
	first, sample := 1500, 60
	if testing.Short() {
		first, sample = 150, 6
	}
	fixed := DefaultFilters
	fixed.Sequential, fixed.Episodes = false, 40
	other := DefaultFilters
	other.References = []string{"follower", "stay"}
	for _, s := range []FilterSettings{DefaultFilters, fixed, other} {
		cc, err := newCandidateChecker(s)
		if err != nil {
			t.Fatal(err)
		}
		i, fromText := 0, 0
		err = Enumerate(80, func(c Candidate) bool {
			if i < first || i%997 == 0 {
				if _, ok := cc.spaces[c.Space]; !ok {
					fromText++
				}
				got := cc.check(c)
				want, err := Check(fmt.Sprintf("candidate-%d.anynt", c.Index), c.Source(), s)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%+v: candidate %d: checker %+v\nCheck %+v\n%s", s, c.Index, got, want, c.Source())
				}
			}
			i++
			return i < first+997*sample
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%v: %d candidates checked from their text", s.References, fromText)
		if cc.lean == slices.Contains(s.References, "stay") {
			t.Errorf("%v: lean %v", s.References, cc.lean)
		}
	}
}

// BenchmarkLeanEpisodes measures env.LeanPlayer alone: the first 1,000
// candidates at 70 bits, 16 episodes of 100 interactions of each rule,
// an operation an interaction (the start-up garbage phase aside).
func BenchmarkLeanEpisodes(b *testing.B) {
	var envs []*env.Lean
	Enumerate(70, func(c Candidate) bool {
		f, err := lang.Parse("c.anynt", []byte(c.Source()))
		if err != nil {
			b.Fatal(err)
		}
		e, err := env.Load(f)
		if err != nil {
			b.Fatal(err)
		}
		lean, ok := e.Lean()
		if !ok {
			b.Fatal("no lean form")
		}
		envs = append(envs, lean)
		return len(envs) < 1000
	})
	b.ReportAllocs()
	p := env.NewLeanPlayer(envs[0])
	n := 0
	for b.Loop() {
		p.Reset(envs[n%len(envs)])
		for _, rule := range []env.Rule{env.RandomRule, env.OracleRule, env.FollowerRule} {
			for i := range 16 {
				p.Episode(rule, env.EpisodeSeed(1, i), 100)
			}
		}
		n++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n*48*100), "ns/interaction")
}
