// Package version names the build of anynt that made an output.
//
// Every output a researcher keeps (a run's --json, an enumeration's
// header, a report) carries this string, so that a figure can always be
// traced to the code that computed it. The release number is written here
// by hand when a release is cut; the build's VCS revision, when Go recorded
// one, is appended, with "+dirty" when the tree had uncommitted changes.
package version
