// Command anynt is the command-line tool of the anynt toolchain: it formats,
// expands, disassembles and runs Markov algorithms written in the notation
// of the ANYNT papers, and runs classic rule files.
//
// The commands are built by newRootCmd (cobra) and run in process by run,
// which the tests call directly. Errors print as file:line:col: message,
// followed by the source line and a caret; only this package adds those.
//
// Exit status: 0 success; 1 errors in an input file; 2 usage errors;
// 3 a run stopped at a limit (its string is still printed).
package main
