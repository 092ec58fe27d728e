// Package study runs a study of the ANYNT tests with people: it gives each
// participant a test of a Design one move at a time, keeps every
// interaction in an embedded SQLite database, and gives the results as
// package exam gives an agent's, so that a report puts people beside the
// agents on the same items. It knows nothing of HTTP: package web serves
// it, and decides nothing itself.
//
// # Storage
//
// The database is SQLite through modernc.org/sqlite, SQLite's own C code
// translated to Go: a real SQLite file, which any sqlite3 tool reads, with
// no cgo, so that go build works on a fresh machine without a C compiler.
// Four tables: study (one row: the schema version and the design without
// its items, as JSON), items (every test's items, each with its Source,
// so that a study never depends on files that may change, and its steps
// and seed), sessions (number, hashed token, code, test, replies, start)
// and interactions (one row a move, keyed by session and sequence number:
// the observation shown, the cell clicked, the action it played, the
// reward, the page's and the server's times, the time counted, the
// clock). A study is created by the first Open of a file with a design;
// later Opens read it back, loading each environment from its stored
// source, and refuse a design that is not the same test (ErrOtherDesign,
// naming the first difference in protocol, seed, tests, settings, intro,
// or an item's name, steps, seed or source; the version and the sources'
// comment lines, which name the version, may differ, so that a newer
// anynt continues a study). A file that is not a SQLite database, a
// database of another program, or a study of a newer schema is refused
// with an error that says so. A study of schema version 1, which kept no
// server timer and cut no claim, gets version 2's columns when it is opened
// where it can be written, and is read as it is from a read-only copy.
//
// # Durability and replay
//
// The connection runs in WAL mode with synchronous=FULL: Move commits the
// move's record (an fsync) before it returns, and so before the page is
// answered, so that a move the participant saw answered is on disk. The state
// of a session in memory is only a cache, of at most 10,000 sessions (the
// least recently used not in use are let go, so that sessions started by a
// script cannot fill memory): a session this process does not hold (after a
// restart of the server, or let go; a closed and reopened tab only asks for
// the view again) is rebuilt by replaying its recorded moves from the item's
// seed: episode 0 of each item, env.EpisodeSeed(item.Seed, 0), as exam.Take
// gives an agent, so that a person and an agent meet the same random choices
// (a paired design, as Insa-Cabrera et al. 2011, "Comparing humans and AI
// agents"). Each replayed step must show the recorded observation, its click
// must be the recorded action and give the recorded reward; otherwise the
// environment or the database changed, and the session is refused with
// ErrReplay naming the participant, exercise and step. When a record cannot
// be written, the move is refused and the session is dropped from memory, so
// that the next request rebuilds it from what was committed. A write is kept
// only if, after its commit, the study's path still names the file it opened:
// a database deleted, moved or replaced while the study is open would go on
// taking writes that vanish with it, so every write is then refused
// (ErrFileGone) until the study is opened again. One process records in a
// database at a time: OpenHeld takes a lock on the database file itself,
// its device and inode (internal/filelock.Hold), for the study's life,
// before it reads the database, and a second OpenHeld, from any process and
// through any name of the file (a hard link too), is refused with ErrHeld
// (two writers would number sessions and moves alike, and two names of one
// file have two write-ahead logs, one of which is lost). Readers take no lock. A holder's Close
// checkpoints the write-ahead log into the file, so that a closed study is
// one file.
//
// # Moves and refusals
//
// The study decides every move: a click on cell c plays the lowest action
// that leads from the participant's cell to c. A move must carry its
// session's participant number, when it carries one (ErrOtherSession: a
// page of another session, or a forged request), the view's sequence
// number (ErrStale otherwise: a replayed, duplicated or
// reordered request), a cell of the space (ErrOutOfRange), a cell some
// action reaches (ErrNotAccessible), and come before the end of the test
// (ErrOver). A refusal changes nothing. Requests of one session are
// serialised by its own lock; sessions run in parallel and queue only to
// write.
//
// # Sessions and privacy
//
// A session is identified by a secret token, 128 random bits from
// crypto/rand in hex; the database keeps its SHA-256 only, so that a copy
// of the database cannot be used to play in a session. Participant n
// takes test ((n−1) mod Tests)+1. The intro asks nothing by default: a
// participant code only when the design asks for one (at most 64 bytes of
// visible text, kept in Unicode NFC; white space at either end and
// invisible characters are refused, never dropped: checkCode), the replies to the configured questions only (exactly
// one each, at most 1000 bytes), and consent only when there is consent
// text (a session exists only once it is given, so it is not stored).
// Nothing else is kept: no address, no user agent, no name; the times are
// the session's start, each move's, and when the step under way was first
// shown (the server's timer).
//
// # What the participant sees
//
// The view gives the cells with their contents: "you" (○) and, for Good, Evil
// and the objects, neutral names drawn for each item from the item's seed (a
// permutation of Glyphs on its own stream, the names of the test's previous
// exercise put last), so that the symbols change from exercise to exercise
// (no symbol of Good or Evil is seen in the exercise before, where it may
// have meant the other: people, unlike agents, are not reset between
// exercises), carry no meaning, and are the same for every participant of a
// test. The participant is shown where Good and Evil are but not which is
// which, as in the interface of Insa-Cabrera et al. (2011). A cell is
// accessible when some action leads there from the participant's cell. The
// reward of the last move is shown by its sign.
//
// # Timing
//
// The payoffs of Hernández-Orallo (2010a, "On Evaluating Agent Performance in
// a Fixed Period of Time") need the time each move took. The page measures
// from showing the view to the click, which leaves the network out; the
// server measures from the first time it served the step's view (by Start,
// Move or View) to receiving the move, which includes it. Serving the view
// again (a reload, a second tab) does not restart the server's timer:
// otherwise a page could ask for the view just before its move and make any
// think look short. A page can say anything, so its time counts only when the
// server's bounds it from above and, less NetworkAllowance (the view's and
// the click's ways over the network), from below, and the step's view was
// served once; a longer time, none, or a view served again gives the
// server's (a page drawn again restarted its clock, which leaves out the
// time before), and a shorter one the server's less the allowance, the
// record saying the claim was cut (Record.ClientCut). The server's timer of
// the step under way is kept in the session's row (keepClock), so that a
// session let go from memory and rebuilt has it back: an eviction cannot
// make the server's time unknown and a page's claim trusted. After an exercise the next one's view
// comes with the answer to its last move: the server's timer of the next step
// runs through the pause screen, and the page's, which counts, starts when
// the page draws the exercise: that step has no floor (NetworkAllowance). After a restart the server did not serve the
// view (a timer another process kept is not used: the time it was down is
// no think) and its time is unknown (0): it runs from the first view the new
// process serves, and a move sent with no view since counts the page's time,
// up to an hour. A page's time that is not a number, negative, or over a day
// (no step takes that long; 1e308 is no measure) is kept as 0 (unknown). The
// time counted is never below 1 ms, so that a run's times increase. Outcomes
// puts an exercise's moves at the running sum of these times and scores it
// with exam.Played, at its last move, as exam.Take scores an agent that did
// all its steps before τ.
package study
