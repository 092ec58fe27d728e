// Command anynt is the command-line tool of the anynt toolchain: it formats,
// expands, disassembles and runs Markov algorithms written in the notation
// of the ANYNT papers, and runs classic rule files; it checks, runs,
// measures and generates environments, gives tests to agents and reports
// them, and gives tests to people (serve, results).
//
// # Layout
//
// Each command is in the file named after it: markov.go, expand.go,
// fmt.go, disasm.go, check.go, space.go, run.go, dot.go, complexity.go,
// enumerate.go, evolve.go, test.go, merge.go, serveenv.go (serve-env),
// serve.go, results.go, new.go (with the skeleton it writes,
// skeleton.anynt), try.go and lsp.go. A file holds the command's cobra
// definition, its flags and the function that runs it; a command too
// large for one file continues in files that carry its name:
// run_outside.go (run with an agent outside anynt), enumerate_estimate.go
// (--estimate), test_help.go, test_shard.go (--shard and --out: one part
// of a test, for merge), serve_study.go, results_export.go, try_place.go
// (the placement --at and --seed make) and try_print.go (the outcome as
// it is printed).
// anynt test's parts are in files named after what they are: the
// protocols and the flags that draw the items (protocols.go), a battery
// (battery.go), the adaptive test and its output (adaptive.go,
// adaptive_output.go), the flags of how the agents take the items
// (examflags.go). What several commands share is in files named after
// it: root.go (the root command and the table of subcommands), exit.go
// (the exit statuses), errprint.go (positioned errors with their line and
// caret), source.go (reading and writing the files named on the command
// line), behaviour.go (the rule list markov, expand and disasm work on),
// flags.go (flag groups and the flags of several commands), outside.go
// and guard.go (agents outside anynt and the signals that end them),
// output.go and progress.go (standard output, JSON, the progress line).
//
// main.go holds main alone. The commands are built by newRootCmd (cobra)
// and run in process by run (root.go), which the tests call directly. Only the subcommand named is built, with
// its flags: building all of them was a tenth of a millisecond of each run.
//
// # Flags
//
// Flags that belong together are a type that registers them and checks
// them: the size of a run (runSize), Q-learning's settings, an agent
// outside anynt (outsideFlags), the flags that draw a test's items
// (drawFlags, shared by test and serve), those that decide how agents take
// them and how the report is written (examFlags, shared by test and
// results), a battery's and the adaptive test's. A group defines its
// flags through flagDefs, which records each in a flagGroup, in order (a
// flag may be in several groups, nested), so that a check
// that refuses flags where they mean nothing (a battery's under
// --protocol lambda-one, a protocol's under --adaptive, the report's in an
// export) asks the group which were given, and no list of flag names is
// kept beside the flags.
//
// # Errors and exit statuses
//
// A command returns an error; exitCode alone maps it to the exit status,
// by errors.As and errors.Is: the positioned errors of package lang and
// the other errors of an input file 1 (inputError), usage errors 2
// (usageError, a rule file given for an environment, and any error of
// cobra's parsing), a run stopped at a limit 3 (limitError, evolve's
// search for a seed), I/O failures 4 (ioError), agents that failed 5
// (agentError, exam.AgentError, a protocol version the client does not
// speak), and 128 + n for a test or run with an agent outside anynt
// interrupted by signal n (signalError; its agents ended, its report
// written; guard.go). A command wraps an error of no type of its own in
// the kind that says what went wrong; errSilent ends a command with
// status 1 and no message when its output said why (fmt --check).
// Errors print as file:line:col: message, followed by the source line and
// a caret; only this package adds those. Standard output is a
// checkedWriter: a command's output that could not be written is status
// 4, named once on standard error, over any other status (exitStatus), so
// that no command can lose its output and exit 0.
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
package main
