package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// Each flag of a group is refused, by the real command, where the group
// means nothing, with the message that names it: the check asks the
// group, so that a flag added to a group is refused there without a list
// to update.
func TestFlagGroupsRefuseEachOfTheirFlags(t *testing.T) {
	f := pflag.NewFlagSet("groups", pflag.ContinueOnError)
	var draw drawFlags
	var x examFlags
	var outside outsideFlags
	adaptive := newAdaptiveFlags()
	draw.register(defsOf(f))
	x.register(defsOf(f), nil)
	outside.register(defsOf(f))
	outside.registerBatch(defsOf(f))
	adaptive.register(defsOf(f))
	blocker := corpusDir + "thesis/omega1-blocker.anynt"
	// A database that cannot be opened: were a refusal missing, serve
	// would fail to open it (status 4) instead of serving until stopped.
	db := filepath.Join(t.TempDir(), "missing", "x.db")
	for _, c := range []struct {
		group   *flagGroup
		command []string
		says    string
	}{
		{&adaptive.group, []string{"test", "--tests", "1"}, "means nothing to a protocol; it is a setting of --adaptive"},
		{&draw.choice, []string{"test", "--adaptive"}, "means nothing to the adaptive test"},
		{&x.protocolOnly, []string{"test", "--adaptive"}, "means nothing to the adaptive test"},
		{&draw.battery.sampling, []string{"test", "--adaptive"}, "means nothing to the adaptive test"},
		{&draw.battery.all, []string{"test", "--tests", "1"}, "means nothing to --protocol lambda-one"},
		{&draw.lambdaOne, []string{"test", "--protocol", "battery", blocker}, "means nothing to --protocol battery"},
		{&draw.battery.all, []string{"serve", "--db", db}, "means nothing to --protocol lambda-one"},
		{&x.report, []string{"results", "--db", db, "--interactions"}, "means nothing to an export; it is a setting of the report"},
		{&x.q.group, []string{"test", "--agent", "random", "--tests", "1"}, "is a setting of qlearning; the agents random have none"},
		{&x.q.group, []string{"run", blocker, "--agent", "oracle"}, "is a setting of qlearning; agent oracle has none"},
		{&outside.settings, []string{"test", "--tests", "1"}, "is a setting of --agent-cmd, which is not given"},
		{&outside.all, []string{"test", "--adaptive"}, "means nothing to the adaptive test (docs/protocol.md)"},
	} {
		if len(c.group.flags) == 0 {
			t.Fatalf("%v: the group has no flags", c.command)
		}
		for _, fl := range c.group.flags {
			args := append(c.command, "--"+fl.Name+"="+fl.DefValue)
			if fl.Name == "agent-cmd" {
				args = append(c.command, "--agent-cmd", "x")
			}
			_, errw, code := anynt(t, "", args...)
			if want := "--" + fl.Name + " " + c.says; code != exitUsage || !strings.Contains(errw, want) {
				t.Errorf("anynt %s: status %d, %q; want %d saying %q", strings.Join(args, " "), code, errw, exitUsage, want)
			}
		}
	}
}
