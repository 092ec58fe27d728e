package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/anynt/anynt/web"
	"github.com/spf13/cobra"
)

// Bounds of what anynt serve shows a participant: the page is for a
// person to read, and the database keeps the text with the study.
const (
	maxConsentBytes = 64 << 10
	maxQuestions    = 20
	maxQuestionLen  = 500 // bytes of one question
	maxTitleLen     = 200 // bytes of the page's title
	defaultTitle    = "ANYNT test"
)

// The HTTP server's limits: a client that sends slowly, or sends large
// headers, cannot hold a connection or memory for long. A move is a few
// hundred bytes and answers in milliseconds, so these leave room for a
// slow network only.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
	// maxHeaderBytes bounds a request's line and headers. net/http reads
	// 4096 bytes beyond http.Server.MaxHeaderBytes ("bufio slop"), so the
	// server is given the bound less those (see newHTTPServer).
	maxHeaderBytes = 16 << 10
	headerSlop     = 4096
	// shutdownGrace is how long a stopped server waits for the requests
	// under way (each a move committed or not) before it closes them.
	shutdownGrace = 10 * time.Second
)

// serveFlags are anynt serve's flags: the test (as anynt test draws it),
// the database, the intro and where to listen.
type serveFlags struct {
	draw              drawFlags
	db, addr, consent string
	title             string
	askCode, public   bool
	questions         []string
	// intro are the flags of what a participant is shown before the
	// test, which, with the draw's, describe a study.
	intro flagGroup
}

func newServeCmd(io *stdio) *cobra.Command {
	var fl serveFlags
	cmd := &cobra.Command{
		Use:   "serve --db FILE [--protocol P] [--tests N] [--seed S] [--consent FILE] [--ask-code] [--question TEXT]... [--title TEXT] [--addr HOST:PORT [--public]] [FILE|DIR...]",
		Short: "Give a test to people in a web browser, every interaction kept in a database",
		Long: `serve starts a web server that gives a test to people: the page shows the
exercises as the interface of Insa-Cabrera et al. 2011, "Comparing humans
and AI agents", did (cells as coloured squares, the participant ○, Good and
Evil as neutral symbols that change from exercise to exercise, accessible
cells with a thicker border, the reward of each step as an up arrow in a green
circle, a small square in a grey one or a down arrow in a red one), and can be
used with the keyboard and a screen reader.

The test is drawn as anynt test draws it (--protocol, --tests, --seed and a
battery's flags and files); participant n takes test ((n−1) mod --tests)+1, so
the paper's design (20 tests, one person each) is the default. The study is
kept in the SQLite database --db FILE: its test, every session and every
interaction, each committed before the page sees its answer, so that a closed
tab or a stopped server loses nothing. Given an existing database and no flag
that decides the study, serve goes on with the stored study; given such flags,
they must describe the stored study, or serve refuses and names the difference.

Before the test a participant accepts --consent FILE's text (none by
default), gives the participant code you handed out (--ask-code) and answers
each --question; nothing else about a person is collected: no address, no
browser. Each session is anonymous, known by a secret random token in a
cookie.
--title TEXT names the page in the browser's tab ("ANYNT test" by default);
it is not part of the study, and may change between two runs.

The server listens on --addr, on this machine only by default. Anyone who can
reach the address can take the test and add sessions to the database, so an
address other than a loopback one needs --public (docs/people.md, "Binding
elsewhere"). New sessions are limited to 100 at once and 10 a second (429,
Retry-After); sessions started are not. One serve at a time serves a database: a second one exits 4 at
start-up (the first holds a lock on the file itself, through any link). SIGINT or SIGTERM stops the
server once the requests under way are answered; a second signal cuts them
short (exit 4); either way the database is closed, its log checkpointed,
before serve says it stopped. anynt results reads the database, also while
serve runs.`,
		Example: `  anynt serve --db study.db
  anynt serve --db study.db --tests 20 --seed 7 --consent consent.txt --ask-code
  anynt serve --db study.db --question "Your age in years?" --addr 127.0.0.1:9000
  anynt serve --db battery.db --protocol battery --steps 200 corpus/paper
  anynt serve --db study.db --addr 0.0.0.0:8080 --public`,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl.draw.files = args
			return runServe(io, fl)
		},
	}
	f := cmd.Flags()
	defs := defsOf(f)
	fl.draw.register(defs)
	f.StringVar(&fl.db, "db", "", "the study's SQLite database, created when missing (required)")
	f.StringVar(&fl.addr, "addr", "127.0.0.1:8080", "the address to listen on, HOST:PORT (port 0: any free port)")
	f.BoolVar(&fl.public, "public", false, "allow an --addr that is not a loopback address")
	defs.in(&fl.intro, func(f flagDefs) {
		f.StringVar(&fl.consent, "consent", "", "a UTF-8 text FILE a participant must accept before the test")
		f.BoolVar(&fl.askCode, "ask-code", false, "ask each participant for the code the researcher gave")
		f.StringArrayVar(&fl.questions, "question", nil, fmt.Sprintf("a question asked before the test, its answer stored (repeatable, up to %d)", maxQuestions))
	})
	f.StringVar(&fl.title, "title", defaultTitle, "the page's title, in the browser's tab: it should not tell participants the study's hypothesis")
	return cmd
}

// runServe opens the study and serves it until a signal stops it.
func runServe(io *stdio, fl serveFlags) error {
	if err := fl.check(); err != nil {
		return err
	}
	s, err := openServedStudy(fl)
	if err != nil {
		return err
	}
	closed := false
	defer func() {
		if !closed {
			s.Close()
		}
	}()
	// A database the process may read but not write opens, and would
	// refuse every participant's start: say so now.
	if err := s.CheckWritable(); err != nil {
		return ioFailure(fmt.Errorf("--db %w; anynt serve records every move in it", err))
	}
	d := s.Design()
	ps, err := s.Participants()
	if err != nil {
		return ioFailure(fmt.Errorf("--db %s: %w", fl.db, err))
	}
	ln, err := net.Listen("tcp", fl.addr)
	if err != nil {
		return ioFailure(fmt.Errorf("--addr: %w", err))
	}
	srv := newHTTPServer(web.New(s, web.Options{Title: fl.title, Logger: slog.New(slog.NewTextHandler(io.err, nil))}))
	// Signals are caught: the first stops the server, a second cuts the
	// requests still under way short, and the database is closed before
	// serve says it stopped; a third (or SIGKILL) ends the process at
	// once, losing nothing answered either.
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(signals)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(io.out, "anynt serve: the %s study (seed %d, %s, %s so far) is at %s — Ctrl-C stops it\n",
		d.Protocol, d.Seed, count(d.Tests, "test"), count(len(ps), "participant"), servedURL(fl.addr, ln.Addr()))
	select {
	case err := <-served:
		return ioFailure(fmt.Errorf("serving: %w", err))
	case <-signals:
	}
	// The grace is cancelled when runServe returns, not before: while the
	// database closes, a second signal is still caught, and a third then
	// ends anynt at once.
	shutdown, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	stopErr := stopServing(shutdown, cancel, srv, signals)
	closed = true
	if err := s.Close(); err != nil {
		return ioFailure(fmt.Errorf("closing the database: %w", err))
	}
	fmt.Fprintln(io.out, "anynt serve: stopped; every answered move is in", fl.db)
	if stopErr != nil {
		return ioFailure(stopErr)
	}
	return nil
}

// stopServing shuts srv down after the first of signals: the requests
// under way are answered, unless shutdown's grace runs out or a second
// signal comes (which cancels it), and either cuts them short.
func stopServing(shutdown context.Context, cancel func(), srv *http.Server, signals chan os.Signal) error {
	go func() {
		select {
		case <-signals:
			cancel()
			// A third signal is the default's again: it ends the
			// process at once, should closing the database wait on a
			// busy reader (what was answered is committed already).
			signal.Stop(signals)
		case <-shutdown.Done():
		}
	}()
	err := srv.Shutdown(shutdown)
	if err != nil {
		srv.Close() // cut what is still under way: none of it was answered
		return fmt.Errorf("stopping: the requests under way were cut short (%w); none had been answered", err)
	}
	return nil
}

// check refuses a missing --db, an address serve may not listen on and
// a title the browser cannot show.
func (fl *serveFlags) check() error {
	if fl.db == "" {
		return usage(errors.New("--db FILE is required: the database that keeps the study"))
	}
	if err := checkListenAddr(fl.addr, fl.public); err != nil {
		return err
	}
	return checkTitle(fl.title)
}

// newHTTPServer is the server of a study's page, with the limits of a
// server open to anyone who can reach it.
func newHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes - headerSlop,
	}
}

// servedURL is the address serve prints: the host as --addr names it (a
// listener on 0.0.0.0 reports itself as [::], which is not what was asked)
// and the port the listener has (--addr's may be 0, any free port).
func servedURL(addr string, listening net.Addr) string {
	host, _, _ := net.SplitHostPort(addr) // checked by checkListenAddr
	_, port, _ := net.SplitHostPort(listening.String())
	if host == "" {
		host, _, _ = net.SplitHostPort(listening.String())
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// checkListenAddr refuses an address the server cannot listen on, and one
// that other machines can reach unless public says so.
func checkListenAddr(addr string, public bool) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usage(fmt.Errorf("--addr %q: %v (say HOST:PORT, such as 127.0.0.1:8080)", addr, err))
	}
	loopback := host == "localhost"
	if ip := net.ParseIP(host); ip != nil {
		loopback = ip.IsLoopback()
	}
	switch {
	case !loopback && !public:
		return usage(fmt.Errorf("--addr %s is not a loopback address: anyone who can reach it on the network "+
			"could open the test, add sessions to the database and fill it; the traffic is plain HTTP. "+
			"Add --public to listen there anyway (docs/people.md, \"Binding elsewhere\")", addr))
	case loopback && public:
		return usage(fmt.Errorf("--public means nothing with the loopback address %s", addr))
	}
	return nil
}

// checkTitle refuses a title the browser's tab could not show as one
// line of text.
func checkTitle(title string) error {
	ok := strings.TrimSpace(title) != "" && len(title) <= maxTitleLen && utf8.ValidString(title) &&
		!strings.ContainsFunc(title, unicode.IsControl)
	if !ok {
		return usage(fmt.Errorf("--title must be one line of UTF-8 text of 1 to %d bytes", maxTitleLen))
	}
	return nil
}
