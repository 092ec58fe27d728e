package study_test

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/random"
	"github.com/anynt/anynt/study"
	"github.com/google/go-cmp/cmp"
)

// clicker plays a random accessible cell of each view, from its own
// stream.
type clicker struct{ rng *random.Rand }

func newClicker(seed uint64) *clicker { return &clicker{random.New(seed, 1)} }

func (c *clicker) cell(v study.View) int {
	var open []int
	for _, cell := range v.Cells {
		if cell.Accessible {
			open = append(open, cell.Number)
		}
	}
	return open[c.rng.IntN(len(open))]
}

// play makes n moves (all that are left when n < 0) and returns the last
// view.
func play(t testing.TB, s *study.Study, token string, v study.View, c *clicker, n int) study.View {
	t.Helper()
	for i := 0; !v.Over && i != n; i++ {
		var err error
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 800}); err != nil {
			t.Fatalf("move %d: %v", v.Seq, err)
		}
	}
	return v
}

func records(t testing.TB, s *study.Study) []study.Record {
	t.Helper()
	var rs []study.Record
	if err := s.Records(func(r study.Record) error { rs = append(rs, r); return nil }); err != nil {
		t.Fatal(err)
	}
	return rs
}

// actions plays the recorded actions back to an episode.
type actions struct {
	list []int
	i    int
}

func (a *actions) Start(*env.Env, *random.Rand) {}
func (a *actions) Act(*env.View) int            { a.i++; return a.list[a.i-1] }
func (a *actions) End(float64)                  {}

// A whole Λ_one test played through Start and Move records, exercise by
// exercise, what episode 0 of each item gives an agent that plays the
// same actions: the same observations and the same rewards, one record a
// step. The views count the steps as they go.
func TestAWholeTestIsTheEpisodesOfItsItems(t *testing.T) {
	s, _ := open(t, design(t, 2))
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Participant != 1 || v.Test != 1 || v.Exercise != 1 || v.Step != 0 || v.Seq != 0 || v.Last != nil || v.Over {
		t.Fatalf("first view %+v", v)
	}
	c := newClicker(1)
	for seq := 0; !v.Over; seq++ {
		next, err := s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 800})
		if err != nil {
			t.Fatal(err)
		}
		if next.Seq != seq+1 || next.Last == nil || next.Last.Exercise != v.Exercise || next.Last.Step != v.Step+1 {
			t.Fatalf("after move %d: seq %d, last %+v; from exercise %d, step %d", seq, next.Seq, next.Last, v.Exercise, v.Step)
		}
		if l := next.Last; l.Value > 0 && l.Sign != 1 || l.Value < 0 && l.Sign != -1 || l.Value == 0 && l.Sign != 0 {
			t.Fatalf("after move %d: reward %v shown with sign %d", seq, l.Value, l.Sign)
		}
		v = next
	}
	if v.Exercise != 8 || v.Cells != nil || len(v.Exercises) != 7 {
		t.Errorf("the view at the end %+v", v)
	}
	items := s.Design().Items
	rs := records(t, s)
	if len(rs) != 350 {
		t.Fatalf("%d records; Λ_one has 350 steps", len(rs))
	}
	for x := range 7 {
		it := items[x]
		var mine []study.Record
		for _, r := range rs {
			if r.Exercise == x+1 {
				mine = append(mine, r)
			}
		}
		if len(mine) != it.Steps || v.Exercises[x].Done != it.Steps {
			t.Fatalf("exercise %d: %d records, %d done; %d steps", x+1, len(mine), v.Exercises[x].Done, it.Steps)
		}
		a := &actions{}
		for _, r := range mine {
			a.list = append(a.list, r.Action)
		}
		var want []study.Record
		env.NewEpisode(it.Env, a, env.EpisodeSeed(it.Seed, 0)).Run(it.Steps, func(st env.Step) {
			want = append(want, study.Record{Step: st.Interaction, Observation: st.Observation, Reward: st.Reward})
		})
		for i, r := range mine {
			got := study.Record{Step: r.Step, Observation: r.Observation, Reward: r.Reward}
			if got != want[i] {
				t.Fatalf("exercise %d, step %d: recorded %+v; the episode gives %+v", x+1, i+1, got, want[i])
			}
		}
	}
}

// A click on a cell plays the lowest action leading there from the
// participant's cell, and the cells marked accessible are exactly those
// some action reaches; among the moves of a whole test some cell is
// reached by more than one action, so the rule is put to the test.
func TestAClickPlaysTheLowestActionLeadingThere(t *testing.T) {
	s, _ := open(t, design(t, 1))
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	items := s.Design().Items
	c := newClicker(2)
	ambiguous := 0
	for !v.Over {
		dest := items[v.Exercise-1].Env.Space.Dest[you(v)-1]
		for _, cell := range v.Cells {
			if cell.Accessible != slices.Contains(dest, cell.Number-1) {
				t.Fatalf("exercise %d: cell %d accessible %t; the participant's cell leads to %v (from 0)", v.Exercise, cell.Number, cell.Accessible, dest)
			}
		}
		cell := c.cell(v)
		want := slices.Index(dest, cell-1)
		if slices.Index(dest[want+1:], cell-1) >= 0 {
			ambiguous++
		}
		seq := v.Seq
		if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: cell, ClientMillis: 800}); err != nil {
			t.Fatal(err)
		}
		if r := records(t, s)[seq]; r.Cell != cell || r.Action != want {
			t.Fatalf("a click on cell %d from %v recorded as cell %d, action %d; want action %d", cell, dest, r.Cell, r.Action, want)
		}
	}
	if ambiguous == 0 {
		t.Error("no click had two actions to choose from")
	}
}

// you is the participant's cell in v.
func you(v study.View) int {
	for _, c := range v.Cells {
		if slices.Contains(c.Objects, "you") {
			return c.Number
		}
	}
	return 0
}

// Closing the study mid-exercise and opening it again (a restart) resumes
// the session at the same view, from the database alone, and loses no
// record; the session then plays on to the end.
func TestAReopenedStudyResumesWhereItStopped(t *testing.T) {
	d := design(t, 1)
	s, path := open(t, d)
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClicker(3)
	v = play(t, s, token, v, c, 57) // exercise 3, step 7
	before := records(t, s)
	s.Close()

	s, err = study.Open(path, d)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.View(token)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(v, got); diff != "" {
		t.Fatalf("the view after the restart differs (-before +after):\n%s", diff)
	}
	if v.Exercise != 3 || v.Step != 7 {
		t.Fatalf("stopped at exercise %d, step %d; the test means mid-exercise 3", v.Exercise, v.Step)
	}
	if diff := cmp.Diff(before, records(t, s)); diff != "" {
		t.Fatalf("the records after the restart differ:\n%s", diff)
	}
	v = play(t, s, token, got, c, -1)
	if rs := records(t, s); len(rs) != 350 || !cmp.Equal(rs[:len(before)], before) {
		t.Errorf("%d records at the end, the first ones changed: %t", len(rs), !cmp.Equal(rs[:len(before)], before))
	}
}

// Every refusal changes nothing: the next legal move is still the one the
// view asked for.
func TestMovesAreRefused(t *testing.T) {
	s, _ := open(t, design(t, 1))
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClicker(4)
	v = play(t, s, token, v, c, 3)
	var closed int // a cell no action reaches, if any
	for _, cell := range v.Cells {
		if !cell.Accessible {
			closed = cell.Number
		}
	}
	if closed == 0 {
		t.Fatalf("every cell of view %+v is accessible: the test needs one that is not", v)
	}
	other := strings.Repeat("0", 32)
	cases := []struct {
		token string
		move  study.Move
		want  error
	}{
		{token, study.Move{Participant: 2, Seq: v.Seq, Cell: c.cell(v)}, study.ErrOtherSession},
		{token, study.Move{Participant: -1, Seq: v.Seq, Cell: c.cell(v)}, study.ErrOtherSession},
		{token, study.Move{Seq: v.Seq - 1, Cell: c.cell(v)}, study.ErrStale},
		{token, study.Move{Seq: v.Seq + 1, Cell: c.cell(v)}, study.ErrStale},
		{token, study.Move{Seq: v.Seq, Cell: 0}, study.ErrOutOfRange},
		{token, study.Move{Seq: v.Seq, Cell: len(v.Cells) + 1}, study.ErrOutOfRange},
		{token, study.Move{Seq: v.Seq, Cell: -5}, study.ErrOutOfRange},
		{token, study.Move{Seq: v.Seq, Cell: closed}, study.ErrNotAccessible},
		{other, study.Move{Seq: v.Seq, Cell: c.cell(v)}, study.ErrNoSession},
		{"", study.Move{Seq: v.Seq, Cell: c.cell(v)}, study.ErrNoSession},
		{strings.ToUpper(token), study.Move{Seq: v.Seq, Cell: c.cell(v)}, study.ErrNoSession},
		{token + "0", study.Move{Seq: v.Seq, Cell: c.cell(v)}, study.ErrNoSession},
	}
	for _, k := range cases {
		if _, err := s.Move(k.token, k.move); !errors.Is(err, k.want) {
			t.Errorf("move %+v of session %q: %v, want %v", k.move, k.token, err, k.want)
		}
	}
	if _, err := s.View(other); !errors.Is(err, study.ErrNoSession) {
		t.Errorf("the view of an unknown session: %v, want ErrNoSession", err)
	}
	if after, err := s.View(token); err != nil || !cmp.Equal(after, v) || len(records(t, s)) != 3 {
		t.Errorf("after the refusals the view is %+v (%v), %d records; want %+v, 3", after, err, len(records(t, s)), v)
	}
	if v, err = s.Move(token, study.Move{Participant: 1, Seq: v.Seq, Cell: c.cell(v)}); err != nil {
		t.Errorf("a move of the session's own participant: %v", err)
	}
	v = play(t, s, token, v, c, -1)
	if _, err := s.Move(token, study.Move{Seq: v.Seq, Cell: 1}); !errors.Is(err, study.ErrOver) {
		t.Errorf("a move after the end: %v, want ErrOver", err)
	}
}

// The intro must be answered as the design asks, within bounds.
func TestStartChecksTheIntro(t *testing.T) {
	d := design(t, 1)
	d.Intro = study.Intro{Consent: "I agree.", AskCode: true, Questions: []string{"Age?", "Hand?"}}
	s, _ := open(t, d)
	ok := study.Answers{Consent: true, Code: "P-17", Replies: []string{"40", "left\nmostly"}}
	cases := []struct {
		change func(*study.Answers)
		says   string // "" when accepted
	}{
		{func(a *study.Answers) {}, ""},
		{func(a *study.Answers) { a.Code = strings.Repeat("é", 32) }, ""},
		{func(a *study.Answers) { a.Replies[0] = strings.Repeat("x", study.MaxReply) }, ""},
		{func(a *study.Answers) { a.Consent = false }, "consent"},
		{func(a *study.Answers) { a.Code = "" }, "code is missing"},
		{func(a *study.Answers) { a.Code = "   " }, "code is missing"},
		{func(a *study.Answers) { a.Code = strings.Repeat("x", study.MaxCode+1) }, "65 bytes"},
		{func(a *study.Answers) { a.Code = "a\x00b" }, "cannot be printed"},
		{func(a *study.Answers) { a.Code = "\tP-17" }, "begins with white space (U+0009)"},
		{func(a *study.Answers) { a.Code = "P-17 " }, "ends with white space (U+0020)"},
		{func(a *study.Answers) { a.Code = "P-17\u00a0" }, "ends with white space (U+00A0)"},
		{func(a *study.Answers) { a.Code = "\u2028P-17" }, "begins with white space (U+2028)"},
		{func(a *study.Answers) { a.Code = "P 17" }, ""},
		{func(a *study.Answers) { a.Code = "P\u200b17" }, "character 2, U+200B, cannot be printed"}, // zero-width space
		{func(a *study.Answers) { a.Code = "P\u202e17" }, "character 2, U+202E, cannot be printed"}, // right-to-left override
		{func(a *study.Answers) { a.Code = "P\u200d17" }, "U+200D, cannot be printed"},              // zero-width joiner
		{func(a *study.Answers) { a.Code = "\ufeffP17" }, "U+FEFF, cannot be printed"},              // byte order mark
		{func(a *study.Answers) { a.Code = "P\u00ad17" }, "U+00AD, cannot be printed"},              // soft hyphen
		{func(a *study.Answers) { a.Code = "P\u3164" }, "U+3164, cannot be printed"},                // Hangul filler
		{func(a *study.Answers) { a.Code = "P\ufe0f17" }, "U+FE0F, cannot be printed"},              // variation selector
		{func(a *study.Answers) { a.Code = "P\u200317" }, "U+2003, cannot be printed"},              // em space
		{func(a *study.Answers) { a.Code = "P\ue00017" }, "U+E000, cannot be printed"},              // private use
		{func(a *study.Answers) { a.Code = "P\U000e0001" }, "U+E0001, cannot be printed"},           // language tag
		{func(a *study.Answers) { a.Code = "P\u0378" }, "U+0378, cannot be printed"},                // unassigned
		{func(a *study.Answers) { a.Code = "a\nb" }, "cannot be printed"},
		{func(a *study.Answers) { a.Code = "\xff" }, "cannot be printed"},
		{func(a *study.Answers) { a.Replies = a.Replies[:1] }, "1 replies to 2 questions"},
		{func(a *study.Answers) { a.Replies = append(a.Replies, "x") }, "3 replies to 2 questions"},
		{func(a *study.Answers) { a.Replies[1] = strings.Repeat("x", study.MaxReply+1) }, "reply 2 is 1001 bytes"},
		{func(a *study.Answers) { a.Replies[0] = "\x1b[31m" }, "reply 1 holds"},
	}
	for _, c := range cases {
		a := ok
		a.Replies = slices.Clone(ok.Replies)
		c.change(&a)
		_, _, err := s.Start(a)
		if c.says == "" {
			if err != nil {
				t.Errorf("answers %+v refused: %v", a, err)
			}
			continue
		}
		if !errors.Is(err, study.ErrIntro) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("answers %+v: %v; want ErrIntro saying %q", a, err, c.says)
		}
	}

	// A code is kept in Unicode NFC: typed with a combining accent, it is
	// the code typed with the accented letter.
	if _, _, err := s.Start(study.Answers{Consent: true, Code: "Jose\u0301", Replies: ok.Replies}); err != nil {
		t.Fatal(err)
	}
	ps, err := s.Participants()
	if err != nil {
		t.Fatal(err)
	}
	if got := ps[len(ps)-1].Code; got != "Jos\u00e9" {
		t.Errorf("the code typed as e and a combining acute is kept as %+q; want %+q (NFC)", got, "Jos\u00e9")
	}

	// With nothing configured, nothing is asked and nothing is kept.
	plain, _ := open(t, design(t, 1))
	if _, _, err := plain.Start(study.Answers{Code: "P-17"}); !errors.Is(err, study.ErrIntro) {
		t.Errorf("a code where none is asked: %v, want ErrIntro", err)
	}
	if _, _, err := plain.Start(study.Answers{Replies: []string{"x"}}); !errors.Is(err, study.ErrIntro) {
		t.Errorf("a reply where nothing is asked: %v, want ErrIntro", err)
	}
}

// Participants take the tests in turn, each session has its own token,
// and a session's token is not stored in the database (only its hash).
func TestParticipantsTakeTheTestsInTurn(t *testing.T) {
	s, path := open(t, design(t, 3))
	tokens := map[string]bool{}
	for n := 1; n <= 7; n++ {
		token, v, err := s.Start(study.Answers{})
		if err != nil {
			t.Fatal(err)
		}
		if v.Participant != n || v.Test != (n-1)%3+1 {
			t.Errorf("participant %d takes test %d; want %d", v.Participant, v.Test, (n-1)%3+1)
		}
		if len(token) != 32 || tokens[token] {
			t.Errorf("token %q: 32 hex digits, each new", token)
		}
		tokens[token] = true
		// The database's files (the WAL holds the latest writes) do not
		// hold the token.
		for _, f := range []string{path, path + "-wal"} {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), token) {
				t.Errorf("%s holds the token %s", f, token)
			}
		}
	}
}

// Different exercises name Good and Evil with different glyphs, the names
// are Glyphs, and the same item gives the same names to every participant
// and after a restart.
func TestGlyphsChangeFromExerciseToExercise(t *testing.T) {
	d := design(t, 1)
	s, path := open(t, d)
	names := func(v study.View) []string {
		var ns []string
		for _, c := range v.Cells {
			for _, o := range c.Objects {
				if o != "you" {
					ns = append(ns, o)
				}
			}
		}
		slices.Sort(ns)
		return ns
	}
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClicker(5)
	seen := map[string]bool{}
	var first [][]string
	for !v.Over {
		ns := names(v)
		if len(ns) != 2 || ns[0] == ns[1] || !slices.Contains(study.Glyphs, ns[0]) || !slices.Contains(study.Glyphs, ns[1]) {
			t.Fatalf("exercise %d shows %v; Good and Evil, two different glyphs", v.Exercise, ns)
		}
		if v.Step == 0 {
			seen[strings.Join(ns, " ")] = true
			first = append(first, ns)
		}
		v = play(t, s, token, v, c, 1)
	}
	if len(seen) < 4 {
		t.Errorf("seven exercises use only %d pairs of glyphs: %v", len(seen), seen)
	}
	s.Close()
	s, err = study.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, v, err = s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	if ns := names(v); !slices.Equal(ns, first[0]) {
		t.Errorf("another participant sees %v in exercise 1; the first saw %v", ns, first[0])
	}
}

// A database changed behind the study's back (an observation altered,
// an action or a reward) is detected when the session is rebuilt: the
// error says which participant, exercise and step.
func TestATamperedDatabaseIsDetected(t *testing.T) {
	cases := []struct {
		sql  string
		says string
	}{
		{`UPDATE interactions SET observation = observation || ':' WHERE seq = 22`, "exercise 2, step 3: the observation was"},
		{`UPDATE interactions SET reward = reward + 1 WHERE seq = 30`, "exercise 2, step 11: the reward was"},
		{`UPDATE interactions SET action = action + 1 WHERE seq = 5`, "exercise 1, step 6: the click on cell"},
		{`DELETE FROM interactions WHERE seq = 10`, "exercise 1, step 12: the move 11 is recorded as exercise 1, step 12; the replay is at move 10"},
	}
	for _, c := range cases {
		d := design(t, 1)
		s, path := open(t, d)
		token, v, err := s.Start(study.Answers{})
		if err != nil {
			t.Fatal(err)
		}
		play(t, s, token, v, newClicker(6), 40)
		s.Close()
		if _, err := sqlDB(t, path).Exec(c.sql); err != nil {
			t.Fatal(err)
		}
		s, err = study.Open(path, d)
		if err != nil {
			t.Fatal(err)
		}
		_, err = s.View(token)
		s.Close()
		if !errors.Is(err, study.ErrReplay) || !strings.Contains(err.Error(), "participant 1, "+c.says) {
			t.Errorf("after %s: %v; want ErrReplay saying %q", c.sql, err, c.says)
		}
	}
}

// A move whose record cannot be written is refused, and the session is
// rebuilt from what was committed: here another writer took the move's
// place (as a second server on the same file would), playing the stay
// action, and the next view shows its move, not the refused one.
func TestAFailedWriteRebuildsTheSession(t *testing.T) {
	s, path := open(t, design(t, 1))
	token, v, err := s.Start(study.Answers{})
	if err != nil {
		t.Fatal(err)
	}
	c := newClicker(7)
	v = play(t, s, token, v, c, 4)
	ep, view := episodeAt(t, s, v)
	obs := view.Text()
	reward, err := ep.Finish(0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = sqlDB(t, path).Exec(`INSERT INTO interactions VALUES (1, 4, 1, 5, ?, ?, 0, ?, 0, 0, 1, 0, 0)`, obs, you(v), reward)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v)}); err == nil {
		t.Fatal("a move whose place is taken in the database was accepted")
	}
	after, err := s.View(token)
	if err != nil {
		t.Fatal(err)
	}
	if after.Seq != 5 || after.Step != 5 || after.Last == nil || after.Last.Step != 5 || after.Last.Value != reward {
		t.Errorf("after the failed write the view is at seq %d, last %+v; want the other writer's move 5, of reward %v", after.Seq, after.Last, reward)
	}
	if r := records(t, s)[4]; r.Action != 0 || r.Cell != you(v) {
		t.Errorf("the record of move 5 is %+v; the other writer's stay", r)
	}
}

// episodeAt replays the recorded moves of participant v.Participant in
// v's exercise and begins the next interaction.
func episodeAt(t testing.TB, s *study.Study, v study.View) (*env.Episode, *env.View) {
	t.Helper()
	it := s.Design().Items[v.Exercise-1]
	ep := env.NewEpisode(it.Env, &actions{}, env.EpisodeSeed(it.Seed, 0))
	for _, r := range records(t, s) {
		if r.Participant != v.Participant || r.Exercise != v.Exercise {
			continue
		}
		if _, err := ep.Begin(); err != nil {
			t.Fatal(err)
		}
		if _, err := ep.Finish(r.Action); err != nil {
			t.Fatal(err)
		}
	}
	view, err := ep.Begin()
	if err != nil {
		t.Fatal(err)
	}
	return ep, view
}

// Many participants playing at once (go test -race) each get their own
// test, and every move of every one is recorded, in order.
func TestConcurrentSessions(t *testing.T) {
	s, _ := open(t, design(t, 4))
	const people, moves = 12, 60
	var wg sync.WaitGroup
	errs := make(chan error, people)
	for p := range people {
		wg.Go(func() {
			token, v, err := s.Start(study.Answers{})
			if err != nil {
				errs <- err
				return
			}
			c := newClicker(uint64(100 + p))
			var views sync.WaitGroup
			defer views.Wait()
			for range moves {
				// A second request of the same session races the move.
				views.Go(func() { s.View(token) })
				if v, err = s.Move(token, study.Move{Seq: v.Seq, Cell: c.cell(v), ClientMillis: 300}); err != nil {
					errs <- fmt.Errorf("participant %d: %w", v.Participant, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	ps, err := s.Participants()
	if err != nil {
		t.Fatal(err)
	}
	seqs := map[int]int{}
	for _, r := range records(t, s) {
		if r.Seq != seqs[r.Participant] {
			t.Fatalf("participant %d: record %d follows %d", r.Participant, r.Seq, seqs[r.Participant])
		}
		seqs[r.Participant]++
	}
	if len(ps) != people {
		t.Fatalf("%d participants; want %d", len(ps), people)
	}
	for _, p := range ps {
		if p.Moves != moves || seqs[p.Number] != moves || p.Test != (p.Number-1)%4+1 {
			t.Errorf("participant %+v: %d records; want %d moves", p, seqs[p.Number], moves)
		}
	}
}

// A database file deleted or replaced while the study is open would take
// every later move with it: SQLite goes on writing to the file it has
// open, which no longer has a name, and the moves are gone when the
// server stops. So a move (or a new session) committed to a file that is
// no longer the one at the study's path is refused with ErrFileGone,
// never answered as kept.
func TestADeletedDatabaseRefusesMoves(t *testing.T) {
	cases := []struct {
		name string
		do   func(path string) error
	}{
		{"deleted", func(path string) error {
			for _, f := range []string{path, path + "-wal", path + "-shm"} {
				if err := os.Remove(f); err != nil {
					return err
				}
			}
			return nil
		}},
		{"replaced", func(path string) error {
			other := path + ".new"
			if err := os.WriteFile(other, nil, 0o644); err != nil {
				return err
			}
			return os.Rename(other, path)
		}},
		{"moved", func(path string) error { return os.Rename(path, path+".moved") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, path := open(t, design(t, 1))
			token, v, err := s.Start(study.Answers{})
			if err != nil {
				t.Fatal(err)
			}
			cl := newClicker(8)
			v = play(t, s, token, v, cl, 3)
			if err := c.do(path); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Move(token, study.Move{Seq: v.Seq, Cell: cl.cell(v)}); !errors.Is(err, study.ErrFileGone) {
				t.Errorf("a move after the file was %s: %v; want ErrFileGone", c.name, err)
			}
			if _, _, err := s.Start(study.Answers{}); !errors.Is(err, study.ErrFileGone) {
				t.Errorf("a new session after the file was %s: %v; want ErrFileGone", c.name, err)
			}
		})
	}
}

// Insa-Cabrera et al. (2011) show Good and Evil as neutral symbols that
// change from one exercise to the next, so that nothing a person learnt of a
// symbol carries over (people, unlike agents, are not reset between
// exercises). Drawn independently for each exercise, two exercises in a row
// would share a symbol one time in three, often in the other role. In every
// test of a study, no exercise shows a symbol of the one before.
func TestConsecutiveExercisesShareNoGlyph(t *testing.T) {
	const tests = 10
	s, _ := open(t, design(t, tests))
	for range tests {
		token, v, err := s.Start(study.Answers{})
		if err != nil {
			t.Fatal(err)
		}
		c := newClicker(9)
		var before map[string]bool
		for !v.Over {
			shown := map[string]bool{}
			for _, cell := range v.Cells {
				for _, o := range cell.Objects {
					if o == "you" {
						continue
					}
					shown[o] = true
					if before[o] {
						t.Errorf("test %d: exercise %d shows %s, as exercise %d did", v.Test, v.Exercise, o, v.Exercise-1)
					}
				}
			}
			before = shown
			exercise := v.Exercise
			for !v.Over && v.Exercise == exercise {
				v = play(t, s, token, v, c, 1)
			}
		}
	}
}

// Replies are text in any script: some scripts need characters that are
// not printed themselves but join or order the ones that are (the
// zero-width non-joiner of everyday Persian, the joiner inside emoji,
// the right-to-left mark of Hebrew and Arabic typing), and refusing them
// would refuse those participants' answers. Control characters and the
// bidirectional overrides, which make a text look other than it is in an
// export, are still refused.
func TestRepliesInEveryScript(t *testing.T) {
	d := design(t, 1)
	d.Intro = study.Intro{Questions: []string{"Comment?"}}
	s, _ := open(t, d)
	for _, reply := range []string{
		"می\u200cخواهم",              // Persian, "I want": a zero-width non-joiner
		"\U0001F469\u200d\U0001F4BB", // an emoji sequence: a zero-width joiner
		"\u200fשלום, 42",             // Hebrew typed with a right-to-left mark
		"co\u00adoperate",            // a soft hyphen, pasted from a word processor
	} {
		if _, _, err := s.Start(study.Answers{Replies: []string{reply}}); err != nil {
			t.Errorf("reply %q refused: %v", reply, err)
		}
	}
	for _, reply := range []string{"a\u202eb", "a\u2066b", "a\x07b", "a\u0085b", "a\u2028b"} {
		if _, _, err := s.Start(study.Answers{Replies: []string{reply}}); !errors.Is(err, study.ErrIntro) {
			t.Errorf("reply %q: %v; want ErrIntro", reply, err)
		}
	}
}
