// Package report turns a test's outcomes into the figures and pictures a
// reader of seed 002 expects.
package report
