package report_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/anynt/anynt/agent"
	"github.com/anynt/anynt/exam"
	"github.com/anynt/anynt/report"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Parts written and merged give back the test's input: its items (loaded
// again from their sources), its outcomes in Take's order, with a fault's
// message kept, and its scales; parts of another version, or stopped by a
// fault, are refused.
func TestPartsMergeIntoTheInput(t *testing.T) {
	items, err := exam.LambdaOneItems(1, 2, "test")
	if err != nil {
		t.Fatal(err)
	}
	xs, err := exam.Examinees([]string{"random", "follower"}, agent.DefaultSettings)
	if err != nil {
		t.Fatal(err)
	}
	s := exam.DefaultSettings
	whole, err := exam.Take(items, xs, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole[3].Fault = errors.New("a fault, kept as its message")
	in := report.Input{Version: "v", Protocol: report.Protocol{Name: "lambda-one"}, Seed: 1, Tests: 1, Settings: s,
		Agents: []report.Agent{{Name: "random"}, {Name: "follower"}}, Items: items, Outcomes: whole, Bounds: exam.Bounds(items, s, nil)}
	dir := t.TempDir()
	A, pairs := len(xs), len(items)*len(xs)
	var paths []string
	for k := 1; k <= 3; k++ {
		from, to := (k-1)*pairs/3, k*pairs/3
		part := in
		part.Outcomes = nil
		for p := from; p < to; p++ {
			part.Outcomes = append(part.Outcomes, whole[(p%A)*len(items)+p/A])
		}
		lo, hi := exam.FirstPairs(A, from, to)
		part.Bounds = in.Bounds[lo:hi]
		path, err := report.WritePart(dir, part, true, k, 3, from, to, nil)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	got, bounds, err := report.MergeParts(paths, "v")
	if err != nil || !bounds {
		t.Fatal(err, bounds)
	}
	sameError := cmp.Comparer(func(a, b error) bool { return (a == nil) == (b == nil) && (a == nil || a.Error() == b.Error()) })
	if !cmp.Equal(got.Outcomes, in.Outcomes, cmpopts.EquateNaNs(), sameError) {
		t.Errorf("the outcomes differ:\n%s", cmp.Diff(in.Outcomes, got.Outcomes, cmpopts.EquateNaNs(), sameError))
	}
	if !cmp.Equal(got.Bounds, in.Bounds, cmpopts.EquateNaNs(), sameError) {
		t.Error("the scales differ")
	}
	for i, it := range got.Items {
		w := items[i]
		if it.Name != w.Name || it.Source != w.Source || it.Seed != w.Seed || it.Env == nil || len(it.Env.Actions) != len(w.Env.Actions) {
			t.Errorf("item %d: %+v, want %+v", i, it, w)
		}
	}
	if _, _, err := report.MergeParts(paths, "other"); err == nil || !strings.Contains(err.Error(), "merge with the anynt that gave the test") {
		t.Errorf("another version: %v", err)
	}
	stopped, err := report.WritePart(t.TempDir(), in, true, 1, 3, 0, 2, []error{errors.New("the agent crashed")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := report.MergeParts([]string{stopped, paths[1], paths[2]}, "v"); err == nil || !strings.Contains(err.Error(), "the agent crashed") {
		t.Errorf("a part stopped by a fault: %v", err)
	}
}
