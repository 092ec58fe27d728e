package corpus_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/corpus"
	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/lang"
	"github.com/anynt/anynt/random"
)

// The class paper's Example 7 (Hernández-Orallo 2010b, §4.5): noughts and
// crosses played inside the class, with ω1 the opponent and Good and Evil
// the referees. docs/tictactoe.md states the rules these games follow.
const ticTacToe = "paper/example7-tictactoe.anynt"

// turn is one interaction of a scripted game: π's action, and what the
// environment must do: the cell ω1 is in after the moves, and π's reward.
type turn struct {
	action string
	omega  int
	reward float64
}

// scripted is an agent that plays a fixed list of actions.
type scripted struct {
	actions []int
	next    int
}

func (s *scripted) Start(*env.Env, *random.Rand) { s.next = 0 }
func (s *scripted) End(float64)                  {}
func (s *scripted) Act(*env.View) int {
	a := s.actions[s.next]
	s.next++
	return a
}

// loadTicTacToe loads the corpus file, changed by edit (old → new pairs,
// each of which must occur) when it is given.
func loadTicTacToe(t *testing.T, edit ...string) *env.Env {
	t.Helper()
	src, err := fs.ReadFile(corpus.Files, ticTacToe)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	for i := 0; i+1 < len(edit); i += 2 {
		if !strings.Contains(text, edit[i]) {
			t.Fatalf("the file has no %q to change", edit[i])
		}
		text = strings.Replace(text, edit[i], edit[i+1], 1)
	}
	f, err := lang.Parse(ticTacToe, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := env.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// cellName is the marker of cell c (from 1): G11 … G33 for the grid, E1 E2
// E3 for the extra cells.
func cellName(c int) string {
	if c > 9 {
		return fmt.Sprintf("E%d", c-9)
	}
	return fmt.Sprintf("G%d%d", (c-1)/3+1, (c-1)%3+1)
}

// destination is where action a takes π from cell c: every cell reaches
// every cell.
func destination(a string, c int) int {
	for d := 1; d <= 12; d++ {
		if strings.ToUpper(a) == cellName(d) {
			return d
		}
	}
	return c // s
}

// observation is π's view with π in cell pi and ω1 in cell omega: Good in
// cell 10, Evil in 11, and in every cell the marker of the action that
// leads there, after S in π's own cell ([P] §4.3).
func observation(pi, omega int) string {
	var b strings.Builder
	for c := 1; c <= 12; c++ {
		if c == pi {
			b.WriteString("π")
		}
		switch c {
		case 10:
			b.WriteString("⊕")
		case 11:
			b.WriteString("⊖")
		}
		if c == omega {
			b.WriteString("ω1")
		}
		if c == pi {
			b.WriteString("S")
		}
		b.WriteString(cellName(c) + ":")
	}
	return b.String()
}

// play plays game from the start of an episode of e and returns every
// difference between what the environment did and what the game says: at
// each interaction π's observation (built from where π and ω1 were after
// the interaction before), ω1's cell after the moves and π's reward, which
// must be the referees' level exactly.
func play(e *env.Env, game []turn) []string {
	index := map[string]int{}
	for i, a := range e.Actions {
		index[a] = i
	}
	player := &scripted{}
	for _, m := range game {
		player.actions = append(player.actions, index[m.action])
	}
	var diffs []string
	pi, omega := 12, 12
	env.NewEpisode(e, player, 1).Run(len(game), func(s env.Step) {
		m := game[s.Interaction-1]
		if want := observation(pi, omega); s.Observation != want {
			diffs = append(diffs, fmt.Sprintf("interaction %d: π saw %s, want %s", s.Interaction, s.Observation, want))
		}
		pi, omega = destination(m.action, pi), m.omega
		if got := s.Positions[:3]; got[0] != pi || got[1] != 10 || got[2] != 11 {
			diffs = append(diffs, fmt.Sprintf("interaction %d: π, ⊕ and ⊖ in cells %v, want [%d 10 11]", s.Interaction, got, pi))
		}
		if got := s.Positions[3]; got != omega {
			diffs = append(diffs, fmt.Sprintf("interaction %d: ω1 went to cell %d, want %d", s.Interaction, got, omega))
			omega = got // later observations follow where ω1 is
		}
		if s.Reward != m.reward {
			diffs = append(diffs, fmt.Sprintf("interaction %d (%s): reward %v, want %v", s.Interaction, m.action, s.Reward, m.reward))
		}
	})
	return diffs
}

// The first game, which ω1 starts in the centre, played to a draw: π goes
// into the grid on its turns and to Good's cell (e1) on ω1's. Its first
// visit collects the initial level, 0.01; from then each visit collects 0.1,
// the judgement of the legal move before the last (the referees judge a move
// in the interaction after it, and the class sets a cell's reward before its
// owner judges). ω1 wins where it can, blocks, else takes the centre, then
// corners, then edges.
var drawnGame = []turn{
	{"s", 5, 0},     // 1, ω1's turn: π waits in cell 12
	{"g11", 12, 0},  // 2, π's: o in 1
	{"e1", 3, 0.01}, // 3: x in 3, the first corner free
	{"g31", 12, 0},  // 4: o in 7, against 3-5-7
	{"e1", 4, 0.1},  // 5: x blocks 1-4-7
	{"g23", 12, 0},  // 6: o blocks 4-5-6
	{"e1", 9, 0.1},  // 7: x in the last free corner
	{"g32", 12, 0},  // 8: o in 8
	{"e1", 2, 0.1},  // 9: x in 2: the board is full, a draw
	{"s", 12, 0},    // 10, the pause: both outside; π in Good's cell gets nothing, Good does not set it
	{"g11", 12, 0},  // 11: the second game, which π starts
	{"e1", 5, 0.1},  // 12: x in the centre
}

func TestTicTacToeDraw(t *testing.T) {
	for _, d := range play(loadTicTacToe(t), drawnGame) {
		t.Error(d)
	}
}

// π wins the second game, which it starts, with a fork that ω1, which
// blocks one threat only, cannot stop. The 0.5 of three in a row is paid at
// π's second visit after it: the game's last move, then the pause, then
// the third game, which ω1 starts.
var wonGame = append(drawnGame[:11:11],
	turn{"e1", 5, 0.1},  // 12: x in the centre
	turn{"g33", 12, 0},  // 13: o in 9
	turn{"e1", 3, 0.1},  // 14: x in 3
	turn{"g31", 12, 0},  // 15: o in 7 blocks 3-5-7 and threatens 1-4-7 and 7-8-9
	turn{"e1", 4, 0.1},  // 16: x blocks 1-4-7 only
	turn{"g32", 12, 0},  // 17: o in 8, three in a row
	turn{"e1", 12, 0.1}, // 18, the pause: the judgement of 7
	turn{"s", 5, 0},     // 19: the third game, ω1 starts; π stays in Good's cell
	turn{"g11", 12, 0},  // 20
	turn{"e1", 3, 0.5},  // 21: the win's 0.5
)

func TestTicTacToeWin(t *testing.T) {
	for _, d := range play(loadTicTacToe(t), wonGame) {
		t.Error(d)
	}
}

// π plays legally but badly and ω1 completes 1-5-9. The loss sets the
// level to 0.01, so the visit that would have paid π's last legal move
// pays 0.01.
var lostGame = []turn{
	{"s", 5, 0},     // 1
	{"g12", 12, 0},  // 2: o in 2, an edge
	{"e1", 1, 0.01}, // 3: x in 1
	{"g13", 12, 0},  // 4: o in 3; 1-5-9 is left open
	{"e1", 9, 0.1},  // 5: x in 9, three in a row
	{"s", 12, 0},    // 6, the pause
	{"g22", 12, 0},  // 7: the second game, π starts, in the centre
	{"e1", 1, 0.01}, // 8: the loss's 0.01, not 0.1 for the move in 3
	{"g33", 12, 0},  // 9
	{"e1", 3, 0.1},  // 10: the move in the centre's 0.1
}

func TestTicTacToeLoss(t *testing.T) {
	for _, d := range play(loadTicTacToe(t), lostGame) {
		t.Error(d)
	}
}

// Every kind of illegal move: into the grid on ω1's turn or in the pause,
// onto a marked cell or outside the grid on π's own turn. Each is judged
// 0.01, marks nothing (ω1 takes cell 1, where π stood on ω1's turn) and
// costs π its turn (ω1 moves again in the next interaction). Evil's cell
// pays the level's negation.
var illegalGame = []turn{
	{"g11", 5, 0},    // 1, ω1's turn: π into the grid
	{"g22", 12, 0},   // 2, π's turn: onto ω1's x; the turn is lost
	{"e2", 1, -0.01}, // 3, ω1's turn again: π into Evil's cell; x in 1, which π did not mark
	{"e1", 12, 0.01}, // 4, π's turn: π stays outside the grid
	{"e3", 9, 0},     // 5, ω1's turn again: x in 9, three in a row
	{"g11", 12, 0},   // 6, the pause: π into the grid
	{"g22", 12, 0},   // 7: the second game, π starts: a legal move at last
	{"e1", 1, 0.01},  // 8: still the pause's 0.01
	{"g33", 12, 0},   // 9
	{"e1", 3, 0.1},   // 10: the legal move's 0.1
}

func TestTicTacToeIllegalMoves(t *testing.T) {
	for _, d := range play(loadTicTacToe(t), illegalGame) {
		t.Error(d)
	}
}

// The games notice a broken environment: each mutant, the file with one
// rule or setting changed, fails the games named with it, and each game
// fails for at least one mutant.
func TestTicTacToeGamesCatchMutants(t *testing.T) {
	games := map[string][]turn{"draw": drawnGame, "win": wonGame, "loss": lostGame, "illegal": illegalGame}
	mutants := []struct {
		name     string
		old, new string
		caughtBy []string
	}{
		{"the levels 0.1 and 0.5 swapped", "reward levels 0.01 0.1 0.5", "reward levels 0.01 0.5 0.1",
			[]string{"draw", "win", "loss", "illegal"}},
		{"ω1 prefers a corner to the centre", "G22n ->. g22\n\tG11n ->. g11", "G11n ->. g11\n\tG22n ->. g22",
			[]string{"draw", "win", "loss", "illegal"}},
		{"the side that started starts again", "K_p F_x -> F_o O Δ", "K_p F_x -> F_x X Δ",
			[]string{"draw", "win", "loss", "illegal"}},
		{"three in a row pays as a legal move", "Q_o o (F_x|F_o)1 -> J3D", "Q_o o (F_x|F_o)1 -> J2D",
			[]string{"win"}},
		{"a loss pays as a legal move", "Q_x x (F_x|F_o)1 -> J1D", "Q_x x (F_x|F_o)1 -> J2D",
			[]string{"loss"}},
		{"an illegal move keeps π's turn", "Q_o (F_x|F_o)1 -> J1 (F_x|F_o)1 X Δ", "Q_o (F_x|F_o)1 -> J1 (F_x|F_o)1 O Δ",
			[]string{"illegal"}},
	}
	for _, m := range mutants {
		e := loadTicTacToe(t, m.old, m.new)
		for _, name := range m.caughtBy {
			if len(play(e, games[name])) == 0 {
				t.Errorf("with %s, the %s game still passes", m.name, name)
			}
		}
	}
}

// A random π scores 0 in expectation, the class's guarantee for Good and
// Evil sharing one program ([P] §5): over 60 episodes of 200 interactions
// random's 95% interval contains 0, and is narrow beside the smallest
// level, 0.01, so that containing 0 says something. No behaviour run meets
// a bound on the way.
func TestTicTacToeRandomScoresZero(t *testing.T) {
	random, err := agent.Lookup("random", agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	ev := env.Evaluate(loadTicTacToe(t), random, 60, 200, 1, nil)
	t.Logf("random: %+.5f [%+.5f, %+.5f]", ev.Mean, ev.CI95[0], ev.CI95[1])
	if ev.CI95[0] > 0 || ev.CI95[1] < 0 {
		t.Errorf("random's 95%% interval [%+.5f, %+.5f] does not contain 0", ev.CI95[0], ev.CI95[1])
	}
	if w := ev.CI95[1] - ev.CI95[0]; w > 0.002 {
		t.Errorf("random's 95%% interval is %.5f wide, too wide to tell", w)
	}
	for _, b := range ev.Bounds {
		if b.Hit() {
			t.Errorf("%s met a bound: %+v", b.Behaviour, b)
		}
	}
}

// Why random scores 0: nothing in the environment tells Good's seat from
// Evil's but the sign of their rewards. Over a long random game, π playing
// the same actions with e1 and e2 exchanged gets every reward negated,
// interaction by interaction, and so does π playing the same actions with
// the seats exchanged. Random plays e1 and e2 alike, so its expectation is
// its own negation.
func TestTicTacToeSeatsAreSymmetric(t *testing.T) {
	e := loadTicTacToe(t)
	swapped := loadTicTacToe(t, "place ⊕ 10\nplace ⊖ 11", "place ⊕ 11\nplace ⊖ 10")
	rng := random.New(1, 2)
	var game, mirror []int
	for range 1000 {
		a := rng.IntN(len(e.Actions))
		game = append(game, a)
		switch e.Actions[a] {
		case "e1":
			a++
		case "e2":
			a--
		}
		mirror = append(mirror, a)
	}
	rewards := func(e *env.Env, actions []int) []float64 {
		var r []float64
		env.NewEpisode(e, &scripted{actions: actions}, 1).Run(len(actions), func(s env.Step) { r = append(r, s.Reward) })
		return r
	}
	want := rewards(e, game)
	nonzero := 0
	for _, r := range want {
		if r != 0 {
			nonzero++
		}
	}
	if nonzero < 100 {
		t.Errorf("only %d of %d interactions paid anything: the game does not test the referees", nonzero, len(want))
	}
	for _, c := range []struct {
		name string
		got  []float64
	}{
		{"e1 and e2 exchanged", rewards(e, mirror)},
		{"the seats exchanged", rewards(swapped, game)},
	} {
		for i := range want {
			if c.got[i] != -want[i] {
				t.Errorf("%s: interaction %d pays %v, against %v", c.name, i+1, c.got[i], want[i])
				break
			}
		}
	}
}
