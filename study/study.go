package study

import (
	"errors"
	"time"

	"github.com/anynt/anynt/exam"
)

// Design is what a study gives its participants, fixed when the study is
// created and stored with it: the tests (every item with its source, so
// that the study never depends on files that may change), and what a
// participant is shown and asked before the test.
type Design struct {
	Version    string // the anynt version that created the study
	Protocol   string // lambda-one or battery
	Complexity string // what Item.Complexity is: K_approx or bits
	Strata     string // how a report groups the items: cells or complexity
	Settings   string // the protocol's own settings, as report.Protocol.Settings
	Seed       uint64
	// Tests is the number of different tests: participant n takes test ((n−1)
	// mod Tests) + 1, so that the design of Insa-Cabrera et al. (2011) (each
	// test to one person) is --tests 20 with 20 participants.
	Tests int
	// Items are every test's items, test by test, in the order they are
	// given; each carries its Source.
	Items []exam.Item
	Intro Intro
}

// Intro is what a participant is shown and asked before the test. By
// default nothing is asked: no personal data is collected unless the
// researcher configures a question.
type Intro struct {
	Consent   string   // the text the participant must accept; "" for none
	AskCode   bool     // ask for the participant code the researcher gave
	Questions []string // further questions, their answers stored; none by default
}

// Answers are a participant's answers to the intro.
type Answers struct {
	Consent bool
	Code    string
	Replies []string // one for each of Intro.Questions
}

// Move is a participant's click: the cell (from 1) and the sequence
// number of the view it answers (View.Seq), which refuses a replayed or
// reordered request, with the time the page measured from showing the
// view to the click.
type Move struct {
	// Participant is the session's number as the page knows it
	// (View.Participant), checked against the token's session: a page
	// that sends another session's number is refused (ErrOtherSession).
	// 0 skips the check.
	Participant  int
	Seq          int
	Cell         int
	ClientMillis float64
}

// View is what the page shows a participant: where the test stands and the
// space as the participant sees it.
//
// Its JSON form is the view of the page's API (snake_case).
type View struct {
	Participant int        `json:"participant"` // the session's number, from 1
	Test        int        `json:"test"`        // the test it takes, from 1
	Exercises   []Exercise `json:"exercises"`   // the test's exercises in order
	// Exercise is the exercise under way, from 1; len(Exercises)+1 once
	// the test is over.
	Exercise int `json:"exercise"`
	Step     int `json:"step"` // steps done in the exercise under way
	// Seq is the number the next move must carry: the moves recorded in
	// the session so far.
	Seq   int    `json:"seq"`
	Cells []Cell `json:"cells"` // nil once the test is over
	// Last is the reward of the session's last move, nil before its first:
	// after an exercise's last step it is still that step's reward (its
	// Exercise says which), so that the page can show it as the next
	// exercise begins.
	Last *Reward `json:"last"`
	Over bool    `json:"over"`
}

// Exercise is one exercise of a participant's test.
type Exercise struct {
	Number int `json:"number"`
	Steps  int `json:"steps"`
	Done   int `json:"done"` // steps done
}

// Cell is one cell as the participant sees it.
type Cell struct {
	Number int `json:"number"` // from 1
	// Objects are the glyph names of what is in the cell, in the
	// observation's order: "you" for the participant (○), then neutral
	// names (Glyphs) drawn for each exercise for Good, Evil and the
	// objects, which carry no meaning. A test with more objects than
	// Glyphs reuses them with a number: "diamond2".
	Objects    []string `json:"objects"`
	Accessible bool     `json:"accessible"` // one move leads there from the participant's cell
}

// Reward is the reward of a move, as the page shows it.
type Reward struct {
	Exercise int     `json:"exercise"`
	Step     int     `json:"step"` // from 1
	Value    float64 `json:"value"`
	Sign     int     `json:"sign"` // −1, 0 or +1: a down arrow in a red circle, a small square in a grey one, an up arrow in a green one
}

// Glyphs are the neutral symbols' names, from which each exercise draws
// Good's, Evil's and its objects'; the page draws each name. None is drawn
// as a sign the page gives a meaning (the neutral reward's square) or as a
// plus or a minus (the papers' ⊕ and ⊖), which would tell a person which
// is Good, nor as a circle, which a glance takes for the participant's ○
// (the rook ♜ replaced a filled disc ●).
var Glyphs = []string{"diamond", "pentagon", "triangle", "star", "parallelogram", "hexagon", "rook", "bowtie", "club", "spade"}

// Refusals: the study decides every move, and refuses what is not the
// participant's next legal one, changing nothing.
var (
	ErrNoStudy       = errors.New("the database holds no study")
	ErrOtherDesign   = errors.New("the database holds another study")
	ErrNoSession     = errors.New("no such session")
	ErrOtherSession  = errors.New("the move is for another session")
	ErrStale         = errors.New("the move does not answer the current view (replayed or out of order)")
	ErrOutOfRange    = errors.New("no such cell")
	ErrNotAccessible = errors.New("the cell cannot be reached from the participant's cell")
	ErrOver          = errors.New("the test is over")
	ErrIntro         = errors.New("the intro is not answered as asked")
	// ErrReplay is the error of a session whose recorded moves do not
	// replay: the environment or the database changed since they were
	// recorded. It names the participant, exercise and step.
	ErrReplay = errors.New("the recorded moves do not replay")
	// ErrFileGone is the error of a write after the database file was
	// deleted, moved or replaced while the study was open: SQLite would
	// go on writing to the file it has open, which no longer has the
	// study's name, and everything written would be lost.
	ErrFileGone = errors.New("the database file was deleted, moved or replaced while the study was open")
	// ErrHeld is the error of OpenHeld when another process (or another
	// Study of this one) holds the database to record moves in it.
	ErrHeld = errors.New("another process holds the database to record moves (a second anynt serve?)")
)

// Participant describes one session, for the researcher.
type Participant struct {
	Number   int
	Code     string
	Test     int
	Replies  []string
	Started  time.Time
	Last     time.Time // of the last recorded move
	Moves    int
	Finished bool
}

// Record is one recorded interaction.
type Record struct {
	Participant  int
	Code         string
	Test         int
	Exercise     int
	Step         int // from 1
	Seq          int // from 0, over the session
	Observation  string
	Cell         int // clicked, from 1
	Action       int
	Reward       float64
	ClientMillis float64 // measured by the page, from the view to the click
	ServerMillis float64 // measured by the server, from serving the view to the move; 0 when unknown (a restart between)
	TookMillis   float64 // the time the payoffs use (docs/people.md)
	// ClientCut says ClientMillis was shorter than ServerMillis less
	// NetworkAllowance, and TookMillis is the latter.
	ClientCut bool
	At        time.Time
}
