// Package study runs a study of the ANYNT tests with people: it gives a
// participant the test of a Design one move at a time, keeps every
// interaction in an embedded SQLite database, and gives the results as
// package exam gives an agent's, so that a report puts people beside the
// agents on the same items. It knows nothing of HTTP (package web serves
// it).
package study
