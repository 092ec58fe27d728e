// Package stdlib is the standard library of shared rule blocks: rule lists
// that any rule file or environment can include with `use NAME` without
// defining them. The papers price a rule shared by many objects once, plus a
// reference per use; a library of such blocks is where sharing pays most.
//
// The blocks are ordinary rule files embedded in the binary (*.anynt in this
// folder), parsed once on first use. A block of the file being compiled
// hides a library block of the same name.
package stdlib
