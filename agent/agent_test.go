package agent_test

import (
	"errors"
	"math"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
)

// line loads a 3-cell line (s l r) with Good, Evil and π placed, Good and
// Evil staying, no garbage and no cycle clause.
func line(t *testing.T, pi, good, evil int, rewards string) *env.Env {
	t.Helper()
	src := "actions s l r\nspace lr+:l-r+:l-r\ngoodevil pattern s\nset garbage off\nset cycle off\n" + rewards
	src += "place π " + string(rune('0'+pi)) + "\nplace ⊕ " + string(rune('0'+good)) + "\nplace ⊖ " + string(rune('0'+evil)) + "\n"
	return parseEnv(t, "line.anynt", []byte(src))
}

// firstAction returns the first action an agent takes from the placement.
func firstAction(t *testing.T, e *env.Env, name string) string {
	a, err := agent.New(name, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	var action string
	env.NewEpisode(e, a, 1).Run(1, func(s env.Step) { action = s.Action })
	return action
}

func TestFollowerGoesToGoodAndAvoidsEvil(t *testing.T) {
	if got := firstAction(t, line(t, 2, 3, 1, ""), "follower"); got != "r" {
		t.Errorf("Good one cell to the right: the follower plays %s, want r", got)
	}
	if got := firstAction(t, line(t, 2, 2, 1, ""), "follower"); got != "s" {
		t.Errorf("Good in π's cell: the follower plays %s, want s", got)
	}
	// Good out of reach (π at 1, Good at 3), Evil at 2: any move but r.
	for seed := range uint64(20) {
		a, _ := agent.New("follower", agent.DefaultSettings)
		env.NewEpisode(line(t, 1, 3, 2, ""), a, seed).Run(1, func(s env.Step) {
			if s.Action == "r" {
				t.Errorf("seed %d: the follower walked into Evil", seed)
			}
		})
	}
}

func TestOracleTakesTheBestCell(t *testing.T) {
	// Λ_one rewards: Good stays in cell 1, so the oracle moves there.
	if got := firstAction(t, line(t, 2, 1, 3, "set rewards lambda-one\n"), "oracle"); got != "l" {
		t.Errorf("Λ_one: the oracle plays %s, want l (to Good's cell)", got)
	}
	// Trace rewards: Good's cell holds +1/2, Evil's −1/2; the oracle eats
	// the best one it can reach.
	if got := firstAction(t, line(t, 2, 3, 1, ""), "oracle"); got != "r" {
		t.Errorf("trace: the oracle plays %s, want r", got)
	}
}

func TestNewRejectsUnknownAgents(t *testing.T) {
	if _, err := agent.New("clairvoyant", agent.DefaultSettings); err == nil {
		t.Error("an unknown agent was made")
	}
	e := loadFixture(t, "lambda-one/fixture-b.anynt")
	for _, name := range agent.Names() {
		a, err := agent.New(name, agent.DefaultSettings)
		if err != nil || a == nil {
			t.Fatalf("%s: %v", name, err)
		}
		a.Start(e, random.New(1, 2))
	}
}

// Lookup refuses an unknown name and Q-learning settings out of range with
// an error that keeps its cause; a factory it returns makes fresh agents.
func TestLookup(t *testing.T) {
	if _, err := agent.Lookup("clairvoyant", agent.DefaultSettings); !errors.Is(err, agent.ErrUnknown) {
		t.Errorf("unknown agent: got %v, want ErrUnknown", err)
	}
	bad := []struct {
		name string
		s    agent.Settings
	}{
		{"alpha", agent.Settings{Alpha: 0, Gamma: 0.35, Q0: 2}},
		{"alpha", agent.Settings{Alpha: 1.5, Gamma: 0.35, Q0: 2}},
		{"alpha", agent.Settings{Alpha: math.NaN(), Gamma: 0.35, Q0: 2}},
		{"gamma", agent.Settings{Alpha: 0.05, Gamma: 1, Q0: 2}},
		{"gamma", agent.Settings{Alpha: 0.05, Gamma: -0.1, Q0: 2}},
		{"q0", agent.Settings{Alpha: 0.05, Gamma: 0.35, Q0: math.Inf(1)}},
	}
	for _, tc := range bad {
		_, err := agent.Lookup("qlearning", tc.s)
		var se *agent.SettingsError
		if !errors.As(err, &se) || se.Name != tc.name {
			t.Errorf("%+v: got %v, want a SettingsError on %s", tc.s, err, tc.name)
		}
		// Other agents have no settings to refuse.
		if _, err := agent.Lookup("random", tc.s); err != nil {
			t.Errorf("random with %+v: %v", tc.s, err)
		}
	}
	edges := agent.Settings{Alpha: 1, Gamma: 0, Q0: -3}
	mk, err := agent.Lookup("qlearning", edges)
	if err != nil {
		t.Fatalf("the edges of the ranges: %v", err)
	}
	if a, b := mk(), mk(); a == b {
		t.Error("a factory returned the same agent twice")
	}
}
