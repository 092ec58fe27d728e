package study

import (
	"cmp"
	crand "crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/anynt/anynt/env"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/random"

	// Unicode normalization of participant codes (NFC): the standard
	// library has none, and x/text is the Go team's own, already needed
	// by the module graph.
	"golang.org/x/text/unicode/norm"
)

// Bounds of what a participant sends.
const (
	MaxCode  = 64   // bytes of a participant code
	MaxReply = 1000 // bytes of a reply to a question
	// maxClientMillis is the longest time the page may claim for a move
	// when the server's own measure is unknown (after a restart).
	maxClientMillis = 3_600_000
	// maxKeptClientMillis is the longest time the page may claim for a
	// move and have it kept: a day, longer than a step of any test. A
	// longer one (1e308) is no measure, and is kept as 0 (unknown), as a
	// negative one is, so that no sum or mean of the export overflows.
	maxKeptClientMillis = 86_400_000
	tokenBytes          = 16
	// maxSessionsInMemory bounds the sessions a process holds in memory,
	// about a kilobyte each for Λ_one.
	maxSessionsInMemory = 10_000
)

// live is a session under way in this process: its episode and where it
// stands. Its mutex orders the requests of one session; sessions do not
// wait for one another except to write.
type live struct {
	mu sync.Mutex
	// used is when a request last took the session (Unix nanoseconds):
	// memory lets go of the least recently used first.
	used atomic.Int64
	// evicted says memory let go of the session while a request waited
	// for it: the request looks the session up again.
	evicted bool
	// ready says the fields below hold the session; it is false until the
	// session is read from the database, and again after a failed write,
	// so that the next request rebuilds it from what was committed.
	ready        bool
	hash         string // of the token
	number, test int
	items        []int // the test's items, as indices into Design.Items
	exercise     int   // under way, from 0; len(items) once over
	step         int   // steps done in the exercise under way
	seq          int   // moves recorded
	ep           *env.Episode
	view         *env.View // of the interaction begun; nil once over
	obs          string    // the view's observation, as the papers write it
	glyphs       []string  // the exercise's names for Good, Evil and the objects
	last         *Reward
	// served is when this process first served the view of the step
	// under way (zero until it does: after a restart, or when memory let
	// the session go): the server's timer of the move. Serving the view
	// again (a reload, a second tab) does not restart it, so that a page
	// cannot shorten the time the server measures.
	served time.Time
	// servedAgain says the step's view was served more than once (a
	// reload, a second tab): the page's clock restarted with the page it
	// drew, and leaves out the time before, so the server's counts.
	servedAgain bool
	// clockUnkept says the timer above could not be written to the
	// database (keepClock): memory keeps the session until it can be.
	clockUnkept bool
}

// idle stands for the participant in an episode: the moves come through
// Begin and Finish, so it is never asked to act.
type idle struct{}

func (idle) Start(*env.Env, *random.Rand) {}
func (idle) Act(*env.View) int            { return 0 }
func (idle) End(float64)                  {}

// Start opens a session for a new participant who answered the intro, and
// returns its secret token and first view. Answers that do not answer the
// intro as asked are refused with ErrIntro, saying why.
func (s *Study) Start(a Answers) (token string, v View, err error) {
	code, err := checkAnswers(s.design.Intro, a)
	if err != nil {
		return "", View{}, err
	}
	raw := make([]byte, tokenBytes)
	crand.Read(raw) // crypto/rand never fails (it panics if the OS cannot give randomness)
	token = hex.EncodeToString(raw)
	replies, _ := json.Marshal(append([]string{}, a.Replies...)) // strings always marshal
	l := &live{hash: hashToken(token)}
	s.write.Lock()
	err = s.db.QueryRow(`INSERT INTO sessions (number, token_sha256, code, test, replies, started)
		SELECT n, ?, ?, (n - 1) % ? + 1, ?, ? FROM (SELECT coalesce(max(number), 0) + 1 AS n FROM sessions)
		RETURNING number, test`, l.hash, code, s.design.Tests, string(replies), s.now().UnixNano()).Scan(&l.number, &l.test)
	if err == nil {
		err = s.stillThere()
	}
	s.write.Unlock()
	if err != nil {
		return "", View{}, fmt.Errorf("recording the session: %w", err)
	}
	l.items = s.tests[l.test-1]
	s.begin(l)
	l.ready = true
	l.mu.Lock()
	defer l.mu.Unlock()
	s.mu.Lock()
	s.hold(l)
	s.mu.Unlock()
	return token, s.serve(l), nil
}

// hold puts l in memory, s.mu held. When memory holds maxLive sessions it
// first lets go of the least recently used quarter of them that no
// request is using: they are rebuilt from the database when they come
// back, with the server's timer of the move under way that keepClock
// wrote there, so that a script starting sessions, or many participants
// over a long study, cannot fill memory nor erase a timer. Sessions in
// use, or whose timer could not be written, are never let go, so memory
// exceeds maxLive only while more than that many requests are under way
// at once or the database refuses writes.
func (s *Study) hold(l *live) {
	l.used.Store(time.Now().UnixNano())
	if len(s.live) >= s.maxLive {
		type held struct {
			l    *live
			used int64
		}
		all := make([]held, 0, len(s.live))
		for _, x := range s.live {
			all = append(all, held{x, x.used.Load()})
		}
		slices.SortFunc(all, func(a, b held) int { return cmp.Compare(a.used, b.used) })
		n := len(s.live) - s.maxLive*3/4 + 1
		for _, x := range all {
			if n == 0 {
				break
			}
			if x.l.mu.TryLock() { // not in use
				if x.l.clockUnkept {
					x.l.mu.Unlock()
					continue
				}
				x.l.evicted = true
				delete(s.live, x.l.hash)
				x.l.mu.Unlock()
				n--
			}
		}
	}
	s.live[l.hash] = l
}

// checkAnswers checks the answers against the intro and returns the code
// to keep.
func checkAnswers(in Intro, a Answers) (string, error) {
	fail := func(format string, args ...any) (string, error) {
		return "", fmt.Errorf("%w: %s", ErrIntro, fmt.Sprintf(format, args...))
	}
	switch {
	case in.Consent != "" && !a.Consent:
		return fail("the participant did not give consent")
	case !in.AskCode && a.Code != "":
		return fail("no participant code is asked, so none is kept")
	case in.AskCode && strings.TrimSpace(a.Code) == "":
		return fail("the participant code is missing")
	case len(a.Replies) != len(in.Questions):
		return fail("%d replies to %d questions", len(a.Replies), len(in.Questions))
	}
	code, err := checkCode(a.Code)
	if err != nil {
		return fail("%s", err)
	}
	for i, r := range a.Replies {
		if len(r) > MaxReply {
			return fail("reply %d is %d bytes; at most %d", i+1, len(r), MaxReply)
		}
		if !printable(strings.NewReplacer("\n", " ", "\t", " ", "\r", " ").Replace(r)) {
			return fail("reply %d holds a character that cannot be printed", i+1)
		}
	}
	return code, nil
}

// checkCode checks a participant code and returns it as kept: in Unicode
// normalization form C, so that a code typed with a letter and a combining
// accent and the same code typed with the accented letter are one code,
// as they look. Nothing else is changed: white space at either end is
// refused rather than dropped, and so, alike, is every character that
// cannot be seen (invisible), so that two codes that look the same are
// the same code in the export.
func checkCode(code string) (string, error) {
	if !utf8.ValidString(code) {
		return "", errors.New("the participant code is not UTF-8 text, so it cannot be printed")
	}
	code = norm.NFC.String(code)
	first, _ := utf8.DecodeRuneInString(code)
	last, _ := utf8.DecodeLastRuneInString(code)
	switch {
	case code == "":
		return "", nil
	case unicode.IsSpace(first):
		return "", fmt.Errorf("the participant code begins with white space (%U); type it without", first)
	case unicode.IsSpace(last):
		return "", fmt.Errorf("the participant code ends with white space (%U); type it without", last)
	case len(code) > MaxCode:
		return "", fmt.Errorf("the participant code is %d bytes; at most %d", len(code), MaxCode)
	}
	for i, r := range []rune(code) {
		if invisible(r) {
			return "", fmt.Errorf("the participant code's character %d, %U, cannot be printed or seen; type the code without it", i+1, r)
		}
	}
	return code, nil
}

// invisible says r cannot be seen in a code: control characters (the tab
// and line breaks among them), format characters (the zero-width space
// and joiners, the bidirectional marks, embeddings, overrides and
// isolates, the soft hyphen, the byte order mark), line and paragraph
// separators, every space but U+0020 (which is seen between two
// characters, and is refused at either end), variation selectors, the
// other code points Unicode says to ignore by default (the Hangul
// fillers), private-use characters, and code points Unicode does not
// assign.
func invisible(r rune) bool {
	if r == ' ' {
		return false
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zs, unicode.Zl, unicode.Zp, unicode.Co,
		unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
		return true
	}
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S)
}

// printable says s is UTF-8 text of printable characters (spaces are),
// with the format characters that text in some scripts needs: the
// zero-width joiner and non-joiner (Persian, emoji), the left-to-right and
// right-to-left marks, the soft hyphen. The bidirectional embeddings,
// overrides and isolates are refused with the control characters: they
// make a text look other than it is where it is read (an export, a
// terminal).
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		bidi := r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069'
		if !unicode.IsPrint(r) && (!unicode.Is(unicode.Cf, r) || bidi) {
			return false
		}
	}
	return true
}

func hashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// View is the session's current view. Serving it starts the server's timer
// of the next move when no view of that step was served before: the
// timer runs from the first. An unknown token is ErrNoSession; a session
// whose recorded moves no longer replay is ErrReplay.
func (s *Study) View(token string) (View, error) {
	l, err := s.session(token)
	if err != nil {
		return View{}, err
	}
	defer l.mu.Unlock()
	return s.serve(l), nil
}

// Move plays the participant's move, records it (committed before Move
// returns) and returns the next view. A move that is not the
// participant's next legal one is refused and changes nothing:
// ErrOtherSession when m.Participant is another session's, ErrStale
// when m.Seq is not the view's, ErrOver after the last step, ErrOutOfRange
// for a cell the space does not have, ErrNotAccessible for one that no
// action reaches. A click on a cell plays the lowest action leading there.
func (s *Study) Move(token string, m Move) (View, error) {
	l, err := s.session(token)
	if err != nil {
		return View{}, err
	}
	defer l.mu.Unlock()
	if m.Participant != 0 && m.Participant != l.number {
		return View{}, fmt.Errorf("%w: participant %d is not this session's", ErrOtherSession, m.Participant)
	}
	if m.Seq != l.seq {
		return View{}, fmt.Errorf("%w: the move answers view %d; the current view is %d", ErrStale, m.Seq, l.seq)
	}
	if l.view == nil {
		return View{}, ErrOver
	}
	dest := l.view.Dest()
	if m.Cell < 1 || m.Cell > len(l.view.CellRewards()) {
		return View{}, fmt.Errorf("%w: cell %d; the space has cells 1 to %d", ErrOutOfRange, m.Cell, len(l.view.CellRewards()))
	}
	action := actionTo(dest, m.Cell-1)
	if action < 0 {
		return View{}, fmt.Errorf("%w: cell %d", ErrNotAccessible, m.Cell)
	}
	now := s.now()
	r := Record{
		Participant: l.number, Exercise: l.exercise + 1, Step: l.step + 1, Seq: l.seq,
		Observation: l.obs, Cell: m.Cell, Action: action, ClientMillis: m.ClientMillis, At: now,
	}
	if !(r.ClientMillis >= 0 && r.ClientMillis <= maxKeptClientMillis) { // not a time: unknown
		r.ClientMillis = 0
	}
	known := !l.served.IsZero()
	if known {
		r.ServerMillis = float64(now.Sub(l.served).Microseconds()) / 1000
	}
	page := r.ClientMillis
	if l.servedAgain {
		page = 0
	}
	// The first step of a later exercise: the server's time holds the
	// pause screen before it, which the page's rightly leaves out.
	afterPause := l.step == 0 && l.exercise > 0
	r.TookMillis, r.ClientCut = took(page, r.ServerMillis, known, !afterPause)
	r.Reward, err = l.ep.Finish(action)
	if err != nil { // cannot happen: an interaction is begun and action is in range
		l.ready = false
		return View{}, err
	}
	if err := s.record(r); err != nil {
		l.ready = false // the episode moved on; rebuild it from what was committed
		return View{}, fmt.Errorf("recording the move: %w", err)
	}
	s.advance(l, r.Reward)
	return s.serve(l), nil
}

// actionTo is the lowest action leading from a cell whose destinations
// are dest to cell c, or −1 when none does.
func actionTo(dest []int, c int) int {
	for a, d := range dest {
		if d == c {
			return a
		}
	}
	return -1
}

// record commits r, into the file the study opened (stillThere).
func (s *Study) record(r Record) error {
	s.write.Lock()
	defer s.write.Unlock()
	_, err := s.db.Exec(`INSERT INTO interactions
		(session, seq, exercise, step, observation, cell, action, reward, client_ms, server_ms, took_ms, at, client_cut)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Participant, r.Seq, r.Exercise, r.Step, r.Observation, r.Cell, r.Action, r.Reward,
		r.ClientMillis, r.ServerMillis, r.TookMillis, r.At.UnixNano(), r.ClientCut)
	if err != nil {
		return err
	}
	return s.stillThere()
}

// begin starts the episode of the exercise under way: episode 0 of its
// item, as exam.Take plays it, so that a participant meets the random
// choices an agent meets.
func (s *Study) begin(l *live) {
	it := s.design.Items[l.items[l.exercise]]
	l.ep = env.NewEpisode(it.Env, idle{}, env.EpisodeSeed(it.Seed, 0))
	l.view, _ = l.ep.Begin() // a new episode has no interaction under way
	l.obs = l.view.Text()
	l.glyphs = s.glyphs[l.items[l.exercise]]
}

// advance moves l past a finished move of reward reward: to the next
// step, the next exercise, or the end of the test.
func (s *Study) advance(l *live, reward float64) {
	l.step++
	l.seq++
	l.served, l.servedAgain = time.Time{}, false // the next step's view is not served yet
	l.last = &Reward{Exercise: l.exercise + 1, Step: l.step, Value: reward, Sign: sign(reward)}
	if l.step < s.design.Items[l.items[l.exercise]].Steps {
		l.view, _ = l.ep.Begin() // the move finished the interaction
		l.obs = l.view.Text()
		return
	}
	l.ep.End()
	l.exercise++
	l.step = 0
	if l.exercise < len(l.items) {
		s.begin(l)
		return
	}
	l.ep, l.view, l.obs, l.glyphs = nil, nil, "", nil
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// glyphs names Good, Evil and the n−2 objects of an item given after
// an exercise that showed before: a permutation of Glyphs drawn from the
// item's seed (its own stream), with the glyphs shown before moved to its
// end, so that the names change from exercise to exercise (Good's and
// Evil's always: Glyphs has more than four), carry no meaning, and are the
// same for every participant of the test and every run.
func glyphs(it exam.Item, n int, before []string) []string {
	perm := random.New(it.Seed, 0x676c79706873).Perm(len(Glyphs)) // "glyphs"
	fresh := make([]string, 0, len(Glyphs))
	var shown []string
	for _, k := range perm {
		if slices.Contains(before, Glyphs[k]) {
			shown = append(shown, Glyphs[k])
		} else {
			fresh = append(fresh, Glyphs[k])
		}
	}
	order := append(fresh, shown...)
	names := make([]string, n)
	for k := range names {
		names[k] = order[k%len(order)]
		if k >= len(order) {
			names[k] += strconv.Itoa(k/len(order) + 1)
		}
	}
	return names
}

// serve returns l's view and starts the server's timer of its next move,
// unless the view of this step was served before; the timer is kept in
// the database when it changes (keepClock).
func (s *Study) serve(l *live) View {
	switch {
	case l.served.IsZero():
		l.served = s.now()
		s.keepClock(l)
	case !l.servedAgain:
		l.servedAgain = true
		s.keepClock(l)
	}
	v := View{Participant: l.number, Test: l.test, Exercise: l.exercise + 1, Step: l.step, Seq: l.seq, Over: l.view == nil}
	v.Exercises = make([]Exercise, len(l.items))
	for i, item := range l.items {
		x := Exercise{Number: i + 1, Steps: s.design.Items[item].Steps}
		switch {
		case i < l.exercise:
			x.Done = x.Steps
		case i == l.exercise:
			x.Done = l.step
		}
		v.Exercises[i] = x
	}
	if l.last != nil {
		last := *l.last
		v.Last = &last
	}
	if l.view == nil {
		return v
	}
	v.Cells = make([]Cell, len(l.view.CellRewards()))
	for c := range v.Cells {
		v.Cells[c] = Cell{Number: c + 1, Objects: []string{}}
	}
	for i, c := range l.view.Positions() {
		name := "you"
		if i > 0 {
			name = l.glyphs[i-1]
		}
		v.Cells[c].Objects = append(v.Cells[c].Objects, name)
	}
	for _, d := range l.view.Dest() {
		v.Cells[d].Accessible = true
	}
	return v
}

// session finds the session of token, rebuilding it from the database when
// this process does not hold it, and returns it locked.
func (s *Study) session(token string) (*live, error) {
	if len(token) != 2*tokenBytes || strings.Trim(token, "0123456789abcdef") != "" {
		return nil, ErrNoSession
	}
	h := hashToken(token)
	for {
		s.mu.Lock()
		l := s.live[h]
		if l == nil {
			l = &live{hash: h}
			s.hold(l)
		}
		s.mu.Unlock()
		l.mu.Lock()
		if l.evicted { // let go while this request waited for it
			l.mu.Unlock()
			continue
		}
		l.used.Store(time.Now().UnixNano())
		if l.ready {
			return l, nil
		}
		if err := s.rebuild(l); err != nil {
			if errors.Is(err, ErrNoSession) {
				l.evicted = true
				s.mu.Lock()
				if s.live[h] == l {
					delete(s.live, h)
				}
				s.mu.Unlock()
			}
			l.mu.Unlock()
			return nil, err
		}
		l.ready = true
		return l, nil
	}
}

// rebuild reads l's session from the database and replays its recorded
// moves from the seeds, checking that each shows the recorded observation
// and gives the recorded reward.
func (s *Study) rebuild(l *live) error {
	err := s.db.QueryRow(`SELECT number, test FROM sessions WHERE token_sha256 = ?`, l.hash).Scan(&l.number, &l.test)
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoSession
	}
	if err != nil {
		return fmt.Errorf("reading the session: %w", err)
	}
	if l.test < 1 || l.test > len(s.tests) {
		return fmt.Errorf("%w: participant %d takes test %d, which the study does not have", ErrReplay, l.number, l.test)
	}
	l.items, l.exercise, l.step, l.seq, l.last = s.tests[l.test-1], 0, 0, 0, nil
	l.served, l.servedAgain = time.Time{}, false
	s.begin(l)
	rows, err := s.db.Query(`SELECT seq, exercise, step, observation, cell, action, reward
		FROM interactions WHERE session = ? ORDER BY seq`, l.number)
	if err != nil {
		return fmt.Errorf("reading the moves: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r Record
		if err := rows.Scan(&r.Seq, &r.Exercise, &r.Step, &r.Observation, &r.Cell, &r.Action, &r.Reward); err != nil {
			return fmt.Errorf("reading the moves: %w", err)
		}
		if err := s.replay(l, r); err != nil {
			return fmt.Errorf("%w: participant %d, exercise %d, step %d: %s", ErrReplay, l.number, r.Exercise, r.Step, err)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return s.readClock(l)
}

// replay plays one recorded move, checking it against the episode.
func (s *Study) replay(l *live, r Record) error {
	switch {
	case l.view == nil:
		return errors.New("a move is recorded after the end of the test")
	case r.Seq != l.seq || r.Exercise != l.exercise+1 || r.Step != l.step+1:
		return fmt.Errorf("the move %d is recorded as exercise %d, step %d; the replay is at move %d, exercise %d, step %d",
			r.Seq, r.Exercise, r.Step, l.seq, l.exercise+1, l.step+1)
	case r.Observation != l.obs:
		return fmt.Errorf("the observation was %q and is now %q", r.Observation, l.obs)
	case r.Cell < 1 || actionTo(l.view.Dest(), r.Cell-1) != r.Action:
		return fmt.Errorf("the click on cell %d is recorded as action %d, which is not the lowest action leading there", r.Cell, r.Action)
	}
	reward, err := l.ep.Finish(r.Action)
	if err != nil {
		return err
	}
	if reward != r.Reward {
		return fmt.Errorf("the reward was %v and is now %v", r.Reward, reward)
	}
	s.advance(l, reward)
	return nil
}
