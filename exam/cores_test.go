package exam_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/google/go-cmp/cmp"
)

// TestSameOnAnyCores draws Λ_one items and loads a pool, good files and
// bad, on 1, 2 and 4 cores: the items (sources, seeds, figures), the pool
// and the errors are the same, in the same order, since each test and
// each file is made into its own slot (docs/tests.md, "On all cores").
func TestSameOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	good := corpusEnvironments(t)
	bad := append(good[:2:2],
		exam.Source{Name: "broken.anynt", Text: []byte("actions a b\nspace table {\n1 2\n}\n")},
		exam.Source{Name: "rules.anynt", Text: []byte("a -> b\n")},
		exam.Source{Name: "typo.anynt", Text: []byte("actions a b\nplace π\nreward (\n")})
	bad = append(bad, good[2:]...)
	type outcome struct {
		Items []string
		Pool  []string
		Err   string
	}
	var want outcome
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		var got outcome
		items, err := exam.LambdaOneItems(11, 25, "test")
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			got.Items = append(got.Items, fmt.Sprintf("%d/%d %s %d %v %v %d %d %d\n%s",
				it.Test, it.Number, it.Name, it.Seed, it.Complexity, it.Bits, it.KApprox, it.Cells, it.Steps, it.Source))
		}
		pool, err := exam.LoadPool(good)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pool {
			got.Pool = append(got.Pool, fmt.Sprintf("%s %v", p.Name, p.Bits))
		}
		if _, err := exam.LoadPool(bad); err == nil {
			t.Fatal("a pool with broken files loaded")
		} else {
			got.Err = err.Error()
		}
		if procs == 1 {
			want = got
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("on %d cores (-one core +%d):\n%s", procs, procs, diff)
		}
	}
}

// TestEveryAgentOnAnyCores gives a battery of the corpus's environments
// and two Λ_one tests to every built-in agent (mc-aixi-ctw with a small
// budget) on 1, 2 and 4 cores: the outcomes are the same, bit for bit,
// since every agent is made fresh for each episode and keeps no state
// outside itself; under -race, a state shared between the episodes that
// run at once (optimal's planning runs the environment's machine forward;
// mc-aixi-ctw's model) is a reported race. The papers' environments, not
// the gallery's: those hold objects, Good/Evil programs and patterns and
// both reward dynamics, and the gallery's reactive objects would triple the
// test's time under the race detector (optimal plans every item on three
// core counts).
func TestEveryAgentOnAnyCores(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	pool, err := exam.LoadPool(papersEnvironments(t))
	if err != nil {
		t.Fatal(err)
	}
	items, err := exam.Battery(pool, exam.Sampling{Weighting: exam.List, Steps: 20, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	lambda, err := exam.LambdaOneItems(3, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	items = append(items, lambda...)
	var names []string
	for _, name := range agent.Names() {
		if name == "mc-aixi-ctw" {
			name += ":simulations=4,depth=8,horizon=2"
		}
		names = append(names, name)
	}
	xs, err := exam.Examinees(names, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	var want []exam.Outcome
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		got, err := exam.Take(items, xs, exam.DefaultSettings, nil)
		if err != nil {
			t.Fatal(err)
		}
		if procs == 1 {
			want = got
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("on %d cores (-one core +%d):\n%s", procs, procs, diff)
		}
	}
}
