// Command anynt is the command-line tool of the anynt toolchain: it formats,
// expands, disassembles and runs Markov algorithms written in the notation
// of the ANYNT papers, and runs classic rule files; it checks, runs,
// measures and generates environments, gives tests to agents and reports
// them, and gives tests to people (serve, results).
//
// The commands are built by newRootCmd (cobra) and run in process by run,
// which the tests call directly. Errors print as file:line:col: message,
// followed by the source line and a caret; only this package adds those.
//
// anynt serve is the one command that runs until stopped: it opens the
// study's database (package study), listens with an http.Server whose
// timeouts and header limit bound every connection, serves package web's
// handler, and on SIGINT or SIGTERM shuts the server down (the requests
// under way are answered) before it closes the database. A listening
// address off this machine needs --public, since the page has no login.
// Its flags that draw the test are anynt test's, registered and checked by
// the same code, so that a study and an agents' test of the same flags are
// the same items.
//
// Exit status: 0 success; 1 errors in an input file (results: nobody
// finished); 2 usage errors; 3 a run stopped at a limit (its string is
// still printed); 4 a file could not be read or written; 5 an agent outside
// anynt failed; 128 + n a test or run with an agent outside anynt was
// interrupted by signal n (its agents ended, its report written; guard in
// outside.go). Standard output is a checkedWriter: a command's output that
// could not be written is status 4, named once on standard error, over any
// other status (exitStatus), so that no command can lose its output and
// exit 0.
package main
